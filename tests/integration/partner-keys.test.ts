/**
 * Partner keys on /v1 (decisions.md "Limits and inputs", docs/security.md "Partner keys"): a
 * partner's server places orders with its key's own allowance while an anonymous address stays at
 * its 20 an hour; a key that names nobody is 401, never anonymous; a refused request costs no
 * allowance; orders record the partner; the key is kept only as its hash. Every request goes
 * through the real /v1 handler and real PostgreSQL.
 */
import { describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import type { Context } from '@/server/api/trpc';
import { websiteTrpc } from '@/server/api/website-trpc';
import { db } from '@/server/db/client';
import { identityHeaders } from '@/server/http/identity';
import { limitPolicies } from '@/server/limits/policy';
import type { LimitSettings } from '@/server/limits/service';
import { orderBoard, orderForStaff } from '@/server/orders/board';
import { partnerKeyHash } from '@/server/partners/keys';
import { createPartnerKey, listPartnerKeys, revokePartnerKey } from '@/server/partners/service';
import { staffTrpc } from '@/server/staff/handlers';
import { newStaffSession, staffCookieName } from '@/server/staff/session';
import { customer, reproduction } from '../support/orders';
import { photos, STAFF } from '../support/photos';
import type { RequestHead } from '@/server/http/answers';

/**
 * Limiting on, at the shipped allowances (every other file runs with it off), on a fixed clock in
 * the future: every request of this file falls in one hour's window, and no test waits for an edge.
 */
const NOW = new Date('2032-03-09T14:05:00Z');
const limits: LimitSettings = { multiplier: 1, now: () => NOW };
const limited = ({ req }: { req: RequestHead }): Context => createContext({ req, limits });

let lastClient = 20;
/** A fresh documentation address (RFC 5737) per test, so the counts of tests do not mix. */
const newClient = () => `203.0.113.${++lastClient}`;

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(method: string, path: string, client: string, options: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers = new Headers({ ...identityHeaders(client), ...options.headers });
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('content-type', 'application/json');
  }
  const response = await handleRest(new Request(`http://shop.test/v1${path}`, { method, headers, body }), limited);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const order = (client: string, key?: string, body: unknown = reproduction()) => call('POST', '/orders', client, { json: body, headers: key ? bearer(key) : {} });

/** `count` orders sent `batch` at a time (each batch at once, as a partner's queue would): the statuses in order. */
async function placeOrders(count: number, send: () => Promise<Answer>, batch = 25): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += batch) {
    const answers = await Promise.all(Array.from({ length: Math.min(batch, count - sent) }, send));
    statuses.push(...answers.map((a) => a.status));
  }
  return statuses;
}

const hourOf = (at: Date) => Math.floor(at.getTime() / 3_600_000);

describe('a partner with its key', () => {
  test('places 500 orders within the hour from one address while an anonymous client there is held at 20 (the 21st is 429)', { timeout: 180_000 }, async () => {
    const client = newClient();
    const anonymousAllowance = limitPolicies.orderCreate.allowance;
    expect(anonymousAllowance).toBe(20);

    // The anonymous client of this address: 20 orders, then 429.
    for (let i = 0; i < anonymousAllowance; i++) expect((await order(client)).status).toBe(201);
    const refused = await order(client);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many orders from your address/);

    // The partner's server behind the very same address, with the default allowance (1000 an hour).
    const started = new Date();
    const { key, partner } = await createPartnerKey(db(), { name: 'Gallery Nord web shop' });
    expect(partner.ordersPerHour).toBe(1000);
    const statuses = await placeOrders(500, () => order(client, key, reproduction({ customer: { ...customer, email: 'buyer@gallery-nord.example' } })));
    expect(statuses.filter((s) => s === 201)).toHaveLength(500);

    // The address is still held; the partner's orders never used its allowance, nor it the key's.
    expect((await order(client)).status).toBe(429);
    expect((await order(client, key)).status).toBe(201);

    const [view] = (await listPartnerKeys(db())).filter((k) => k.id === partner.id);
    expect(view).toMatchObject({ name: 'Gallery Nord web shop', ordersTotal: 501, requestsTotal: 501, revokedAt: null });
    expect(view!.lastUsedAt).not.toBeNull();
    // This hour's counts (unless the run straddled the hour's edge on the real clock).
    if (hourOf(started) === hourOf(new Date())) expect(view).toMatchObject({ ordersThisHour: 501, requestsThisHour: 501 });
    expect(await db().order.count({ where: { partnerKeyId: partner.id } })).toBe(501);
  });

  test("its own allowance holds it: over it 429, naming the key; another key and the address's own allowance are untouched", async () => {
    const client = newClient();
    const { key } = await createPartnerKey(db(), { name: 'Small reseller', ordersPerHour: 3 });
    for (let i = 0; i < 3; i++) expect((await order(client, key)).status).toBe(201);
    const refused = await order(client, key);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: { code: 'rate_limited', message: expect.stringMatching(/^Too many orders with this partner key; try again in \d+ (seconds|minutes)\.$/) },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const other = await createPartnerKey(db(), { name: 'Another reseller', ordersPerHour: 3 });
    expect((await order(client, other.key)).status).toBe(201);
    expect((await order(client)).status).toBe(201);
  });

  test('a request refused with 400 consumes no allowance: orders and uploads', async () => {
    const client = newClient();
    const { key } = await createPartnerKey(db(), { name: 'Careless integrator', ordersPerHour: 2, uploadsPerHour: 1 });
    // Invalid bodies (Zod), an unknown artwork (a domain refusal), malformed JSON: many allowances' worth.
    for (let i = 0; i < 5; i++) expect((await order(client, key, {})).status).toBe(400);
    expect((await order(client, key, reproduction({ artworkSlug: 'no-such-work' }))).status).toBe(400);
    expect((await call('POST', '/orders', client, { body: '{"kind":', headers: { ...bearer(key), 'content-type': 'application/json' } })).status).toBe(400);
    expect((await order(client, key)).status).toBe(201);
    expect((await order(client, key)).status).toBe(201);
    expect((await order(client, key)).status).toBe(429);

    const send = (body: BodyInit, type = 'image/jpeg') => call('POST', '/uploads', client, { body, headers: { ...bearer(key), 'content-type': type } });
    for (let i = 0; i < 3; i++) {
      expect((await send('not an image at all')).status).toBe(415);
      expect((await send('')).status).toBe(400);
    }
    expect((await send(new Uint8Array(photos.jpeg))).status).toBe(201);
    expect((await send(new Uint8Array(photos.jpeg))).status).toBe(429);
    // The address's own upload allowance was never touched.
    expect((await call('POST', '/uploads', client, { body: new Uint8Array(photos.jpeg), headers: { 'content-type': 'image/jpeg' } })).status).toBe(201);
  });

  test("the order records the partner, and staff see the partner's name on the board and the order page", async () => {
    const { key, partner } = await createPartnerKey(db(), { name: 'Museum shop Arles' });
    const placed = await order(newClient(), key);
    expect(placed.status).toBe(201);
    const row = await db().order.findUniqueOrThrow({ where: { code: placed.body.code }, select: { partnerKeyId: true } });
    expect(row.partnerKeyId).toBe(partner.id);
    expect((await orderForStaff(db(), placed.body.code)).partner).toBe('Museum shop Arles');
    const board = await orderBoard(db(), { q: placed.body.code });
    expect(board.items.map((o) => [o.code, o.partner])).toEqual([[placed.body.code, 'Museum shop Arles']]);

    // The shop's own customers' orders name no partner.
    const own = await order(newClient());
    expect((await orderForStaff(db(), own.body.code)).partner).toBeNull();
  });

  test('the key is stored only as its SHA-256: the key is nowhere in the database', async () => {
    const { key, partner } = await createPartnerKey(db(), { name: 'Hashed only' });
    expect(key).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect((await order(newClient(), key)).status).toBe(201);
    const stored = await db().partnerKey.findUniqueOrThrow({ where: { id: partner.id } });
    expect(stored.keyHash).toBe(partnerKeyHash(key));
    expect(stored.keyPrefix).toBe(key.slice(0, 12));
    // Every row of every table, as text: neither the key nor its random part appears.
    const secret = key.slice('pk_live_'.length);
    const tables = await db().$queryRaw<{ name: string }[]>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`;
    expect(tables.map((t) => t.name)).toContain('partner_keys');
    for (const { name } of tables) {
      const [found] = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM "${name}" t WHERE strpos(t::text, $1) > 0`, secret);
      expect(found!.n, name).toBe(0);
    }
  });
});

describe('a credential that names nobody', () => {
  const unauthorized = { error: { code: 'unauthorized', message: expect.any(String) } };

  test('an unknown key is 401 on every kind of public operation, never served as anonymous', async () => {
    const client = newClient();
    const unknown = bearer(`pk_live_${'A'.repeat(43)}`);
    const answers = await Promise.all([
      call('POST', '/orders', client, { json: reproduction(), headers: unknown }),
      call('GET', '/artworks?page=1', client, { headers: unknown }),
      call('GET', '/pricing', client, { headers: unknown }),
      call('GET', '/orders/ZZZZZZZZZZ?email=nobody%40example.com', client, { headers: unknown }),
      call('POST', '/uploads', client, { body: new Uint8Array(photos.jpeg), headers: { ...unknown, 'content-type': 'image/jpeg' } }),
      call('GET', '/health', client, { headers: unknown }),
      // The shape of a key with a mistake in it is an unknown key too.
      call('GET', '/pricing', client, { headers: bearer('pk_live_short') }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthorized);
    }
    // Nothing was taken: no order for this customer was made, no upload counted.
    expect(await db().rateLimitHit.count({ where: { client } })).toBe(0);
  });

  test('a revoked key is 401 from the next request on, and stays so', async () => {
    const client = newClient();
    const { key, partner } = await createPartnerKey(db(), { name: 'Former partner' });
    expect((await order(client, key)).status).toBe(201);
    const revoked = await revokePartnerKey(db(), partner.id);
    expect(revoked.revokedAt).not.toBeNull();
    for (const path of ['/orders', '/artworks?page=1']) {
      const answer = path === '/orders' ? await order(client, key) : await call('GET', path, client, { headers: bearer(key) });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthorized);
    }
    // Revoking again keeps the first revocation's time.
    expect((await revokePartnerKey(db(), partner.id)).revokedAt).toBe(revoked.revokedAt);
    // The website's tRPC takes the same credentials, and refuses the same way.
    const trpc = await websiteTrpc(
      new Request('http://shop.test/api/trpc/orders.pricing', { headers: { ...identityHeaders(client), ...bearer(key) } }),
      ({ req, resHeaders }) => createContext({ req, resHeaders, limits }),
    );
    expect(trpc.status).toBe(401);
  });

  test('a wrong token on a public operation is 401 too (it used to be served as anonymous), and counts as a guess at the staff token', async () => {
    const client = newClient();
    const answer = await order(client, 'not-the-staff-token');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorized);
    expect(await db().rateLimitHit.findMany({ where: { client }, select: { limitName: true, hits: true } })).toEqual([{ limitName: 'staffToken', hits: 1 }]);
  });

  test('unknown partner keys are never taken as guesses at the staff token: the staff token still works from that address', async () => {
    const client = newClient();
    for (let i = 0; i < limitPolicies.staffToken.allowance + 5; i++) {
      expect((await call('GET', '/pricing', client, { headers: bearer(`pk_live_${String(i).padStart(43, 'x')}`) })).status).toBe(401);
    }
    expect((await call('GET', '/admin/orders', client, { headers: STAFF })).status).toBe(200);
  });

  test('a partner key opens no staff operation', async () => {
    const { key } = await createPartnerKey(db(), { name: 'Curious partner' });
    const answer = await call('GET', '/admin/orders', newClient(), { headers: bearer(key) });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthorized);
  });
});

describe('the staff token on public operations', () => {
  test('is accepted without limits: it orders past the allowance of its address', async () => {
    const client = newClient();
    for (let i = 0; i < limitPolicies.orderCreate.allowance; i++) expect((await order(client)).status).toBe(201);
    expect((await order(client)).status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await call('POST', '/orders', client, { json: reproduction(), headers: STAFF })).status).toBe(201);
  });
});

describe("the dashboard's Partners procedures", () => {
  const SITE = 'http://shop.test';
  /** A call of /staff/api/trpc as the dashboard's client makes it (a write from this site). */
  const dashboard = (path: string, input: unknown, cookie?: string, method: 'GET' | 'POST' = 'POST') =>
    staffTrpc(
      new Request(method === 'GET' ? `${SITE}/staff/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `${SITE}/staff/api/trpc/${path}`, {
        method,
        headers: { 'content-type': 'application/json', origin: SITE, ...(cookie ? { cookie } : {}) },
        body: method === 'POST' ? JSON.stringify(input) : undefined,
      }),
    );
  const signedIn = async () => `${staffCookieName(false)}=${(await newStaffSession(db(), process.env.ADMIN_TOKEN!)).value}`;

  test('make a key (shown once, defaults 1000 orders and 100 uploads an hour), list it with its use, revoke it: staff only', async () => {
    const cookie = await signedIn();
    const made = await dashboard('partners.create', { name: '  Atelier Lyon  ' }, cookie);
    expect(made.status).toBe(200);
    const { result } = await made.json();
    const { key, partner } = result.data;
    expect(key).toMatch(/^pk_live_/);
    expect(partner).toMatchObject({ name: 'Atelier Lyon', prefix: key.slice(0, 12), ordersPerHour: 1000, uploadsPerHour: 100, revokedAt: null, ordersTotal: 0 });
    expect(JSON.stringify(partner)).not.toContain(key.slice(12));

    expect((await order(newClient(), key)).status).toBe(201);
    const listed = await (await dashboard('partners.list', {}, cookie, 'GET')).json();
    const row = listed.result.data.find((k: { id: string }) => k.id === partner.id);
    expect(row).toMatchObject({ ordersTotal: 1, requestsTotal: 1 });
    // The list never carries a key or its hash.
    expect(JSON.stringify(listed)).not.toContain(key.slice(12));
    expect(JSON.stringify(listed)).not.toContain(partnerKeyHash(key));

    const revoked = await dashboard('partners.revoke', { id: partner.id }, cookie);
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).result.data.revokedAt).not.toBeNull();
    expect((await order(newClient(), key)).status).toBe(401);

    // Allowances out of range and an empty name are refused; without a session nothing is done.
    for (const input of [{ name: ' ' }, { name: 'x', ordersPerHour: 0 }, { name: 'x', uploadsPerHour: 100_001 }, { name: 'x', ordersPerHour: 1.5 }]) {
      expect((await dashboard('partners.create', input, cookie)).status, JSON.stringify(input)).toBe(400);
    }
    const before = await db().partnerKey.count();
    expect((await dashboard('partners.create', { name: 'Nobody' })).status).toBe(401);
    expect((await dashboard('partners.list', {}, undefined, 'GET')).status).toBe(401);
    expect((await dashboard('partners.revoke', { id: partner.id })).status).toBe(401);
    expect(await db().partnerKey.count()).toBe(before);
    // Unknown id: 404.
    expect((await dashboard('partners.revoke', { id: '00000000-0000-4000-8000-000000000000' }, cookie)).status).toBe(404);
  });
});
