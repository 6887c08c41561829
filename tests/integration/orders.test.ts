import { describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { custom, customer, emailOfLength, reproduction } from '../support/orders';
import { rest } from '../support/rest';

const expectError = (answer: { status: number; body: any }, status: number, code: string) => {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error.code).toBe(code);
  expect(typeof answer.body.error.message).toBe('string');
  expect(answer.body.error.message.length).toBeGreaterThan(0);
};

describe('POST /v1/orders', () => {
  test('a reproduction order is priced by the server and answers 201 with code, total and checkoutUrl', async () => {
    const answer = await rest('POST', '/orders', { json: reproduction() });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ code: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{10}$/), total: 19900 + 5900, checkoutUrl: null });
  });

  test('a client-sent total, price or status changes nothing', async () => {
    const answer = await rest('POST', '/orders', { json: reproduction({ total: 1, price: 1, status: 'paid' }) });
    expect(answer.status).toBe(201);
    expect(answer.body.total).toBe(25800);
    const stored = await db().order.findUniqueOrThrow({ where: { code: answer.body.code } });
    expect(stored.totalCents).toBe(25800);
    expect(stored.status).toBe('pending');
  });

  test('a custom painting costs 1.5 times the reproduction plus 40 dollars per extra subject', async () => {
    const answer = await rest('POST', '/orders', { json: await custom({ size: '50x70', frame: 'framed', subjects: 3 }) });
    expect(answer.status).toBe(201);
    expect(answer.body.total).toBe(Math.round((19900 + 14900) * 1.5) + 2 * 4000);
  });

  test('the order, its first event and the confirmation outbox event are written together', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction({ notes: 'Please sign the back.' }) });
    const order = await db().order.findUniqueOrThrow({ where: { code: body.code }, include: { events: true } });
    expect(order.events).toHaveLength(1);
    expect(order.events[0]).toMatchObject({ status: 'pending', actor: 'customer' });
    const outbox = await db().outboxEvent.findMany({ where: { name: 'shop/order.received', payload: { path: ['code'], equals: body.code } } });
    expect(outbox).toHaveLength(1);
  });

  test('an unknown artwork slug is invalid input and stores nothing', async () => {
    const before = await db().order.count({ where: { customerEmail: customer.email } });
    const answer = await rest('POST', '/orders', { json: reproduction({ artworkSlug: 'no-such-painting' }) });
    expectError(answer, 400, 'invalid_input');
    expect(answer.body.error.message).toContain('no-such-painting');
    expect(await db().order.count({ where: { customerEmail: customer.email } })).toBe(before);
  });

  test('a queued (unpublished) artwork cannot be ordered', async () => {
    const artist = await db().artist.findFirstOrThrow();
    await db().artwork.create({ data: { slug: 'queued-work-for-order', artistId: artist.id, status: 'queued' } });
    expectError(await rest('POST', '/orders', { json: reproduction({ artworkSlug: 'queued-work-for-order' }) }), 400, 'invalid_input');
  });

  test('an unknown uploadId is invalid input', async () => {
    expectError(await rest('POST', '/orders', { json: await custom({ uploadId: '00000000-0000-4000-8000-000000000000' }) }), 400, 'invalid_input');
  });

  test('two orders racing for one photo: exactly one wins', async () => {
    const body = await custom();
    const answers = await Promise.all([rest('POST', '/orders', { json: body }), rest('POST', '/orders', { json: body }), rest('POST', '/orders', { json: body })]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400]);
    for (const loser of answers.filter((a) => a.status === 400)) expectError(loser, 400, 'invalid_input');
    expect(await db().order.count({ where: { uploadId: body.uploadId } })).toBe(1);
  });

  test('locale defaults to en and is stored', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction() });
    expect((await db().order.findUniqueOrThrow({ where: { code: body.code } })).locale).toBe('en');
    const ja = await rest('POST', '/orders', { json: reproduction({ locale: 'ja' }) });
    expect((await db().order.findUniqueOrThrow({ where: { code: ja.body.code } })).locale).toBe('ja');
  });
});

describe('order limits: the boundary is accepted, one past it is refused', () => {
  const longSlug = 'a'.repeat(120);
  const withCustomer = (field: string, value: unknown) => reproduction({ customer: { ...customer, [field]: value } });

  const cases: [string, () => Promise<unknown> | unknown, () => Promise<unknown> | unknown][] = [
    ['artworkSlug 120 / 121', () => reproduction({ artworkSlug: longSlug }), () => reproduction({ artworkSlug: `${longSlug}a` })],
    ['notes 2000 / 2001', () => reproduction({ notes: 'n'.repeat(2000) }), () => reproduction({ notes: 'n'.repeat(2001) })],
    ['customer.name 2 / 1', () => withCustomer('name', 'Al'), () => withCustomer('name', 'A')],
    ['customer.name 120 / 121', () => withCustomer('name', 'N'.repeat(120)), () => withCustomer('name', 'N'.repeat(121))],
    ['customer.email 200 / 201', () => withCustomer('email', emailOfLength(200)), () => withCustomer('email', emailOfLength(201))],
    ['customer.phone 40 / 41', () => withCustomer('phone', '1'.repeat(40)), () => withCustomer('phone', '1'.repeat(41))],
    ['customer.address 3 / 2', () => withCustomer('address', 'Elm'), () => withCustomer('address', 'El')],
    ['customer.address 300 / 301', () => withCustomer('address', 'x'.repeat(300)), () => withCustomer('address', 'x'.repeat(301))],
    ['customer.city 1 / 0', () => withCustomer('city', 'Y'), () => withCustomer('city', '')],
    ['customer.city 120 / 121', () => withCustomer('city', 'c'.repeat(120)), () => withCustomer('city', 'c'.repeat(121))],
    ['customer.postalCode 1 / 0', () => withCustomer('postalCode', '1'), () => withCustomer('postalCode', '')],
    ['customer.postalCode 20 / 21', () => withCustomer('postalCode', '9'.repeat(20)), () => withCustomer('postalCode', '9'.repeat(21))],
    ['customer.country 2 / 3', () => withCustomer('country', 'JP'), () => withCustomer('country', 'JPN')],
    ['customer.country 2 / 1', () => withCustomer('country', 'fr'), () => withCustomer('country', 'F')],
    ['subjects 1 / 0', () => custom({ subjects: 1 }), () => custom({ subjects: 0 })],
    ['subjects 8 / 9', () => custom({ subjects: 8 }), () => custom({ subjects: 9 })],
  ];

  test.beforeAll(async () => {
    const artist = await db().artist.findFirstOrThrow();
    await db().artwork.upsert({
      where: { slug: longSlug },
      create: { slug: longSlug, artistId: artist.id, status: 'published', publishedAt: new Date() },
      update: {},
    });
  });

  test.each(cases)('%s', async (_name, accepted, refused) => {
    const ok = await rest('POST', '/orders', { json: await accepted() });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const before = await db().order.count({ where: { customerEmail: customer.email } });
    expectError(await rest('POST', '/orders', { json: await refused() }), 400, 'invalid_input');
    expect(await db().order.count({ where: { customerEmail: customer.email } })).toBe(before);
  });
});

describe('order validation: wrong values, types and missing fields are refused with the error shape', () => {
  const refusals: [string, () => Promise<unknown> | unknown][] = [
    ['subjects 1.5', () => custom({ subjects: 1.5 })],
    ['subjects as a string', () => custom({ subjects: '7' })],
    ['subjects null', () => custom({ subjects: null })],
    ['subjects true', () => custom({ subjects: true })],
    ['unknown kind', () => reproduction({ kind: 'poster' })],
    ['missing kind', () => ({ ...reproduction(), kind: undefined })],
    ['unknown size', () => reproduction({ size: '40x50' })],
    ['unknown frame', () => reproduction({ frame: 'gilded' })],
    ['unknown style', () => custom({ style: 'cubist' })],
    ['unknown locale', () => reproduction({ locale: 'pt' })],
    ['uploadId not a UUID', () => custom({ uploadId: 'photo-1' })],
    ['custom order without uploadId', () => custom({ uploadId: undefined })],
    ['reproduction without artworkSlug', () => reproduction({ artworkSlug: undefined })],
    ['missing customer', () => reproduction({ customer: undefined })],
    ['customer name as a number', () => reproduction({ customer: { ...customer, name: 12345 } })],
    ['invalid e-mail', () => reproduction({ customer: { ...customer, email: 'not-an-email' } })],
    ['customer missing city', () => reproduction({ customer: { ...customer, city: undefined } })],
    ['notes as an object', () => reproduction({ notes: { text: 'hi' } })],
    ['body is an array', () => [reproduction()]],
    ['body is a string', () => 'order'],
  ];

  test.each(refusals)('%s', async (_name, make) => {
    const answer = await rest('POST', '/orders', { json: await make() });
    expectError(answer, 400, 'invalid_input');
  });

  test('the message and details name the field at fault', async () => {
    const answer = await rest('POST', '/orders', { json: reproduction({ customer: { ...customer, country: 'FRA' } }) });
    expect(answer.body.error.message).toMatch(/^Invalid input at customer.country: /);
    expect(answer.body.error.details).toEqual([{ path: 'customer.country', message: expect.any(String) }]);
  });

  test('malformed JSON is invalid input', async () => {
    const answer = await rest('POST', '/orders', { body: '{"kind": "reproduction",', headers: { 'content-type': 'application/json' } });
    expectError(answer, 400, 'invalid_input');
  });

  test('an empty body is invalid input', async () => {
    expectError(await rest('POST', '/orders', { body: '', headers: { 'content-type': 'application/json' } }), 400, 'invalid_input');
  });

  test('a body that is not JSON by its type is refused with 415', async () => {
    expectError(await rest('POST', '/orders', { body: '<order/>', headers: { 'content-type': 'application/xml' } }), 415, 'unsupported_media_type');
  });

  test('a JSON body sent the way `curl -d` sends it is taken', async () => {
    const answer = await rest('POST', '/orders', { body: JSON.stringify(reproduction()), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(201);
  });

  test('a body over 64 KiB is refused with 413 before it is parsed', async () => {
    const answer = await rest('POST', '/orders', { json: reproduction({ notes: 'x'.repeat(70 * 1024) }) });
    expectError(answer, 413, 'payload_too_large');
  });
});

describe('GET /v1/orders/{code}', () => {
  test('the right e-mail in any letter case finds the order, with every OrderView field and events oldest first', async () => {
    const created = await rest('POST', '/orders', { json: reproduction({ size: '90x120', frame: 'framed' }) });
    const code: string = created.body.code;
    for (const email of ['ada@example.com', 'ADA@EXAMPLE.COM', '  Ada@Example.com ']) {
      const answer = await rest('GET', `/orders/${code.toLowerCase()}`, { query: { email } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        order: {
          code,
          kind: 'reproduction',
          status: 'pending',
          artworkSlug: 'the-starry-night',
          size: '90x120',
          frame: 'framed',
          total: 38900 + 29900,
          createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          trackingNumber: null,
          // No carrier until staff ship it with one, so no tracking link either.
          carrier: null,
          trackingUrl: null,
          sketchStatus: null,
          // Not shown in the showcase unless the customer says so.
          showcaseConsent: false,
          // An order of its own, in no basket.
          checkout: null,
          // The Starry Night is wider than tall, so it hangs landscape unless the client says otherwise.
          orientation: 'landscape',
          fit: 'whole',
          style: null,
          subjects: null,
          notes: null,
          delivery: { name: 'Ada Lovelace', street: '12 St James Square', postalCode: 'SW1Y 4JH', city: 'London', country: 'GB' },
          estimatedDelivery: { earliest: expect.stringMatching(/^\d{4}-\d\d-\d\d$/), latest: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) },
          // The test server has no payment provider and no instructions: the studio e-mails how to pay.
          payment: {
            state: 'unpaid',
            paid: 0,
            refunded: 0,
            disputed: false,
            online: false,
            instructions: null,
            bankTransfer: null,
            payBy: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
            refunds: [],
          },
          photos: [],
          events: [{ status: 'pending', note: null, at: expect.stringMatching(/Z$/), photo: null, sketchStatus: null, actor: 'customer' }],
        },
      });
    }
  });

  test('events come oldest first', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction() });
    const order = await db().order.findUniqueOrThrow({ where: { code: body.code } });
    await db().orderEvent.create({ data: { orderId: order.id, status: 'paid', actor: 'staff', note: 'Bank transfer received' } });
    await db().orderEvent.create({ data: { orderId: order.id, status: 'sketching', actor: 'staff', note: null } });
    const answer = await rest('GET', `/orders/${body.code}`, { query: { email: customer.email } });
    expect(answer.body.order.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'paid', 'sketching']);
    expect(answer.body.order.events[1].note).toBe('Bank transfer received');
  });

  test('an order lookup is never stored by a browser or a proxy', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction() });
    const answer = await rest('GET', `/orders/${body.code}`, { query: { email: customer.email } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
  });

  test('a wrong e-mail gets exactly the same 404 as an unknown code', async () => {
    const { body } = await rest('POST', '/orders', { json: reproduction() });
    const wrongEmail = await rest('GET', `/orders/${body.code}`, { query: { email: 'eve@example.com' } });
    const unknownCode = await rest('GET', '/orders/ZZZZZZZZZZ', { query: { email: customer.email } });
    expectError(wrongEmail, 404, 'not_found');
    expect(wrongEmail.body).toEqual(unknownCode.body);
    expect(wrongEmail.status).toBe(unknownCode.status);
  });

  test('a code of 20 characters is looked up; 21 is invalid input', async () => {
    expectError(await rest('GET', `/orders/${'A'.repeat(20)}`, { query: { email: customer.email } }), 404, 'not_found');
    expectError(await rest('GET', `/orders/${'A'.repeat(21)}`, { query: { email: customer.email } }), 400, 'invalid_input');
  });

  test('the email query is required and at most 200 characters', async () => {
    expectError(await rest('GET', '/orders/ABCDEFGHJK'), 400, 'invalid_input');
    expectError(await rest('GET', '/orders/ABCDEFGHJK', { query: { email: emailOfLength(200) } }), 404, 'not_found');
    expectError(await rest('GET', '/orders/ABCDEFGHJK', { query: { email: emailOfLength(201) } }), 400, 'invalid_input');
  });
});

describe('GET /v1/pricing', () => {
  test('serves the table the server charges by', async () => {
    const answer = await rest('GET', '/pricing');
    expect(answer.status).toBe(200);
    expect(answer.body.currency).toBe('usd');
    expect(answer.body.reproduction['30x40']).toEqual({ rolled: 12900, stretched: 16800, framed: 22800 });
    expect(answer.body.reproduction['90x120'].framed).toBe(68800);
    expect(answer.body.custom).toEqual({ multiplier: 1.5, extraSubjectCents: 4000 });
  });
});
