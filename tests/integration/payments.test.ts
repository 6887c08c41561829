import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import { paymentsFor } from '@/server/integrations/stripe';
import { stripeWebhookRoute } from '@/server/payments/handler';
import { reproduction } from '../support/orders';
import { rest } from '../support/rest';
import { changeStatus, customer, expectError, lookup, newOrder } from '../support/staff';
import { checkoutEvent, postOrderWithCheckout, signed, startStripeServer, WEBHOOK_SECRET } from '../support/stripe';

let stripe: Awaited<ReturnType<typeof startStripeServer>>;
beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => {
  await stripe.close();
});

const webhook = (payload: string, headers: Record<string, string> = signed(payload)) => rest('POST', '/payments/stripe-webhook', { body: payload, headers });
const totalOf = async (code: string) => (await db().order.findUniqueOrThrow({ where: { code } })).totalCents;
const paidEvent = async (code: string, type: Parameters<typeof checkoutEvent>[0] = 'checkout.session.completed', extra: Partial<Parameters<typeof checkoutEvent>[1]> = {}) =>
  JSON.stringify(checkoutEvent(type, { code, amount: await totalOf(code), ...extra }));

describe('checkout with Stripe configured', () => {
  test('order creation opens a Checkout session for the server total and answers its URL', async () => {
    const answer = await postOrderWithCheckout(reproduction({ customer, size: '60x90', frame: 'framed', locale: 'fr', total: 1 }), stripe.payments('https://shop.example'));
    expect(answer.status).toBe(201);
    const { code } = answer.body;
    const request = stripe.requests.find((r) => r.params.client_reference_id === code)!;
    const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === code)!;
    expect(answer.body).toEqual({ code, total: 25900 + 19900, checkoutUrl: session.url });
    expect(request.params).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][unit_amount]': String(25900 + 19900),
      'metadata[orderCode]': code,
      customer_email: customer.email,
      locale: 'fr',
      success_url: `https://shop.example/fr/orders/${code}?checkout=success`,
      cancel_url: `https://shop.example/fr/orders/${code}?checkout=cancelled`,
    });
    expect(request.params['line_items[0][price_data][product_data][name]']).toContain('60x90');
    expect(request.idempotencyKey).toBe(`checkout-${code}`);
    expect(await db().paymentSession.findMany({ where: { order: { code } } })).toEqual([
      expect.objectContaining({ id: session.id, amountCents: 25900 + 19900, state: 'open' }),
    ]);
  });

  test('when Stripe fails after the order committed, the order stays pending and checkoutUrl is null', async () => {
    stripe.control.failWith = 500;
    try {
      const answer = await postOrderWithCheckout(reproduction({ customer }), stripe.payments());
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ code: expect.any(String), total: 25800, checkoutUrl: null });
      const order = await db().order.findUniqueOrThrow({ where: { code: answer.body.code } });
      expect(order).toMatchObject({ status: 'pending' });
      expect(await db().paymentSession.count({ where: { orderId: order.id } })).toBe(0);
      expect(await db().outboxEvent.count({ where: { name: 'shop/order.received', payload: { path: ['code'], equals: answer.body.code } } })).toBe(1);
      expect((await lookup(answer.body.code)).events).toEqual([{ status: 'pending', note: null, at: expect.any(String), photo: null, sketchStatus: null, actor: 'customer' }]);
    } finally {
      stripe.control.failWith = 0;
    }
  });

  test('checkout is on exactly when STRIPE_SECRET_KEY is set', () => {
    expect(paymentsFor(parseEnv({}))).toBeUndefined();
    expect(paymentsFor(parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x' }))).toBeDefined();
  });
});

describe('POST /v1/payments/stripe-webhook', () => {
  test('checkout.session.completed with payment_status paid moves pending → paid, with an event the lookup shows', async () => {
    const code = await newOrder();
    const payload = await paidEvent(code);
    const answer = await webhook(payload);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true, outcome: 'paid' });
    const order = await lookup(code);
    expect(order.status).toBe('paid');
    expect(order.events.map((e) => e.status)).toEqual(['pending', 'paid']);
    const stored = await db().order.findUniqueOrThrow({ where: { code }, include: { events: true } });
    expect(stored.events[1]!.actor).toBe('payment');
    expect(await db().paymentEvent.findUnique({ where: { id: JSON.parse(payload).id } })).toMatchObject({
      provider: 'stripe',
      type: 'checkout.session.completed',
      orderCode: code,
    });
    expect(await db().outboxEvent.count({ where: { name: 'shop/order.paid', payload: { path: ['code'], equals: code } } })).toBe(1);
  });

  test('checkout.session.async_payment_succeeded moves pending → paid', async () => {
    const code = await newOrder();
    expect((await webhook(await paidEvent(code, 'checkout.session.async_payment_succeeded'))).body.outcome).toBe('paid');
    expect((await lookup(code)).status).toBe('paid');
  });

  test('a completed checkout whose payment is still unpaid (async methods) changes nothing', async () => {
    const code = await newOrder();
    const answer = await webhook(await paidEvent(code, 'checkout.session.completed', { paymentStatus: 'unpaid' }));
    expect(answer.status).toBe(200);
    expect((await lookup(code)).status).toBe('pending');
  });

  test('a replayed event id answers 200 and changes nothing', async () => {
    const code = await newOrder();
    const payload = await paidEvent(code);
    expect((await webhook(payload)).body.outcome).toBe('paid');
    const before = await lookup(code);
    const replay = await webhook(payload);
    expect(replay.status).toBe(200);
    expect(replay.body.outcome).toBe('duplicate');
    expect(await lookup(code)).toEqual(before);
  });

  test('the same event delivered five times at once is handled exactly once', async () => {
    const code = await newOrder();
    const payload = await paidEvent(code);
    const answers = await Promise.all(Array.from({ length: 5 }, () => webhook(payload)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'paid']);
    expect((await lookup(code)).events.map((e) => e.status)).toEqual(['pending', 'paid']);
    expect(await db().outboxEvent.count({ where: { name: 'shop/order.paid', payload: { path: ['code'], equals: code } } })).toBe(1);
  });

  test.each([
    ['paid by hand', ['paid']],
    ['in production', ['paid', 'sketching']],
    ['delivered', ['delivered']],
    ['cancelled', ['cancelled']],
  ])('a payment for an order already %s, with no provider to refund through, changes nothing and tells the studio', async (_name, steps) => {
    // (With Stripe configured it is refunded at once: tests/integration/money.test.ts.)
    const code = await newOrder();
    for (const status of steps) expect((await changeStatus(code, { status })).status).toBe(200);
    const before = await lookup(code);
    for (const type of ['checkout.session.completed', 'checkout.session.async_payment_succeeded'] as const) {
      const answer = await webhook(await paidEvent(code, type));
      expect(answer.status).toBe(200);
      expect(answer.body.outcome).toBe('unchanged');
    }
    expect(await lookup(code)).toEqual(before);
    const notices = await db().outboxEvent.findMany({ where: { name: 'shop/studio.notice', payload: { path: ['code'], equals: code } } });
    expect(notices.map((n) => (n.payload as { subject: string }).subject)).toEqual([
      `Order ${code}: a second payment needs a refund by hand`,
      `Order ${code}: a second payment needs a refund by hand`,
    ]);
  });

  test('a second, different paid event for the same order changes nothing', async () => {
    const code = await newOrder();
    await webhook(await paidEvent(code));
    expect((await webhook(await paidEvent(code, 'checkout.session.async_payment_succeeded'))).body.outcome).toBe('unchanged');
    expect((await lookup(code)).events.map((e) => e.status)).toEqual(['pending', 'paid']);
  });

  test('a paid amount that is not the order total leaves the order pending for staff', async () => {
    const code = await newOrder();
    expect((await webhook(await paidEvent(code, 'checkout.session.completed', { amount: 100 }))).body.outcome).toBe('unchanged');
    expect((await webhook(await paidEvent(code, 'checkout.session.completed', { currency: 'eur' }))).body.outcome).toBe('unchanged');
    expect((await lookup(code)).status).toBe('pending');
  });

  test('unknown event types and unknown orders answer 200 and are ignored', async () => {
    const code = await newOrder();
    const other = checkoutEvent('payment_intent.created', { code, amount: 1 });
    expect((await webhook(JSON.stringify(other))).body).toEqual({ received: true, outcome: 'ignored' });
    const expired = checkoutEvent('checkout.session.expired', { code, amount: 1 });
    expect((await webhook(JSON.stringify(expired))).body.outcome).toBe('ignored');
    const nobody = checkoutEvent('checkout.session.completed', { code: 'ZZZZZZZZZZ', amount: 100 });
    expect((await webhook(JSON.stringify(nobody))).body.outcome).toBe('ignored');
    expect((await lookup(code)).status).toBe('pending');
  });

  describe('signatures', () => {
    const refused = async (payload: string, headers: Record<string, string>, code: string) => {
      const answer = await webhook(payload, headers);
      expectError(answer, 400, 'invalid_signature');
      expect((await lookup(code)).status).toBe('pending');
      expect(await db().paymentEvent.findUnique({ where: { id: JSON.parse(payload).id } })).toBeNull();
    };

    test('a tampered body is 400 invalid_signature and changes nothing', async () => {
      const code = await newOrder();
      const other = await newOrder();
      const payload = await paidEvent(other);
      const tampered = payload.replace(other, code);
      await refused(tampered, signed(payload), code);
    });

    test('a body signed with another secret is 400 invalid_signature', async () => {
      const code = await newOrder();
      const payload = await paidEvent(code);
      await refused(payload, signed(payload, { secret: 'whsec_someone_else' }), code);
    });

    test('a stale signature (a replay from more than five minutes ago) is 400 invalid_signature', async () => {
      const code = await newOrder();
      const payload = await paidEvent(code);
      await refused(payload, signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 }), code);
      expect((await webhook(payload, signed(payload, { timestamp: Math.floor(Date.now() / 1000) - 4 * 60 }))).body.outcome).toBe('paid');
    });

    test('a missing or malformed Stripe-Signature header is 400 invalid_signature', async () => {
      const code = await newOrder();
      const payload = await paidEvent(code);
      await refused(payload, { 'content-type': 'application/json' }, code);
      await refused(payload, { 'content-type': 'application/json', 'stripe-signature': 'garbage' }, code);
    });

    test('with no STRIPE_WEBHOOK_SECRET configured every call is invalid_signature', async () => {
      const code = await newOrder();
      const payload = await paidEvent(code);
      const route = stripeWebhookRoute(() => ({ webhookSecret: undefined }));
      const request = new Request('http://shop.test/v1/payments/stripe-webhook', { method: 'POST', headers: signed(payload), body: payload });
      await expect(route.handle(request, {})).rejects.toMatchObject({ code: 'invalid_signature' });
      expect((await lookup(code)).status).toBe('pending');
      expect(WEBHOOK_SECRET).toBe(process.env.STRIPE_WEBHOOK_SECRET);
    });
  });
});
