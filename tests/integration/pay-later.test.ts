import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { db } from '@/server/db/client';
import type { PaymentProvider } from '@/server/payments/provider';
import { PhotoAddresses } from '@/server/orders/photos';
import { lookupOrder } from '@/server/orders/service';
import { reproduction } from '../support/orders';
import { paying } from '../support/payment';
import { rest } from '../support/rest';
import { expectError } from '../support/staff';
import { checkoutEvent, postOrderWithCheckout, signed, startStripeServer } from '../support/stripe';

/** decisions.md "Paying later": a pending order opens a fresh Checkout session, the webhook still pays it once. */

let stripe: Awaited<ReturnType<typeof startStripeServer>>;
beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => stripe.close());

const email = 'pay-later@example.com';
const customer = { ...reproduction().customer, email };

/** POST /v1/orders/{code}/checkout as a server with this checkout (or none) answers it. */
async function payLater(code: string, body: Record<string, unknown>, checkout: PaymentProvider | undefined) {
  const request = new Request(`http://shop.test/v1/orders/${code}/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const response = await handleRest(request, () => createContext({ payments: checkout }));
  return { status: response.status, body: (await response.json()) as any };
}

/** The newest Checkout session the shop keeps for the order. */
const newestSession = async (code: string) => (await db().paymentSession.findFirstOrThrow({ where: { order: { code } }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] })).id;

const webhook = (payload: unknown) => rest('POST', '/payments/stripe-webhook', { body: JSON.stringify(payload), headers: signed(JSON.stringify(payload)) });

describe('POST /v1/orders/{code}/checkout', () => {
  test('a customer who left Stripe pays later: a fresh session, the first one expired, and the order paid exactly once', async () => {
    const created = await postOrderWithCheckout(reproduction({ customer }), stripe.payments());
    expect(created.status).toBe(201);
    const { code, total } = created.body;
    const first = await newestSession(code);

    const again = await payLater(code.toLowerCase(), { email: email.toUpperCase() }, stripe.payments());
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(Object.keys(again.body)).toEqual(['checkoutUrl']);
    const second = await newestSession(code);
    expect(second).not.toBe(first);
    expect(again.body.checkoutUrl).toContain(second);
    expect(stripe.expired).toContain(first);
    expect(stripe.sessions.get(second)).toMatchObject({ status: 'open', client_reference_id: code, amount_total: total });

    // A third visit expires the second; the expired first one is left alone (Stripe would refuse it).
    const third = await payLater(code, { email }, stripe.payments());
    expect(third.status).toBe(200);
    expect(stripe.expired.filter((id) => id === first)).toHaveLength(1);
    expect(stripe.expired).toContain(second);

    // The customer pays on the newest session; a late success on another session changes nothing.
    const newest = await newestSession(code);
    expect((await webhook(checkoutEvent('checkout.session.completed', { code, amount: total, id: newest }))).status).toBe(200);
    expect((await webhook(checkoutEvent('checkout.session.completed', { code, amount: total, id: second }))).status).toBe(200);
    const order = await db().order.findUniqueOrThrow({ where: { code }, include: { events: true } });
    expect(order.status).toBe('paid');
    expect(order.events.filter((e) => e.status === 'paid')).toHaveLength(1);

    // Paid: nothing left to pay.
    expectError(await payLater(code, { email }, stripe.payments()), 409, 'invalid_transition');
  });

  test('a wrong e-mail or code is 404 like the lookup; no payment provider is 409 payment_unavailable; bad input is 400', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction({ customer }) });
    expectError(await payLater(body.code, { email: 'someone@else.example' }, stripe.payments()), 404, 'not_found');
    expectError(await payLater('ZZZZZZZZZZ', { email }, stripe.payments()), 404, 'not_found');
    expectError(await payLater(body.code, {}, stripe.payments()), 400, 'invalid_input');
    expectError(await payLater(body.code, { email }, undefined), 409, 'payment_unavailable');
    // Cancelled is not pending either.
    await db().order.update({ where: { code: body.code }, data: { status: 'cancelled' } });
    expectError(await payLater(body.code, { email }, stripe.payments()), 409, 'invalid_transition');
  });

  test('the document describes the operation and its two 409s', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const operation = doc.paths['/orders/{code}/checkout'].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '409']));
    expect(doc.components.schemas.ErrorCode?.enum ?? JSON.stringify(doc)).toContain('payment_unavailable');
  });
});

describe('how to pay and when it arrives, in the order lookup', () => {
  test('a pending order says how to pay; a paid one does not; the delivery estimate moves with the order', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction({ customer, size: '30x40' }) });
    const lookup = async () => (await rest('GET', `/orders/${body.code}`, { query: { email } })).body.order;
    const pending = await lookup();
    // Tests run with no STRIPE_SECRET_KEY and no PAYMENT_INSTRUCTIONS: the studio e-mails how to pay.
    const payBy = new Date((await db().order.findUniqueOrThrow({ where: { code: body.code } })).createdAt.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
    expect(pending.payment).toEqual({ state: 'unpaid', paid: 0, refunded: 0, disputed: false, online: false, instructions: null, bankTransfer: null, payBy, refunds: [] });
    expect(pending.estimatedDelivery).toEqual({ earliest: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), latest: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    expect(pending.estimatedDelivery.earliest < pending.estimatedDelivery.latest).toBe(true);

    const order = await db().order.findUniqueOrThrow({ where: { code: body.code } });
    // Shipped a week ago: the range counts from that day, and is earlier than a fresh order's.
    await db().order.update({ where: { id: order.id }, data: { status: 'shipped', paidCents: order.totalCents } });
    await db().orderEvent.create({ data: { orderId: order.id, status: 'shipped', actor: 'staff', at: new Date(Date.now() - 7 * 86_400_000) } });
    const shipped = await lookup();
    expect(shipped.payment).toEqual({
      state: 'paid',
      paid: order.totalCents,
      refunded: 0,
      disputed: false,
      online: false,
      instructions: null,
      bankTransfer: null,
      payBy: null,
      refunds: [],
    });
    expect(shipped.estimatedDelivery.latest < pending.estimatedDelivery.earliest).toBe(true);
    await db().order.update({ where: { id: order.id }, data: { status: 'delivered' } });
    expect((await lookup()).estimatedDelivery).toBeNull();
  });

  test("with the studio's bank account set, a pending order gives it with the last day to pay, beside card payment too; a paid one does not", async () => {
    const bankTransfer = { accountHolder: 'Atelier Prints GmbH', iban: 'DE89370400440532013000', bic: null, bankName: null };
    const { body } = await rest('POST', '/orders', { json: reproduction({ customer }) });
    const settings = { photos: new PhotoAddresses('test'), payment: paying({ online: true, bankTransfer, instructions: 'Charges are yours.' }) };
    const pending = await lookupOrder(db(), body.code, email, settings);
    expect(pending.payment).toMatchObject({ online: true, bankTransfer, instructions: 'Charges are yours.', payBy: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
    const order = await db().order.findUniqueOrThrow({ where: { code: body.code } });
    await db().order.update({ where: { id: order.id }, data: { status: 'paid', paidCents: order.totalCents } });
    expect((await lookupOrder(db(), body.code, email, settings)).payment).toMatchObject({ online: false, bankTransfer: null, instructions: null, payBy: null });
  });

  test('GET /v1/pricing gives the delivery table next to the prices, and says shipping is included', async () => {
    const table = (await rest('GET', '/pricing')).body;
    expect(table.shippingIncluded).toBe(true);
    expect(table.delivery).toEqual({
      paintingDays: { '30x40': 7, '50x70': 10, '60x90': 12, '90x120': 15 },
      sketchDays: 3,
      dryingDays: { '30x40': 5, '50x70': 5, '60x90': 5, '90x120': 7 },
      shippingDays: { min: 3, max: 7 },
    });
  });
});
