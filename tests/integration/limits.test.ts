import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nextAuthRoute } from '@/server/accounts/nextauth-route';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import type { Context } from '@/server/api/trpc';
import { websiteTrpc } from '@/server/api/website-trpc';
import { createDb, db, type Db } from '@/server/db/client';
import { env } from '@/server/env';
import { CLIENT_HEADER, identityHeaders } from '@/server/http/identity';
import { clientOf } from '@/server/http/client';
import { withRequestLog } from '@/server/http/request-log';
import { limitPolicies, type LimitName } from '@/server/limits/policy';
import { countRequest, limitFailures, limitKey, peekRequests, sweepExpired, type LimitSettings } from '@/server/limits/service';
import { signIn, staffTrpc } from '@/server/staff/handlers';
import { photos, STAFF } from '../support/photos';
import { reproduction } from '../support/orders';
import type { RequestHead } from '@/server/http/answers';

// This file runs with limiting on, at a tenth of the shipped allowances (so a handful of requests
// trips each limit); every other test file runs with it off (tests/support/setup.ts). Each test
// speaks from its own client address so the counts do not mix.
process.env.RATE_LIMIT_MULTIPLIER = '0.1';
const tenth = (name: LimitName) => Math.max(1, Math.floor(limitPolicies[name].allowance * 0.1));
/** The staff-token lockout is exact: the multiplier does not scale it. */
const lockout = limitPolicies.staffToken.allowance;

let lastClient = 10;
/** A fresh documentation address (RFC 5737) per test. */
const newClient = () => `198.51.100.${++lastClient}`;

/**
 * The limits' clock in this file: a fixed moment inside one window of every policy (10:07:30 lies
 * in the 10:00 hour and in the 10:00–10:10 and 10:00–10:15 windows), so a test's requests never
 * straddle a window's edge and no test waits for one to pass. It is in the future, so the sweep of
 * expired windows (on the database's clock) never deletes a count under a test.
 */
const NOW = new Date('2031-05-20T10:07:30Z');
const now = () => NOW;
const limits: LimitSettings = { multiplier: 0.1, now };
/** The shop's own context for a request, counting on this file's clock. */
const limited = (options: { req: RequestHead; resHeaders?: Headers }): Context => createContext({ ...options, limits });

function call(
  method: string,
  path: string,
  client: string,
  options: { json?: unknown; body?: BodyInit; headers?: Record<string, string>; makeContext?: (o: { req: RequestHead }) => Context } = {},
) {
  const headers = new Headers({ ...identityHeaders(client), ...options.headers });
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers.set('content-type', 'application/json');
  }
  const request = new Request(`http://shop.test/v1${path}`, { method, headers, body });
  return handleRest(request, options.makeContext ?? limited);
}

const orderLookup = (client: string, makeContext?: (o: { req: RequestHead }) => Context) =>
  call('GET', '/orders/ZZZZZZZZZZ?email=nobody%40example.com', client, { makeContext });

describe('the counter', () => {
  const settings: LimitSettings = { multiplier: 1, policies: { orderLookup: { allowance: 5, windowSeconds: 3600 } }, now };

  test('counts every request once even when they arrive together, and says when the window ends', async () => {
    const client = newClient();
    const verdicts = await Promise.all(Array.from({ length: 40 }, () => countRequest(db(), 'orderLookup', client, settings)));
    expect(verdicts.map((v) => v.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    // 10:07:30 in the window of 10:00 to 11:00.
    for (const v of verdicts) expect(v.retryAfterSeconds).toBe(3150);
    expect((await peekRequests(db(), 'orderLookup', client, settings)).hits).toBe(41);
    // Another client, another limit: untouched.
    expect((await countRequest(db(), 'orderLookup', newClient(), settings)).allowed).toBe(true);
    expect((await countRequest(db(), 'orderCreate', client, settings)).allowed).toBe(true);
    // The next window starts from nothing.
    const nextHour = { ...settings, now: () => new Date(NOW.getTime() + 3600_000) };
    expect(await countRequest(db(), 'orderLookup', client, nextHour)).toMatchObject({ allowed: true, hits: 1 });
  });

  test('the multiplier scales the allowance, and 0 turns limiting off without touching the table', async () => {
    const client = newClient();
    const doubled = await Promise.all(Array.from({ length: 11 }, () => countRequest(db(), 'orderLookup', client, { ...settings, multiplier: 2 })));
    expect(doubled.filter((v) => v.allowed)).toHaveLength(10);
    const off = newClient();
    for (let i = 0; i < 3; i++) expect((await countRequest(db(), 'orderLookup', off, { multiplier: 0 })).allowed).toBe(true);
    expect(await db().rateLimitHit.count({ where: { client: off } })).toBe(0);
  });

  test('the staff-token lockout holds whatever the multiplier says: 0 and 1000 leave it at the shipped allowance', async () => {
    const wrong = () => false;
    for (const multiplier of [0, 0.1, 1000]) {
      const client = newClient();
      for (let i = 0; i < lockout; i++) expect(await limitFailures(db(), 'staffToken', client, { multiplier, now }, wrong)).toBe(false);
      await expect(
        limitFailures(db(), 'staffToken', client, { multiplier, now }, () => true),
        `multiplier ${multiplier}`,
      ).rejects.toMatchObject({ code: 'rate_limited' });
    }
    // Only the suite's own switch (STAFF_LOCKOUT_OFF, refused in production) turns it off.
    const off = newClient();
    for (let i = 0; i <= lockout; i++) expect(await limitFailures(db(), 'staffToken', off, { multiplier: 0, lockoutOff: true, now }, wrong)).toBe(false);
    expect(await db().rateLimitHit.count({ where: { client: off } })).toBe(0);
  });

  test('expired windows are deleted in bounded batches; live ones stay', async () => {
    const client = newClient();
    const past = new Date(Date.now() - 3 * 3600_000);
    await db().rateLimitHit.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({
        limitName: 'orderLookup',
        client,
        windowStart: new Date(past.getTime() - i * 60_000),
        hits: 3,
        expiresAt: new Date(past.getTime() + 60_000),
      })),
    });
    await countRequest(db(), 'orderLookup', client, settings);
    expect(await sweepExpired(db(), 20)).toBe(20);
    await sweepExpired(db());
    const left = await db().rateLimitHit.findMany({ where: { client } });
    expect(left).toHaveLength(1);
    expect(left[0]!.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('who is counted', () => {
  test("the client header counts only with the front's proof: a client naming its own address is `local`", async () => {
    const claimed = new Headers({ [CLIENT_HEADER]: '203.0.113.77' });
    expect(clientOf(claimed)).toBe('local');
    expect(clientOf(new Headers({ [CLIENT_HEADER]: '203.0.113.77', 'x-shop-proof': 'guessed' }))).toBe('local');
    expect(clientOf(new Headers(identityHeaders('203.0.113.77')))).toBe('203.0.113.77');
    // Through /v1: fresh addresses picked per request do not escape the lookup limit.
    const statuses: number[] = [];
    for (let i = 0; i < tenth('orderLookup') + 2; i++) {
      const request = new Request('http://shop.test/v1/orders/ZZZZZZZZZZ?email=nobody%40example.com', { headers: { [CLIENT_HEADER]: `203.0.113.${100 + i}` } });
      statuses.push(
        (
          await handleRest(request, ({ req }) =>
            createContext({ req, limits: { multiplier: 0.1, policies: { orderLookup: { allowance: 60, windowSeconds: 3 * 3600 + 7 } }, now } }),
          )
        ).status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
  });

  test('an IPv6 client is its /64; IPv4 addresses count one by one', () => {
    expect(limitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:0db8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(limitKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKey('2001:db8:0:0:5::')).toBe('2001:db8:0:0::/64');
    expect(limitKey('::1')).toBe('0:0:0:0::/64');
    expect(limitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(limitKey('198.51.100.7')).toBe('198.51.100.7');
    expect(limitKey('local')).toBe('local');
  });

  test('addresses of one /64 share an allowance; the next /64 has its own', async () => {
    const net = `2001:db8:${(++lastClient).toString(16)}:7`;
    const allowance = tenth('orderLookup');
    for (let i = 0; i < allowance; i++) expect((await orderLookup(`${net}::${(i + 1).toString(16)}`)).status).toBe(404);
    expect((await orderLookup(`${net}:ffff:ffff:ffff:ffff`)).status).toBe(429);
    expect((await orderLookup(`2001:db8:${lastClient.toString(16)}:8::1`)).status).toBe(404);
  });
});

describe('two instances on one database', () => {
  let first: Db;
  let second: Db;
  beforeAll(() => {
    first = createDb(process.env.DATABASE_URL!);
    second = createDb(process.env.DATABASE_URL!);
  });
  afterAll(async () => {
    await first.$disconnect();
    await second.$disconnect();
  });

  test('share one limit: alternating requests are counted together', async () => {
    const client = newClient();
    const on =
      (instance: Db) =>
      ({ req }: { req: RequestHead }): Context =>
        createContext({ req, db: instance, limits });
    const allowance = tenth('orderLookup');
    const statuses: number[] = [];
    for (let i = 0; i < allowance + 2; i++) statuses.push((await orderLookup(client, on(i % 2 ? second : first))).status);
    expect(statuses).toEqual([...Array(allowance).fill(404), 429, 429]);
    // Each instance alone saw at most half of them, so a per-instance count would not have refused.
    expect(Math.ceil((allowance + 2) / 2)).toBeLessThanOrEqual(allowance);
  });
});

describe('429 on /v1', () => {
  test('order creation: 201 within the allowance, then 429 rate_limited with Retry-After and the contract body', async () => {
    const client = newClient();
    for (let i = 0; i < tenth('orderCreate'); i++) expect((await call('POST', '/orders', client, { json: reproduction() })).status).toBe(201);
    const refused = await call('POST', '/orders', client, { json: reproduction() });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(limitPolicies.orderCreate.windowSeconds);
    const body = await refused.json();
    expect(Object.keys(body)).toEqual(['error']);
    expect(body.error).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Too many orders from your address; try again in \d+ (seconds|minutes)\.$/) });
    expect(refused.headers.get('x-request-id')).toBeTruthy();
    // Another address is not affected.
    expect((await call('POST', '/orders', newClient(), { json: reproduction() })).status).toBe(201);
  });

  test('a request answered 400 does not count: only accepted orders do (decisions.md "Limits and inputs")', async () => {
    const client = newClient();
    // Invalid bodies (Zod) and an unknown artwork (a domain refusal), several allowances' worth.
    for (let i = 0; i < tenth('orderCreate') * 3; i++) expect((await call('POST', '/orders', client, { json: {} })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await call('POST', '/orders', client, { json: reproduction({ artworkSlug: 'no-such-work' }) })).status).toBe(400);
    for (let i = 0; i < tenth('orderCreate'); i++) expect((await call('POST', '/orders', client, { json: reproduction() })).status).toBe(201);
    expect((await call('POST', '/orders', client, { json: reproduction() })).status).toBe(429);
  });

  test("the storefront's order form: a refused order is given back there too", async () => {
    const client = newClient();
    const send = (input: unknown) =>
      websiteTrpc(
        new Request('http://shop.test/api/trpc/orders.create', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...identityHeaders(client) },
          body: JSON.stringify(input),
        }),
        limited,
      );
    for (let i = 0; i < tenth('orderCreate') * 2; i++) expect((await send({})).status).toBe(400);
    for (let i = 0; i < tenth('orderCreate'); i++) expect((await send(reproduction())).status).toBe(200);
    expect((await send(reproduction())).status).toBe(429);
  });

  test('refused uploads (wrong type, empty) do not count; stored photos do', async () => {
    const client = newClient();
    for (let i = 0; i < tenth('photoUpload') * 2; i++) {
      expect((await call('POST', '/uploads', client, { body: 'not an image at all', headers: { 'content-type': 'image/jpeg' } })).status).toBe(415);
      expect((await call('POST', '/uploads', client, { body: '', headers: { 'content-type': 'image/jpeg' } })).status).toBe(400);
    }
    const send = () => call('POST', '/uploads', client, { body: new Uint8Array(photos.jpeg), headers: { 'content-type': 'image/jpeg' } });
    for (let i = 0; i < tenth('photoUpload'); i++) expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(429);
  });

  test('order lookup, against code guessing', async () => {
    const client = newClient();
    for (let i = 0; i < tenth('orderLookup'); i++) expect((await orderLookup(client)).status).toBe(404);
    const refused = await orderLookup(client);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited');
  });

  test('photo uploads (a hand-written handler)', async () => {
    const client = newClient();
    const send = () => call('POST', '/uploads', client, { body: new Uint8Array(photos.jpeg), headers: { 'content-type': 'image/jpeg' } });
    for (let i = 0; i < tenth('photoUpload'); i++) expect((await send()).status).toBe(201);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).error.code).toBe('rate_limited');
  });

  test('wrong staff tokens: 401 until the allowance, then 429 even for the right token; other addresses keep working', async () => {
    const client = newClient();
    const wrong = { authorization: 'Bearer guess' };
    // No token at all is not a guess: never counted.
    for (let i = 0; i < 3; i++) expect((await call('GET', '/admin/orders', client)).status).toBe(401);
    for (let i = 0; i < lockout; i++) expect((await call('GET', '/admin/orders', client, { headers: wrong })).status).toBe(401);
    const refused = await call('GET', '/admin/orders', client, { headers: wrong });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // The right token now waits too, so the answer tells nothing about a guess.
    expect((await call('GET', '/admin/orders', client, { headers: STAFF })).status).toBe(429);
    // Hand-written staff handlers share the count.
    expect((await call('GET', '/admin/uploads/00000000-0000-4000-8000-000000000000', client, { headers: STAFF })).status).toBe(429);
    expect((await call('GET', '/admin/orders', newClient(), { headers: STAFF })).status).toBe(200);
  });

  test('50 wrong tokens sent at once: at most the allowance is ever tried, the rest are 429 untried', async () => {
    const client = newClient();
    let tried = 0;
    const attempt = () => {
      tried++;
      return false;
    };
    const settings: LimitSettings = { multiplier: 1, now };
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => limitFailures(db(), 'staffToken', client, settings, attempt)));
    expect(tried).toBeLessThanOrEqual(limitPolicies.staffToken.allowance);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(tried);
    expect(outcomes.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason.code === 'rate_limited')).toBe(true);

    // The same through /v1, on real PostgreSQL: only the allowance's worth of 401s.
    const other = newClient();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () => call('GET', '/admin/orders', other, { headers: { authorization: 'Bearer guess' } }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(lockout);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(50 - lockout);
  });

  test('the right token is never counted', async () => {
    const client = newClient();
    for (let i = 0; i < lockout + 3; i++) expect((await call('GET', '/admin/orders', client, { headers: STAFF })).status).toBe(200);
  });

  test('health and the catalog are never limited', async () => {
    const client = newClient();
    for (let i = 0; i < 30; i++) expect((await call('GET', '/health', client)).status).toBe(200);
    expect(await db().rateLimitHit.count({ where: { client } })).toBe(0);
  });
});

describe('429 on the website and the dashboard', () => {
  test("the storefront's tRPC answers 429 with Retry-After and TOO_MANY_REQUESTS the forms recognize", async () => {
    // The storefront's route (src/app/api/trpc/[trpc]/route.ts), counting on this file's clock.
    const GET = withRequestLog((request: Request) => websiteTrpc(request, limited));
    const client = newClient();
    const input = encodeURIComponent(JSON.stringify({ code: 'ZZZZZZZZZZ', email: 'nobody@example.com' }));
    const ask = () => GET(new Request(`http://shop.test/api/trpc/orders.byCode?input=${input}`, { headers: { ...identityHeaders(client) } }));
    for (let i = 0; i < tenth('orderLookup'); i++) expect((await ask()).status).toBe(404);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = await refused.json();
    expect(body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', appCode: 'rate_limited' });
    expect(refused.headers.get('x-request-id')).toBeTruthy();
  });

  test('the staff sign-in form sends the browser back with a readable refusal once wrong tokens pile up', async () => {
    const client = newClient();
    const post = (token: string) => {
      const form = new URLSearchParams({ token, locale: 'en' });
      return signIn(
        new Request('http://shop.test/staff/api/sign-in', {
          method: 'POST',
          headers: { origin: 'http://shop.test', 'content-type': 'application/x-www-form-urlencoded', ...identityHeaders(client) },
          body: form,
        }),
        env(),
        db(),
        limits,
      );
    };
    for (let i = 0; i < lockout; i++) expect((await post('wrong')).headers.get('location')).toBe('/staff/en/sign-in?error=token');
    const refused = await post('wrong');
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toMatch(/^\/staff\/en\/sign-in\?error=tooMany&wait=\d+$/);
    // Shared with /v1's Bearer tokens, and the right token waits as well.
    expect((await call('GET', '/admin/orders', client, { headers: STAFF })).status).toBe(429);
    expect((await post(STAFF.authorization.slice('Bearer '.length))).headers.get('set-cookie')).toBeNull();
  });

  test('a dashboard already signed in keeps working while its address is over the wrong-token limit', async () => {
    const client = newClient();
    const form = (token: string) =>
      new Request('http://shop.test/staff/api/sign-in', {
        method: 'POST',
        headers: { origin: 'http://shop.test', 'content-type': 'application/x-www-form-urlencoded', ...identityHeaders(client) },
        body: new URLSearchParams({ token, locale: 'en' }),
      });
    const cookie = (await signIn(form(STAFF.authorization.slice('Bearer '.length)), env(), db(), limits)).headers.get('set-cookie')!.split(';')[0]!;
    // Someone else behind the same address guesses until the limit.
    for (let i = 0; i <= lockout; i++) await call('GET', '/admin/orders', client, { headers: { authorization: 'Bearer guess' } });
    expect((await call('GET', '/admin/orders', client, { headers: STAFF })).status).toBe(429);
    const board = await staffTrpc(new Request('http://shop.test/staff/api/trpc/board?input=%7B%7D', { headers: { cookie, ...identityHeaders(client) } }));
    expect(board.status).toBe(200);
  });

  test("NextAuth's sign-in steps count against the signIn limit", async () => {
    // The route of src/app/api/auth/[...nextauth]/route.ts, counting on this file's clock.
    const GET = nextAuthRoute(() => limits);
    const client = newClient();
    const context = { params: Promise.resolve({ nextauth: ['callback', 'google'] }) };
    const step = () => GET(new Request('http://shop.test/api/auth/callback/google?state=x&code=y', { headers: { ...identityHeaders(client) } }) as never, context);
    for (let i = 0; i < tenth('signIn'); i++) expect((await step()).status).not.toBe(429);
    const refused = await step();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await refused.json()).error.code).toBe('rate_limited');
  });
});
