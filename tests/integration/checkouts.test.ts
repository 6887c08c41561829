import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { runJob } from '@/server/jobs/registry';
import { markBasketPaid, orderBoard, orderForStaff } from '@/server/orders/board';
import { db } from '@/server/db/client';
import { identityHeaders } from '@/server/http/identity';
import type { Mail, Mailer } from '@/server/integrations/mailer';
import { priceOf } from '@/shared/prices';
import { custom, customer as ada, reproduction } from '../support/orders';
import { paying } from '../support/payment';
import { rest } from '../support/rest';
import { expectError, STAFF } from '../support/staff';
import { deliver, startStripeServer, type StripeStandIn } from '../support/stripe';

/**
 * decisions.md "A basket: several works, one payment", on real PostgreSQL and the Stripe stand-in
 * (the real SDK over HTTP): a basket is priced as its orders would be, taken all or nothing, paid
 * once by one webhook for every order, and each of its orders lives on as an ordinary order.
 */

let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeServer();
});
afterAll(async () => stripe.close());

const email = 'basket-stories@example.com';
const customer = { ...ada, email };
/** An item: an order's body less its customer and locale. */
const item = <T extends { customer?: unknown }>({ customer: _, ...rest }: T) => rest;

/** A reproduction, a custom painting and a framed reproduction. */
async function threeWorks() {
  return [item(reproduction()), item(await custom()), item(reproduction({ artworkSlug: 'mona-lisa', size: '30x40', frame: 'framed', fit: 'crop' }))];
}

const post = (json: unknown, payments = stripe.payments()) => rest('POST', '/checkouts', { json, payments });
const basketOf = (code: string, asked = email) => rest('GET', `/checkouts/${code}`, { query: { email: asked }, payments: stripe.payments() });
const orderView = async (code: string) => (await rest('GET', `/orders/${code}`, { query: { email }, payments: stripe.payments() })).body.order;

describe('placing a basket', () => {
  test('three works are priced as three orders would be, and become three ordinary orders with their own codes', async () => {
    const items = await threeWorks();
    const created = await post({ items, customer, locale: 'de' });
    expect(created.status).toBe(201);
    const { code, total, orders, checkoutUrl } = created.body;
    const prices = [
      priceOf({ kind: 'reproduction', size: '50x70', frame: 'stretched' }),
      priceOf(items[1] as never),
      priceOf({ kind: 'reproduction', size: '30x40', frame: 'framed' }),
    ];
    expect(orders.map((o: { total: number }) => o.total)).toEqual(prices);
    expect(total).toBe(prices[0]! + prices[1]! + prices[2]!);
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(new Set([code, ...orders.map((o: { code: string }) => o.code)]).size).toBe(4);
    expect(checkoutUrl).toMatch(/^http/);

    // One Checkout session, a line item per order, for the basket's total.
    const sessions = await db().paymentSession.findMany({ where: { order: { checkout: { code } } } });
    expect(new Set(sessions.map((s) => s.id)).size).toBe(1);
    expect(sessions.map((s) => s.amountCents).sort()).toEqual([...prices].sort());
    expect(stripe.sessions.get(sessions[0]!.id)!.amount_total).toBe(total);
    expect(stripe.sessions.get(sessions[0]!.id)!.client_reference_id).toBe(code);

    // Each order: its own lookup, naming its basket; the basket's lookup lists them in the items' order.
    for (const order of orders) expect(await orderView(order.code)).toMatchObject({ status: 'pending', checkout: code, total: order.total });
    const basket = await basketOf(code.toLowerCase(), email.toUpperCase());
    expect(basket.status).toBe(200);
    expect(basket.body.checkout).toMatchObject({ code, total });
    expect(basket.body.checkout.orders.map((o: { code: string }) => o.code)).toEqual(orders.map((o: { code: string }) => o.code));
    expect(basket.body.checkout.orders.map((o: { kind: string }) => o.kind)).toEqual(['reproduction', 'custom', 'reproduction']);

    // One order-received e-mail for the basket, none per order.
    const received = await db().outboxEvent.findMany({ where: { name: { in: ['shop/checkout.received', 'shop/order.received'] }, payload: { path: ['code'], equals: code } } });
    expect(received.map((e) => e.name)).toEqual(['shop/checkout.received']);
    const perOrder = await db().outboxEvent.count({ where: { name: 'shop/order.received', payload: { path: ['code'], string_contains: orders[0].code } } });
    expect(perOrder).toBe(0);
  });

  test('all or nothing: one bad item creates nothing, and the message names it', async () => {
    const before = { orders: await db().order.count(), baskets: await db().checkout.count() };
    const items = await threeWorks();
    const badSlug = await post({ items: [items[0], items[1], item(reproduction({ artworkSlug: 'no-such-work' }))], customer });
    expectError(badSlug, 400, 'invalid_input');
    expect(badSlug.body.error.message).toMatch(/^items\[2\]\.artworkSlug: /);
    const badSize = await post({ items: [items[0], { ...items[1], size: '10x10' }], customer });
    expectError(badSize, 400, 'invalid_input');
    expect(JSON.stringify(badSize.body.error)).toContain('items');
    // The photo of item 1 is still free: nothing used it.
    expect(await db().orderPhoto.count({ where: { uploadId: (items[1] as { uploadId: string }).uploadId } })).toBe(0);
    expect({ orders: await db().order.count(), baskets: await db().checkout.count() }).toEqual(before);
  });

  test('the same uploadId twice is refused; so are 0 and 11 items', async () => {
    const photo = await custom();
    const twice = await post({ items: [item(photo), item(photo)], customer });
    expectError(twice, 400, 'invalid_input');
    expect(JSON.stringify(twice.body.error)).toContain('items[1]');
    expectError(await post({ items: [], customer }), 400, 'invalid_input');
    expectError(await post({ items: Array.from({ length: 11 }, () => item(reproduction())), customer }), 400, 'invalid_input');
    expect(await db().order.count({ where: { uploadId: (photo as { uploadId: string }).uploadId } })).toBe(0);
  });

  test('without a provider: no checkout URL; the basket page offers the instructions for the whole basket', async () => {
    const created = await rest('POST', '/checkouts', { json: { items: [item(reproduction()), item(reproduction({ size: '30x40' }))], customer } });
    expect(created.status).toBe(201);
    expect(created.body.checkoutUrl).toBeNull();
    const basket = await rest('GET', `/checkouts/${created.body.code}`, { query: { email } });
    for (const order of basket.body.checkout.orders) expect(order.payment).toMatchObject({ state: 'unpaid', online: false });
  });

  test('a wrong e-mail answers like an unknown code', async () => {
    const created = await post({ items: [item(reproduction())], customer });
    expectError(await basketOf(created.body.code, 'someone-else@example.com'), 404, 'not_found');
    expectError(await basketOf('ZZZZZZZZZZ'), 404, 'not_found');
  });
});

describe('paying a basket', () => {
  async function placed() {
    const created = await post({ items: await threeWorks(), customer });
    expect(created.status).toBe(201);
    const session = (await db().paymentSession.findFirstOrThrow({ where: { order: { checkout: { code: created.body.code } } } })).id;
    return { ...(created.body as { code: string; total: number; orders: { code: string; total: number }[] }), session };
  }

  test('one webhook pays all three once; a replay changes nothing', async () => {
    const { orders, session } = await placed();
    const paid = stripe.pay(session);
    expect((await deliver(paid, stripe.payments())).body.outcome).toBe('paid');
    expect((await deliver(paid, stripe.payments())).body.outcome).toBe('duplicate');
    // The same payment again under another event id (Stripe resends), too.
    expect((await deliver({ ...paid, id: `${paid.id}_again` }, stripe.payments())).body.outcome).toBe('unchanged');
    for (const order of orders) expect((await orderView(order.code)).payment).toMatchObject({ state: 'paid', paid: order.total, refunded: 0 });
    for (const order of orders) expect(await db().outboxEvent.count({ where: { name: 'shop/order.paid', payload: { path: ['code'], equals: order.code } } })).toBe(1);
  });

  test('a partial refund of one order leaves the others paid, and goes back on the one payment', async () => {
    const { orders, session } = await placed();
    await deliver(stripe.pay(session), stripe.payments());
    const [first, second] = orders;
    const refund = await rest('POST', `/admin/orders/${second!.code}/refunds`, { json: { amount: 1000 }, headers: STAFF, payments: stripe.payments() });
    expect(refund.status).toBe(201);
    expect(refund.body.refund).toMatchObject({ amount: 1000, method: 'stripe' });
    expect((await orderView(second!.code)).payment).toMatchObject({ state: 'partially_refunded', refunded: 1000 });
    expect((await orderView(first!.code)).payment).toMatchObject({ state: 'paid', refunded: 0 });
    // More than this order paid is refused, though the shared payment holds more.
    expectError(
      await rest('POST', `/admin/orders/${second!.code}/refunds`, { json: { amount: second!.total }, headers: STAFF, payments: stripe.payments() }),
      409,
      'refund_too_large',
    );
  });

  test('a refund made in Stripe’s dashboard on the basket’s payment is shared out over its orders in their order', async () => {
    const { orders, session } = await placed();
    await deliver(stripe.pay(session), stripe.payments());
    const paymentIntent = String(stripe.sessions.get(session)!.payment_intent);
    const { events } = stripe.refundInDashboard(paymentIntent, orders[0]!.total + 500);
    for (const event of events) await deliver(event, stripe.payments());
    for (const event of events) await deliver(event, stripe.payments());
    expect((await orderView(orders[0]!.code)).payment).toMatchObject({ state: 'refunded', refunded: orders[0]!.total });
    expect((await orderView(orders[1]!.code)).payment).toMatchObject({ state: 'partially_refunded', refunded: 500 });
    expect((await orderView(orders[2]!.code)).payment).toMatchObject({ state: 'paid', refunded: 0 });
  });

  test('a dispute of the basket’s payment holds every order of it', async () => {
    const { orders, session } = await placed();
    await deliver(stripe.pay(session), stripe.payments());
    const { event } = stripe.dispute(String(stripe.sessions.get(session)!.payment_intent));
    expect((await deliver(event, stripe.payments())).body.outcome).toBe('dispute_opened');
    expect((await deliver({ ...event, id: `${event.id}_late` }, stripe.payments())).body.outcome).toBe('unchanged');
    for (const order of orders) expect((await orderView(order.code)).payment.disputed).toBe(true);
  });

  test('a second payment of the basket is refunded per order, once', async () => {
    const { code, orders, session } = await placed();
    // A second session for the basket (a second tab): pay later, then both are paid.
    const later = await rest('POST', `/checkouts/${code}/checkout`, { json: { email }, payments: stripe.payments() });
    expect(later.status).toBe(200);
    expect(stripe.sessions.get(session)!.status).toBe('expired');
    const second = (await db().paymentSession.findFirstOrThrow({ where: { order: { checkout: { code } }, state: 'open' } })).id;
    expect((await deliver(stripe.pay(second), stripe.payments())).body.outcome).toBe('paid');
    // An order's own pay later on an order of the basket answers as the basket's: nothing left to pay.
    expectError(await rest('POST', `/orders/${orders[0]!.code}/checkout`, { json: { email }, payments: stripe.payments() }), 409, 'invalid_transition');
    for (const order of orders) expect((await orderView(order.code)).payment).toMatchObject({ state: 'paid', paid: order.total });
  });

  test('pay later for a basket opens one session for the orders still waiting; an order’s own pay later opens the basket’s', async () => {
    const { code, orders, session } = await placed();
    // The studio cancels one order before payment: the basket's new session leaves it out.
    const cancelled = await rest('POST', `/admin/orders/${orders[2]!.code}/status`, { json: { status: 'cancelled' }, headers: STAFF, payments: stripe.payments() });
    expect(cancelled.status).toBe(200);
    const again = await rest('POST', `/orders/${orders[0]!.code}/checkout`, { json: { email }, payments: stripe.payments() });
    expect(again.status).toBe(200);
    const fresh = await db().paymentSession.findMany({ where: { order: { checkout: { code } }, NOT: { id: session } } });
    expect(fresh.map((s) => s.orderId).length).toBe(2);
    expect(stripe.sessions.get(fresh[0]!.id)!.amount_total).toBe(orders[0]!.total + orders[1]!.total);
  });
});

describe('the order allowance', () => {
  test('an allowance of 20 orders an hour counts a basket of 3 as 3', async () => {
    const now = () => new Date('2031-05-20T10:07:30Z');
    const client = '198.51.100.201';
    const call = (items: unknown[]) => {
      const request = new Request('http://shop.test/v1/checkouts', {
        method: 'POST',
        headers: { ...identityHeaders(client), 'content-type': 'application/json' },
        body: JSON.stringify({ items, customer }),
      });
      return handleRest(request, ({ req }) =>
        createContext({ req, limits: { multiplier: 1, policies: { orderCreate: { allowance: 20, windowSeconds: 3600, onlyAccepted: true } }, now } }),
      );
    };
    const three = () => [item(reproduction()), item(reproduction()), item(reproduction())];
    for (let i = 0; i < 6; i++) expect((await call(three())).status).toBe(201); // 18 orders
    // A refused basket is given back whole: it does not count.
    expect((await call([item(reproduction({ artworkSlug: 'no-such-work' }))])).status).toBe(400);
    const over = await call(three()); // 21 > 20
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect((await call([item(reproduction()), item(reproduction())])).status).toBe(201); // 20: the refused one gave its 3 back
  });
});

describe('the basket’s e-mail', () => {
  test('one order-received e-mail lists every order, in the basket’s language, with the basket code as the transfer reference', async () => {
    const created = await rest('POST', '/checkouts', { json: { items: [item(reproduction()), item(await custom())], customer, locale: 'de' } });
    const event = await db().outboxEvent.findFirstOrThrow({ where: { name: 'shop/checkout.received', payload: { path: ['code'], equals: created.body.code } } });
    const sent: Mail[] = [];
    const mailer: Mailer = { send: async (mail) => void sent.push(mail) };
    const answer = await runJob(event.name, event.payload, {
      db: db(),
      mailer,
      baseUrl: 'https://prints.example',
      payment: paying({ online: false, instructions: 'IBAN DE00 0000 0000 0000 0000 00' }),
    });
    expect(answer).toBe('sent');
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail!.to).toBe(email);
    expect(mail!.subject).toContain(created.body.code);
    for (const order of created.body.orders) expect(mail!.text).toContain(order.code);
    expect(mail!.text).toContain(`Warenkorbnummer ${created.body.code} als Verwendungszweck`);
    expect(mail!.text).toContain(`https://prints.example/de/orders/basket/${created.body.code}`);
    expect(mail!.html).toContain('lang="de"');
  });
});

describe('the studio and a basket', () => {
  test('the board marks a basket’s orders and finds them together by its code; the order page lists the siblings', async () => {
    const created = await rest('POST', '/checkouts', { json: { items: [item(reproduction()), item(await custom())], customer, notes: 'One parcel, please' } });
    const { code, orders } = created.body as { code: string; orders: { code: string }[] };
    const board = await orderBoard(db(), { q: code.toLowerCase() });
    expect(board.items.map((o) => o.code).sort()).toEqual(orders.map((o) => o.code).sort());
    for (const order of board.items) expect(order.basket).toEqual({ code, orders: 2 });
    const page = await orderForStaff(db(), orders[1]!.code);
    expect(page.basket).toMatchObject({ code, notes: 'One parcel, please', orders: [{ code: orders[0]!.code }, { code: orders[1]!.code, kind: 'custom' }] });
  });

  test('“mark the whole basket paid” pays every order still waiting, once; an order cancelled stays cancelled', async () => {
    const created = await rest('POST', '/checkouts', { json: { items: [item(reproduction()), item(reproduction({ size: '30x40' })), item(reproduction())], customer } });
    const { code, orders } = created.body as { code: string; orders: { code: string; total: number }[] };
    expect((await rest('POST', `/admin/orders/${orders[2]!.code}/status`, { json: { status: 'cancelled' }, headers: STAFF })).status).toBe(200);
    expect(await markBasketPaid(db(), { code, note: 'Transfer of 2 Dec' })).toEqual({ paid: [orders[0]!.code, orders[1]!.code] });
    for (const order of orders.slice(0, 2)) expect((await orderView(order.code)).payment).toMatchObject({ state: 'paid', paid: order.total });
    expect((await orderView(orders[2]!.code)).status).toBe('cancelled');
    await expect(markBasketPaid(db(), { code })).rejects.toMatchObject({ code: 'invalid_transition' });
    await expect(markBasketPaid(db(), { code: 'ZZZZZZZZZZ' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
