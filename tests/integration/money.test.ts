import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { recordSession } from '@/server/payments/sessions';
import { reproduction } from '../support/orders';
import { rest } from '../support/rest';
import { changeStatus, expectError, STAFF } from '../support/staff';
import { deliver, postOrderWithCheckout, startStripeServer, stripeEvent, type StripeEventBody, type StripeStandIn } from '../support/stripe';

/**
 * decisions.md "Payments and refunds", each money story end to end: the shop's own code against the
 * Stripe stand-in (the real SDK over HTTP), events signed as Stripe signs them and delivered late,
 * twice and out of order, on real PostgreSQL.
 */

let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => stripe.close());

const email = 'money-stories@example.com';
const customer = { ...reproduction().customer, email };

/** A new order with its first Checkout session opened at the stand-in; answers its code, total and session. */
async function orderAtStripe(overrides: Record<string, unknown> = {}) {
  const created = await postOrderWithCheckout(reproduction({ customer, ...overrides }), stripe.payments());
  expect(created.status).toBe(201);
  const { code, total } = created.body as { code: string; total: number };
  const session = (await db().paymentSession.findFirstOrThrow({ where: { order: { code } } })).id;
  return { code, total, session };
}

const view = async (code: string) => {
  const answer = await rest('GET', `/orders/${code}`, { query: { email }, payments: stripe.payments() });
  expect(answer.status).toBe(200);
  return answer.body.order;
};
const staffView = async (code: string) => (await rest('GET', '/admin/orders', { headers: STAFF })).body.items.find((o: { code: string }) => o.code === code);
const send = (event: StripeEventBody) => deliver(event, stripe.payments());
const payLater = (code: string) => rest('POST', `/orders/${code}/checkout`, { json: { email }, payments: stripe.payments() });
const refund = (code: string, json: unknown = {}, headers: Record<string, string> = {}) =>
  rest('POST', `/admin/orders/${code}/refunds`, { json, headers: { ...STAFF, ...headers }, payments: stripe.payments() });
const outbox = (name: string, code: string) => db().outboxEvent.findMany({ where: { name, payload: { path: ['code'], equals: code } }, orderBy: { createdAt: 'asc' } });
const paymentIntentOf = (session: string) => String(stripe.sessions.get(session)!.payment_intent);

describe('paying', () => {
  test('paid twice: the first payment is kept, the second refunded in full at once, the studio told, the board marked', async () => {
    const { code, total, session: first } = await orderAtStripe();
    // A second session for the same order, open beside the first (a second tab, an older release).
    const payments = stripe.payments();
    const second = await payments.open({ code, of: 'order', lines: [{ name: 'again', amountCents: total }], locale: 'en', email, attempt: 'second-tab' });
    const order = await db().order.findUniqueOrThrow({ where: { code } });
    await recordSession(db(), second.id, [{ orderId: order.id, amountCents: total }]);

    const paidFirst = stripe.pay(first);
    const paidSecond = stripe.pay(second.id);
    // The second payment's event comes first; the first's comes twice, late.
    expect((await send(paidSecond)).body.outcome).toBe('paid');
    expect((await send(paidFirst)).body.outcome).toBe('double_payment_refunded');
    expect((await send(paidFirst)).body.outcome).toBe('duplicate');

    const refunded = [...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(first));
    expect(refunded.map((r) => r.amount)).toEqual([total]);
    expect(refunded[0]!.metadata).toMatchObject({ orderCode: code, doublePayment: first });
    const shown = await view(code);
    expect(shown.status).toBe('paid');
    // The order's own payment: the double payment is neither paid nor refunded.
    expect(shown.payment).toMatchObject({ state: 'paid', paid: total, refunded: 0, disputed: false, online: false });
    expect(shown.events.map((e: { note: string | null }) => e.note)).toContain(
      `A second payment of $${(total / 100).toFixed(2)} arrived for this order and was refunded in full.`,
    );
    expect((await outbox('shop/studio.notice', code)).map((n) => (n.payload as { subject: string }).subject)).toEqual([`Order ${code}: a second payment was refunded`]);
    expect(await outbox('shop/order.paid', code)).toHaveLength(1);
    expect((await staffView(code)).payment).toMatchObject({ state: 'paid', doublePayments: 1 });
    expect(await db().paymentSession.findFirstOrThrow({ where: { id: first } })).toMatchObject({ state: 'refunded', refundId: refunded[0]!.id });
  });

  test('a payment for a cancelled order is refunded in full; one while Stripe cannot refund is retried until it can', async () => {
    const { code, total, session } = await orderAtStripe();
    expect((await changeStatus(code, { status: 'cancelled' })).status).toBe(200);
    const paid = stripe.pay(session);
    stripe.control.refundsFailWith = 500;
    try {
      // Stripe does not answer the refund: nothing is recorded, the webhook fails, Stripe delivers again.
      expect((await send(paid)).status).toBe(500);
      expect(await db().paymentEvent.count({ where: { id: paid.id } })).toBe(0);
    } finally {
      stripe.control.refundsFailWith = 0;
    }
    expect((await send(paid)).body.outcome).toBe('double_payment_refunded');
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(session)).map((r) => r.amount)).toEqual([total]);
    expect((await view(code)).payment).toMatchObject({ state: 'unpaid', paid: 0, refunded: 0 });
  });

  test('a bank debit: processing offers no new payment; it succeeds, or fails and the order can be paid again at once', async () => {
    const { code, total, session } = await orderAtStripe();
    const started = stripe.pay(session, { async: true });
    expect((await send(started)).body.outcome).toBe('processing');
    const processing = await view(code);
    expect(processing.status).toBe('pending');
    expect(processing.payment).toMatchObject({ state: 'processing', paid: 0, online: false, instructions: null });
    expectError(await payLater(code), 409, 'payment_in_progress');

    expect((await send(stripe.settle(session, true))).body.outcome).toBe('paid');
    expect(await view(code)).toMatchObject({ status: 'paid', payment: { state: 'paid', paid: total } });
    // The processing event, delivered again late under another id, changes nothing.
    expect((await send({ ...started, id: `${started.id}_late` })).body.outcome).toBe('unchanged');

    const other = await orderAtStripe();
    expect((await send(stripe.pay(other.session, { async: true }))).body.outcome).toBe('processing');
    expect((await send(stripe.settle(other.session, false))).body.outcome).toBe('failed');
    const failed = await view(other.code);
    expect(failed.payment).toMatchObject({ state: 'unpaid', online: true });
    expect(failed.events.at(-1).note).toBe('Your payment did not go through. You can pay again from this page.');
    const again = await payLater(other.code);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // The failed session is complete at Stripe: the shop did not try to expire it.
    expect(stripe.expired).not.toContain(other.session);
  });

  test('a debit that succeeds before its "completed" event arrives: the late event does not make it processing again', async () => {
    const { code, session } = await orderAtStripe();
    const started = stripe.pay(session, { async: true });
    const succeeded = stripe.settle(session, true);
    expect((await send(succeeded)).body.outcome).toBe('paid');
    expect((await send(started)).body.outcome).toBe('unchanged');
    expect((await view(code)).payment.state).toBe('paid');
  });

  test('pay later fails closed: a session paid at Stripe whose webhook has not come cannot be replaced by a new one', async () => {
    const { code, session } = await orderAtStripe();
    const paid = stripe.pay(session);
    const opened = stripe.requests.length;
    expectError(await payLater(code), 409, 'payment_in_progress');
    expect(stripe.requests.length).toBe(opened);
    // The webhook arrives after all and pays the order once.
    expect((await send(paid)).body.outcome).toBe('paid');
    expectError(await payLater(code), 409, 'invalid_transition');
  });
});

describe('refunds', () => {
  async function paidOrder() {
    const placed = await orderAtStripe();
    expect((await send(stripe.pay(placed.session))).body.outcome).toBe('paid');
    return placed;
  }

  test('partial then full, by the studio through Stripe: the money goes back once per key, the customer is mailed, the order cancelled at the end', async () => {
    const { code, total, session } = await paidOrder();
    const first = await refund(code, { amount: 5000, note: 'Frame damaged' }, { 'Idempotency-Key': 'refund-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.refund).toEqual({ id: expect.any(String), amount: 5000, method: 'stripe', note: 'Frame damaged', at: expect.any(String) });
    expect(first.body.order.payment).toMatchObject({ state: 'partially_refunded', paid: total, refunded: 5000 });
    expect(first.body.order.status).toBe('paid');
    // The same key again: the same refund, no money moved.
    const again = await refund(code, { amount: 5000 }, { 'Idempotency-Key': 'refund-1' });
    expect(again.status).toBe(201);
    expect(again.body.refund.id).toBe(first.body.refund.id);
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(session))).toHaveLength(1);

    // Stripe's own events for that refund, late and twice, record nothing more.
    const [made] = [...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(session));
    const { idempotency_key: _, ...shown } = made!;
    const reported = stripeEvent('refund.created', shown);
    expect((await send(reported)).body.outcome).toBe('unchanged');
    expect((await send(reported)).body.outcome).toBe('duplicate');

    // The rest, by default all that is left.
    const remaining = await refund(code);
    expect(remaining.status).toBe(201);
    expect(remaining.body.refund.amount).toBe(total - 5000);
    expect(remaining.body.order.payment).toMatchObject({ state: 'refunded', refunded: total });
    expect(remaining.body.order.status).toBe('cancelled');
    expectError(await refund(code), 409, 'nothing_to_refund');

    const customerView = await view(code);
    expect(customerView.payment.refunds).toEqual([
      { amount: 5000, at: expect.any(String) },
      { amount: total - 5000, at: expect.any(String) },
    ]);
    expect(customerView.events.map((e: { note: string | null }) => e.note)).toEqual(
      expect.arrayContaining(['$50.00 refunded. Frame damaged', `$${((total - 5000) / 100).toFixed(2)} refunded.`, 'Cancelled: everything paid was refunded.']),
    );
    expect((await outbox('shop/order.refunded', code)).map((e) => (e.payload as { amountCents: number }).amountCents)).toEqual([5000, total - 5000]);
  });

  test("a refund made in Stripe's dashboard is recorded once, whatever order its events come in; a refund that fails later stops counting", async () => {
    const { code, session } = await paidOrder();
    const { refund: made, events } = stripe.refundInDashboard(paymentIntentOf(session), 3000);
    const [created, chargeRefunded] = events as [StripeEventBody, StripeEventBody];
    expect((await send(chargeRefunded)).body.outcome).toBe('refund_recorded');
    expect((await send(created)).body.outcome).toBe('unchanged');
    expect((await send(chargeRefunded)).body.outcome).toBe('duplicate');
    const order = await view(code);
    expect(order.status).toBe('paid');
    expect(order.payment).toMatchObject({ state: 'partially_refunded', refunded: 3000 });
    expect(order.events.at(-1).note).toBe('$30.00 refunded.');
    expect(await outbox('shop/order.refunded', code)).toHaveLength(1);

    expect((await send(stripe.failRefund(made.id))).body.outcome).toBe('refund_recorded');
    expect((await view(code)).payment).toMatchObject({ state: 'paid', refunded: 0 });
    expect((await outbox('shop/studio.notice', code)).map((n) => (n.payload as { subject: string }).subject)).toEqual([`Order ${code}: a refund of $30.00 failed`]);
  });

  test('two refunds at once never give back more than was paid', async () => {
    const { code, total, session } = await paidOrder();
    const share = Math.ceil(total * 0.6);
    const answers = await Promise.all([refund(code, { amount: share }), refund(code, { amount: share })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('refund_too_large');
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(session)).map((r) => r.amount)).toEqual([share]);
  });

  test('in production the status stays; without a Stripe payment the refund is manual; Stripe not answering records nothing and the same key retries safely', async () => {
    const { code, session } = await paidOrder();
    expect((await changeStatus(code, { status: 'painting' })).status).toBe(200);
    stripe.control.refundsFailWith = 503;
    try {
      expectError(await refund(code, { amount: 1000 }, { 'Idempotency-Key': 'k' }), 503, 'unavailable');
    } finally {
      stripe.control.refundsFailWith = 0;
    }
    expect(await db().refund.count({ where: { order: { code } } })).toBe(0);
    const retried = await refund(code, { amount: 1000 }, { 'Idempotency-Key': 'k' });
    expect(retried.status).toBe(201);
    expect(retried.body.order.status).toBe('painting');
    expect([...stripe.refunds.values()].filter((r) => r.payment_intent === paymentIntentOf(session))).toHaveLength(1);

    // Paid by a transfer staff recorded: the studio pays it back itself.
    const { body } = await rest('POST', '/orders', { json: reproduction({ customer }) });
    expect((await changeStatus(body.code, { status: 'paid' })).status).toBe(200);
    const manual = await refund(body.code, { amount: 2500, note: 'Sent back by transfer' });
    expect(manual.status).toBe(201);
    expect(manual.body.refund).toMatchObject({ amount: 2500, method: 'manual' });
  });

  test('bad input and unknown orders: 400, 401, 404, 409, never a 500 and nothing recorded', async () => {
    const { code, total } = await paidOrder();
    for (const amount of ['1000', 10.5, 0, -100, null, true, 1e12]) expectError(await refund(code, { amount }), 400, 'invalid_input');
    expectError(await refund(code, { note: 'x'.repeat(2001) }), 400, 'invalid_input');
    expectError(await refund(code, {}, { 'Idempotency-Key': 'k'.repeat(256) }), 400, 'invalid_input');
    expectError(await refund(code, { amount: total + 1 }), 409, 'refund_too_large');
    expectError(await refund('ZZZZZZZZZZ'), 404, 'not_found');
    expectError(await rest('POST', `/admin/orders/${code}/refunds`, { json: {} }), 401, 'unauthorized');
    const { body } = await rest('POST', '/orders', { json: reproduction({ customer }) });
    expectError(await refund(body.code), 409, 'nothing_to_refund');
    expect(await db().refund.count({ where: { order: { code: { in: [code, body.code] } } } })).toBe(0);
  });
});

describe('disputes', () => {
  test('a dispute holds production and tells the studio; won, the order moves on', async () => {
    const placed = await orderAtStripe();
    await send(stripe.pay(placed.session));
    const { dispute, event } = stripe.dispute(paymentIntentOf(placed.session));
    expect((await send(event)).body.outcome).toBe('dispute_opened');
    expect((await view(placed.code)).payment).toMatchObject({ disputed: true, state: 'paid' });
    expectError(await changeStatus(placed.code, { status: 'painting' }), 409, 'order_disputed');
    // A note is no move: allowed.
    expect((await changeStatus(placed.code, { status: 'paid', note: 'Waiting for the bank' })).status).toBe(200);
    expect((await outbox('shop/studio.notice', placed.code)).map((n) => (n.payload as { subject: string }).subject)).toEqual([
      `Order ${placed.code}: a payment dispute of $${(placed.total / 100).toFixed(2)} was opened`,
    ]);
    const closed = stripe.closeDispute(dispute.id, 'won');
    expect((await send(closed)).body.outcome).toBe('dispute_closed');
    // `created` again, late: the closed dispute stays closed.
    expect((await send({ ...event, id: `${event.id}_late` })).body.outcome).toBe('unchanged');
    expect((await view(placed.code)).payment).toMatchObject({ disputed: false, state: 'paid', refunded: 0 });
    expect((await changeStatus(placed.code, { status: 'painting' })).status).toBe(200);
  });

  test('lost, the disputed amount counts as refunded', async () => {
    const placed = await orderAtStripe();
    await send(stripe.pay(placed.session));
    const { dispute, event } = stripe.dispute(paymentIntentOf(placed.session));
    // Closed before its "created" arrives: recorded as lost, and the late "created" opens nothing.
    expect((await send(stripe.closeDispute(dispute.id, 'lost'))).body.outcome).toBe('dispute_closed');
    expect((await send(event)).body.outcome).toBe('unchanged');
    expect((await view(placed.code)).payment).toMatchObject({ disputed: false, state: 'refunded', refunded: placed.total });
    expectError(await refund(placed.code), 409, 'nothing_to_refund');
  });
});

describe('the document', () => {
  test('describes the refund operation (Idempotency-Key, 201, its 409s and 503), the payment object and the webhook outcomes', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const operation = doc.paths['/admin/orders/{code}/refunds'].post;
    const key = operation.parameters.find((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
    expect(key).toMatchObject({ schema: { type: 'string', minLength: 1, maxLength: 255 } });
    expect(key.required ?? false).toBe(false);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '404', '409', '503']));
    expect(operation.security).toEqual([{ staffToken: [] }]);
    expect(doc.components.schemas.Payment.required).toEqual(expect.arrayContaining(['state', 'paid', 'refunded', 'disputed', 'online', 'instructions']));
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['payment_in_progress', 'nothing_to_refund', 'refund_too_large', 'order_disputed', 'storage_full']),
    );
    const outcome = doc.paths['/payments/stripe-webhook'].post.responses['200'].content['application/json'].schema.properties.outcome;
    expect(outcome.enum).toEqual(expect.arrayContaining(['double_payment_refunded', 'refund_recorded', 'dispute_opened']));
  });
});

describe('cancelling', () => {
  test("closes the order's open checkouts after commit, so nobody pays into a cancelled order", async () => {
    const { runJob, configuredJobDeps } = await import('@/server/jobs/registry');
    const { code, session } = await orderAtStripe();
    expect((await changeStatus(code, { status: 'cancelled' })).status).toBe(200);
    const [close] = await outbox('shop/order.close-checkouts', code);
    expect(close).toBeDefined();
    expect(await runJob(close!.name, close!.payload, { ...configuredJobDeps(), payments: stripe.payments() })).toEqual({ expired: 1 });
    expect(stripe.sessions.get(session)!.status).toBe('expired');
    expect(await db().paymentSession.findFirstOrThrow({ where: { id: session } })).toMatchObject({ state: 'expired' });
  });
});
