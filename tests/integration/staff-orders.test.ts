import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { db } from '@/server/db/client';
import { createOrder } from '@/server/orders/service';
import { CreateOrder } from '@/shared/order-schema';
import { statusChain as chain } from '@/shared/orders';
import { ownDatabase } from '../support/database';
import { reproduction } from '../support/orders';
import { uploadedPhoto } from '../support/photos';
import { rest } from '../support/rest';
import { changeStatus, customer, expectError, lookup, newOrder, STAFF } from '../support/staff';

describe('POST /v1/admin/orders/{code}/status', () => {
  test('every status of the chain is reachable one step at a time, and the lookup shows each with its note and time', async () => {
    const code = await newOrder('custom', { uploadId: await uploadedPhoto() });
    const before = Date.now();
    for (const status of chain.slice(1)) {
      const answer = await changeStatus(code, { status, note: `Now ${status}`, ...(status === 'shipped' ? { trackingNumber: '1Z999AA10123456784' } : {}) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.order.status).toBe(status);
      const order = await lookup(code);
      expect(order.status).toBe(status);
      const last = order.events.at(-1)!;
      expect(last).toEqual({ status, note: `Now ${status}`, at: expect.stringMatching(/Z$/), photo: null, sketchStatus: null, actor: 'staff' });
      expect(Date.parse(last.at)).toBeGreaterThanOrEqual(before - 1000);
    }
    const order = await lookup(code);
    expect(order.events.map((e) => e.status)).toEqual([...chain]);
    expect(order.trackingNumber).toBe('1Z999AA10123456784');
    expect(order.sketchStatus).toBe('approved');
  });

  test('cancelled is reachable from pending and from paid, and shows in the lookup', async () => {
    const fromPending = await newOrder();
    expect((await changeStatus(fromPending, { status: 'cancelled', note: 'Customer asked' })).status).toBe(200);
    expect((await lookup(fromPending)).events.at(-1)).toMatchObject({ status: 'cancelled', note: 'Customer asked' });
    const fromPaid = await newOrder();
    await changeStatus(fromPaid, { status: 'paid' });
    expect((await changeStatus(fromPaid, { status: 'cancelled' })).status).toBe(200);
    expect((await lookup(fromPaid)).status).toBe('cancelled');
  });

  test('skipping forward is allowed, each change one event', async () => {
    const code = await newOrder();
    expect((await changeStatus(code, { status: 'painting' })).status).toBe(200);
    expect((await changeStatus(code, { status: 'delivered' })).status).toBe(200);
    expect((await lookup(code)).events.map((e) => e.status)).toEqual(['pending', 'painting', 'delivered']);
  });

  test.each([
    ['backwards', ['sketching'], 'paid'],
    ['back to pending', ['paid'], 'pending'],
    ['out of delivered', ['delivered'], 'shipped'],
    ['out of delivered to cancelled', ['delivered'], 'cancelled'],
    ['out of cancelled', ['cancelled'], 'paid'],
    ['cancelling once production started', ['sketching'], 'cancelled'],
    ['cancelling a shipped order', ['shipped'], 'cancelled'],
  ])('%s is 409 invalid_transition and changes nothing', async (_name, path, target) => {
    const code = await newOrder();
    for (const status of path) expect((await changeStatus(code, { status })).status).toBe(200);
    const before = await lookup(code);
    expectError(await changeStatus(code, { status: target, note: 'should not appear' }), 409, 'invalid_transition');
    expect(await lookup(code)).toEqual(before);
  });

  test('the same status records a note-only event, even on a delivered or cancelled order', async () => {
    const code = await newOrder();
    await changeStatus(code, { status: 'paid' });
    expect((await changeStatus(code, { status: 'paid', note: 'Receipt sent by post' })).status).toBe(200);
    await changeStatus(code, { status: 'delivered' });
    expect((await changeStatus(code, { status: 'delivered', note: 'Customer confirmed' })).status).toBe(200);
    const order = await lookup(code);
    expect(order.events.map((e) => [e.status, e.note])).toEqual([
      ['pending', null],
      ['paid', null],
      ['paid', 'Receipt sent by post'],
      ['delivered', null],
      ['delivered', 'Customer confirmed'],
    ]);
  });

  test('a tracking number goes only with shipped or delivered', async () => {
    const code = await newOrder();
    for (const status of ['paid', 'drying', 'cancelled']) {
      expectError(await changeStatus(code, { status, trackingNumber: 'TRACK-1' }), 400, 'invalid_input');
    }
    expect((await lookup(code)).events).toHaveLength(1);
    expect((await changeStatus(code, { status: 'shipped', trackingNumber: 'TRACK-1' })).status).toBe(200);
    expect((await changeStatus(code, { status: 'delivered', trackingNumber: 'TRACK-2' })).status).toBe(200);
    expect((await lookup(code)).trackingNumber).toBe('TRACK-2');
  });

  test('a carrier goes with a tracking number on shipped or delivered, and the lookup links the number to its page', async () => {
    const code = await newOrder();
    await changeStatus(code, { status: 'drying' });
    // Only with shipped or delivered, only from the list, never without a number to link.
    expectError(await changeStatus(code, { status: 'drying', carrier: 'dhl' }), 400, 'invalid_input');
    expectError(await changeStatus(code, { status: 'shipped', carrier: 'pigeon', trackingNumber: 'JD01' }), 400, 'invalid_input');
    expectError(await changeStatus(code, { status: 'shipped', carrier: 'dhl' }), 400, 'invalid_input');
    expect((await lookup(code)).status).toBe('drying');

    expect((await changeStatus(code, { status: 'shipped', trackingNumber: 'JD014600 0062', carrier: 'dhl' })).status).toBe(200);
    expect(await lookup(code)).toMatchObject({
      carrier: 'dhl',
      trackingUrl: 'https://www.dhl.com/global-en/home/tracking.html?tracking-id=JD014600%200062&submit=1',
    });
    // A correction of the number alone keeps the carrier; a carrier not on the list (null) unlinks it.
    await changeStatus(code, { status: 'shipped', trackingNumber: 'JD0146000063' });
    expect(await lookup(code)).toMatchObject({ carrier: 'dhl', trackingUrl: expect.stringContaining('tracking-id=JD0146000063&') });
    await changeStatus(code, { status: 'delivered', carrier: null });
    expect(await lookup(code)).toMatchObject({ trackingNumber: 'JD0146000063', carrier: null, trackingUrl: null });
    // The database holds the same rule: no carrier without a number, none off the list.
    await expect(db().order.update({ where: { code }, data: { carrier: 'ups', trackingNumber: null } })).rejects.toThrow(/orders_carrier_tracked_check/);
    await expect(db().order.update({ where: { code }, data: { carrier: 'pigeon' } })).rejects.toThrow(/orders_carrier_check/);
  });

  test('sketch status: pending on reaching sketching, set by staff there, approved once painting starts', async () => {
    const code = await newOrder('custom', { uploadId: await uploadedPhoto() });
    expect((await lookup(code)).sketchStatus).toBeNull();
    await changeStatus(code, { status: 'sketching', note: 'First sketch sent' });
    expect((await lookup(code)).sketchStatus).toBe('pending');
    await changeStatus(code, { status: 'sketching', sketchStatus: 'changes_requested', note: 'Customer wants a warmer sky' });
    expect((await lookup(code)).sketchStatus).toBe('changes_requested');
    // Only an approval goes with painting; anything else with a status but sketching is invalid input.
    expectError(await changeStatus(code, { status: 'painting', sketchStatus: 'changes_requested' }), 400, 'invalid_input');
    expectError(await changeStatus(code, { status: 'cancelled', sketchStatus: 'approved' }), 400, 'invalid_input');
    await changeStatus(code, { status: 'sketching', sketchStatus: 'approved', note: 'Approved on the phone' });
    await changeStatus(code, { status: 'painting' });
    const order = await lookup(code);
    expect(order.sketchStatus).toBe('approved');
    expect(order.events.map((e) => [e.status, e.sketchStatus, e.actor])).toEqual([
      ['pending', null, 'customer'],
      ['sketching', null, 'staff'],
      ['sketching', 'changes_requested', 'staff'],
      ['sketching', 'approved', 'staff'],
      ['painting', null, 'staff'],
    ]);
  });

  test("painting never starts over a request for changes: refused, nothing written, unless the same change records the approval, which the customer sees as the studio's", async () => {
    const code = await newOrder('custom', { uploadId: await uploadedPhoto() });
    await changeStatus(code, { status: 'paid' });
    await changeStatus(code, { status: 'sketching', sketchStatus: 'changes_requested', note: 'Warmer sky, by phone' });
    const before = await lookup(code);
    for (const status of ['painting', 'drying', 'shipped', 'delivered'] as const) {
      const refused = await changeStatus(code, { status, note: 'Going ahead', ...(status === 'shipped' ? { trackingNumber: 'JD0146000062' } : {}) });
      expectError(refused, 409, 'invalid_transition');
      expect(refused.body.error.message).toContain('asked for changes');
    }
    expect(await lookup(code)).toEqual(before);
    // The customer agreed by phone: the move records it, as the studio's.
    const moved = await changeStatus(code, { status: 'painting', sketchStatus: 'approved', note: 'Agreed on the phone' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const after = await lookup(code);
    expect(after.sketchStatus).toBe('approved');
    expect(after.events.at(-1)).toMatchObject({ status: 'painting', sketchStatus: 'approved', actor: 'staff', note: 'Agreed on the phone' });
    expect(after.events.filter((e) => e.actor === 'customer' && e.sketchStatus)).toEqual([]);
  });

  test('a sketch still waiting counts as approved once painting starts, without an approval event claiming anyone clicked', async () => {
    const code = await newOrder('custom', { uploadId: await uploadedPhoto() });
    await changeStatus(code, { status: 'sketching' });
    expect((await changeStatus(code, { status: 'painting' })).status).toBe(200);
    const order = await lookup(code);
    expect(order.sketchStatus).toBe('approved');
    expect(order.events.filter((e) => e.sketchStatus === 'approved')).toEqual([]);
  });

  test('a custom order that skips sketching is approved; a reproduction has no sketch status and refuses one', async () => {
    const skipping = await newOrder('custom', { uploadId: await uploadedPhoto() });
    await changeStatus(skipping, { status: 'drying' });
    expect((await lookup(skipping)).sketchStatus).toBe('approved');
    const repro = await newOrder();
    await changeStatus(repro, { status: 'sketching' });
    expect((await lookup(repro)).sketchStatus).toBeNull();
    expectError(await changeStatus(repro, { status: 'sketching', sketchStatus: 'approved' }), 400, 'invalid_input');
  });

  test('validation: unknown status, long note, unknown order, lower-case code', async () => {
    const code = await newOrder();
    expectError(await changeStatus(code, { status: 'framing' }), 400, 'invalid_input');
    expectError(await changeStatus(code, {}), 400, 'invalid_input');
    expectError(await changeStatus(code, { status: 'paid', note: 'n'.repeat(2001) }), 400, 'invalid_input');
    expectError(await changeStatus(code, { status: 'paid', sketchStatus: 'maybe' }), 400, 'invalid_input');
    expectError(await changeStatus('ZZZZZZZZZZ', { status: 'paid' }), 404, 'not_found');
    expectError(await changeStatus('Z'.repeat(21), { status: 'paid' }), 400, 'invalid_input');
    expect((await changeStatus(code.toLowerCase(), { status: 'paid', note: 'n'.repeat(2000) })).status).toBe(200);
  });

  test('without the staff token it is 401 and nothing changes', async () => {
    const code = await newOrder();
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'test-staff-token-5c1f0e' }] as Record<string, string>[]) {
      expectError(await changeStatus(code, { status: 'paid' }, headers), 401, 'unauthorized');
    }
    expectError(await changeStatus(code, { status: 'nonsense' }, {}), 401, 'unauthorized');
    expect((await lookup(code)).status).toBe('pending');
  });

  test('the answer is the order as staff see it, with its history', async () => {
    const code = await newOrder();
    const answer = await changeStatus(code, { status: 'paid', note: 'Bank transfer' });
    expect(answer.body.order).toMatchObject({
      code,
      status: 'paid',
      customer: { email: customer.email, name: customer.name },
      events: [
        { status: 'pending', actor: 'customer' },
        { status: 'paid', note: 'Bank transfer', actor: 'staff' },
      ],
    });
  });

  test('each change and its e-mail outbox event commit together', async () => {
    const code = await newOrder();
    await changeStatus(code, { status: 'paid' });
    await changeStatus(code, { status: 'paid', note: 'note only: no mail' });
    await changeStatus(code, { status: 'shipped', trackingNumber: 'TN-77' });
    await changeStatus(code, { status: 'delivered' });
    expectError(await changeStatus(code, { status: 'paid' }), 409, 'invalid_transition');
    const outbox = await db().outboxEvent.findMany({ where: { payload: { path: ['code'], equals: code } }, orderBy: { createdAt: 'asc' } });
    expect(outbox.map((e) => e.name)).toEqual(['shop/order.received', 'shop/order.paid', 'shop/order.shipped', 'shop/order.delivered']);
    expect(outbox[2]!.payload).toMatchObject({ trackingNumber: 'TN-77' });
    expect(outbox[2]!.payload).not.toHaveProperty('carrier');
  });
});

describe('50 concurrent staff status changes on one order', () => {
  test('leave a consistent history: every accepted change is one event, none lost, none impossible', async () => {
    const code = await newOrder('custom', { uploadId: await uploadedPhoto() });
    const targets = Array.from({ length: 50 }, (_, i) => {
      const pool = ['paid', 'sketching', 'painting', 'drying', 'shipped', 'delivered', 'cancelled', 'paid', 'sketching', 'painting'] as const;
      return { status: pool[(i * 7) % pool.length]!, note: `change ${i}` };
    });
    const answers = await Promise.all(targets.map((body) => changeStatus(code, body)));
    for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
    const accepted = targets.filter((_, i) => answers[i]!.status === 200).map((t) => t.note);

    const order = await lookup(code);
    // One event per accepted change, plus the first: no lost and no extra event.
    expect(order.events).toHaveLength(1 + accepted.length);
    expect(
      order.events
        .slice(1)
        .map((e) => e.note)
        .sort(),
    ).toEqual([...accepted].sort());
    // The history is a possible one: never backwards, nothing after delivered or cancelled but notes.
    const rank = (s: string) => (s === 'cancelled' ? -1 : chain.indexOf(s as (typeof chain)[number]));
    for (let i = 1; i < order.events.length; i++) {
      const [prev, next] = [order.events[i - 1]!, order.events[i]!];
      if (next.status === prev.status) continue;
      expect(['delivered', 'cancelled']).not.toContain(prev.status);
      if (next.status === 'cancelled') expect(['pending', 'paid']).toContain(prev.status);
      else expect(rank(next.status)).toBeGreaterThan(rank(prev.status));
    }
    // The order's status is its last event's.
    expect(order.status).toBe(order.events.at(-1)!.status);
  });
});

describe('GET /v1/admin/orders', () => {
  let own: Awaited<ReturnType<typeof ownDatabase>>;
  let ownDb: Db;
  const staffGet = (query: Record<string, string> = {}, headers: Record<string, string> = STAFF) => rest('GET', '/admin/orders', { query, headers, db: ownDb });

  beforeAll(async () => {
    own = await ownDatabase('staff_list');
    ownDb = own.db;
  });
  afterAll(async () => {
    await own.drop();
  });

  test('lists newest first with customer, totals and the photo of custom orders; filters by status', async () => {
    const photo = await ownDb.upload.create({ data: { contentType: 'image/jpeg', size: 10, sha256: '0'.repeat(64) } });
    const first = await createOrder(ownDb, CreateOrder.parse(reproduction({ customer: { ...customer, email: 'first@example.com' } })));
    const second = await createOrder(ownDb, CreateOrder.parse({ kind: 'custom', uploadId: photo.id, style: 'modern', subjects: 3, size: '30x40', frame: 'rolled', customer }));
    const answer = await staffGet();
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ total: 2, page: 1, pageSize: 48 });
    expect(answer.body.items.map((o: { code: string }) => o.code)).toEqual([second.code, first.code]);
    expect(answer.body.items[0]).toMatchObject({ kind: 'custom', uploadId: photo.id, style: 'modern', subjects: 3, total: second.total, customer: { email: customer.email } });
    expect(answer.body.items[1]).toMatchObject({
      kind: 'reproduction',
      uploadId: null,
      artworkSlug: 'the-starry-night',
      customer: { email: 'first@example.com', country: 'GB' },
    });

    await rest('POST', `/admin/orders/${first.code}/status`, { json: { status: 'paid' }, headers: STAFF, db: ownDb });
    const paid = await staffGet({ status: 'paid' });
    expect(paid.body.items.map((o: { code: string }) => o.code)).toEqual([first.code]);
    expect((await staffGet({ status: 'delivered' })).body).toMatchObject({ items: [], total: 0 });
    expect((await staffGet({ page: '2' })).body).toMatchObject({ items: [], total: 2, page: 2 });
  });

  test('48 a page', async () => {
    for (let i = 0; i < 50; i++) await createOrder(ownDb, CreateOrder.parse(reproduction()));
    const one = await staffGet();
    const two = await staffGet({ page: '2' });
    expect(one.body.items).toHaveLength(48);
    expect(two.body.items.length).toBe(one.body.total - 48);
  });

  test.each([
    ['status', 'lost'],
    ['page', '0'],
    ['page', '-1'],
    ['page', '1.5'],
    ['page', 'abc'],
  ])('%s=%s is 400', async (key, value) => {
    expectError(await staffGet({ [key]: value }), 400, 'invalid_input');
  });

  test('without the staff token it is 401', async () => {
    expectError(await staffGet({}, {}), 401, 'unauthorized');
    expectError(await staffGet({ status: 'lost' }, { authorization: 'Bearer x' }), 401, 'unauthorized');
  });
});
