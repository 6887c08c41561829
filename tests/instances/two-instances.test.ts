import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startLocalIssuer, TEST_GOOGLE_CLIENT_ID, type LocalIssuer } from '../support/google';
import { startS3Server } from '../support/s3-server';
import { checkoutEvent, signed, startStripeServer, STRIPE_TEST_KEY, WEBHOOK_SECRET } from '../support/stripe';
import { LOAD_ADMIN_TOKEN, startShop, testServer, type Shop, type TestServer } from '../load/shop';

/**
 * Statelessness (issue 9, item 6): two production servers (scripts/start.ts each, ports 3410 and
 * 3411) on one database, started at the same moment on a fresh database (so both migrate and seed
 * at once), with photos in an S3-compatible bucket. Requests alternate between them; nothing may
 * need the memory of the instance that made it.
 */

const PHOTO = readFileSync(new URL('../fixtures/photos/photo.jpg', import.meta.url));
const STAFF = { authorization: `Bearer ${LOAD_ADMIN_TOKEN}` };
const SHOPPER_COOKIE = 'next-auth.session-token';

let server: TestServer;
let databaseUrl: string;
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let s3: Awaited<ReturnType<typeof startS3Server>>;
let issuer: LocalIssuer;
let a: Shop;
let b: Shop;
/** The address both sit behind, as behind a load balancer: sessions and links name it, not an instance. */
let site: string;

beforeAll(async () => {
  server = await testServer();
  databaseUrl = await server.createDatabase('instances');
  [stripe, s3, issuer] = await Promise.all([startStripeServer(), startS3Server(), startLocalIssuer()]);
  site = 'http://127.0.0.1:3410';
  const env = {
    PUBLIC_BASE_URL: site,
    STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
    STRIPE_API_BASE: stripe.url,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    UPLOAD_STORAGE: 's3',
    S3_BUCKET: 'photos',
    S3_ENDPOINT: s3.url,
    S3_REGION: 'eu-west-1',
    S3_ACCESS_KEY_ID: 'test-access-key',
    S3_SECRET_ACCESS_KEY: 'test-secret-key',
    S3_FORCE_PATH_STYLE: '1',
    GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: 'test-client-secret',
    GOOGLE_ISSUER: issuer.url,
    GOOGLE_JWKS_URL: issuer.jwksUrl,
    ALLOW_TEST_IDENTITY_PROVIDER: '1',
    // The production default: each instance re-reads the catalog version at most once a second.
    CATALOG_CACHE_RECHECK_MS: '1000',
  };
  // Both at once on an empty database: the migrations and the seed run twice, concurrently.
  const started = await Promise.allSettled([startShop({ databaseUrl, port: 3410, env }), startShop({ databaseUrl, port: 3411, env })]);
  for (const result of started) {
    if (result.status !== 'fulfilled') continue;
    if (result.value.port === 3410) a = result.value;
    else b = result.value;
  }
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}, 900_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await Promise.all([stripe?.close(), s3?.close(), issuer?.stop()]);
  await server?.close();
});

async function call(shop: Shop, method: string, path: string, init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  const response = await fetch(`${shop.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a page or an empty body
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

async function query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('two instances on one database', () => {
  test('starting both at once on an empty database migrates and seeds it once', async () => {
    const migrations = await query<{ migration_name: string; n: number }>('SELECT migration_name, count(*)::int AS n FROM _prisma_migrations GROUP BY 1');
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.every((m) => m.n === 1)).toBe(true);
    const [{ n }] = (await query<{ n: number }>('SELECT count(*)::int AS n FROM artworks WHERE curated')) as [{ n: number }];
    expect((await call(a, 'GET', '/v1/artworks')).body.total).toBe((await call(b, 'GET', '/v1/artworks')).body.total);
    expect(n).toBeGreaterThan(0);
  });

  test('an order: photo uploaded on A, ordered on B, paid by a webhook on B, moved by staff on A, looked up on B', async () => {
    const upload = await call(a, 'POST', '/v1/uploads', { body: PHOTO, headers: { 'content-type': 'image/jpeg' } });
    expect(upload.status).toBe(201);
    const customer = { name: 'Grace Hopper', email: 'grace@instances.test', address: '1 Navy Yard', city: 'Arlington', postalCode: '22202', country: 'US' };
    const created = await call(b, 'POST', '/v1/orders', {
      json: { kind: 'custom', uploadId: upload.body.uploadId, style: 'modern', subjects: 1, size: '30x40', frame: 'rolled', customer },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { code, total, checkoutUrl } = created.body;
    expect(checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\//);

    // Staff on A see the photo B's shopper referenced: it lives in the bucket, not on an instance's disk.
    const photo = await fetch(`${a.url}/v1/admin/uploads/${upload.body.uploadId}`, { headers: STAFF });
    expect(photo.status).toBe(200);
    expect(Buffer.from(await photo.arrayBuffer()).equals(PHOTO)).toBe(true);

    const event = checkoutEvent('checkout.session.completed', { code, amount: total });
    const payload = JSON.stringify(event);
    expect((await call(b, 'POST', '/v1/payments/stripe-webhook', { body: payload, headers: signed(payload) })).status).toBe(200);
    // Stripe's retry of the same event lands on the other instance: still processed once.
    expect((await call(a, 'POST', '/v1/payments/stripe-webhook', { body: payload, headers: signed(payload) })).status).toBe(200);

    const moved = await call(a, 'POST', `/v1/admin/orders/${code}/status`, { json: { status: 'sketching', note: 'first sketch' }, headers: STAFF });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const back = await call(b, 'POST', `/v1/admin/orders/${code}/status`, { json: { status: 'paid' }, headers: STAFF });
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe('invalid_transition');

    const lookup = await call(b, 'GET', `/v1/orders/${code}?email=${encodeURIComponent(customer.email)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.order.status).toBe('sketching');
    expect(lookup.body.order.sketchStatus).toBe('pending');
    expect(lookup.body.order.events.map((e: { status: string }) => e.status)).toEqual(['pending', 'paid', 'sketching']);
    const [{ n }] = (await query<{ n: number }>('SELECT count(*)::int AS n FROM payment_events WHERE id = $1', [event.id])) as [{ n: number }];
    expect(n).toBe(1);
  });

  test('the staff dashboard: signed in on A, the cookie works on B (nothing is kept in an instance)', async () => {
    const signIn = await call(a, 'POST', '/staff/api/sign-in', {
      body: new URLSearchParams({ token: LOAD_ADMIN_TOKEN, locale: 'en' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: site },
    });
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.getSetCookie()[0]!.split(';')[0]!;
    expect(cookie).toMatch(/^atelier-staff=/);

    const input = encodeURIComponent(JSON.stringify({}));
    const board = await call(b, 'GET', `/staff/api/trpc/board?input=${input}`, { headers: { cookie } });
    expect(board.status, JSON.stringify(board.body).slice(0, 300)).toBe(200);
    expect((await call(b, 'GET', `/staff/api/trpc/board?input=${input}`)).status).toBe(401);
    const page = await call(b, 'GET', '/staff/en', { headers: { cookie } });
    expect(page.status).toBe(200);
    expect((await call(b, 'GET', '/staff/en')).status).toBeGreaterThanOrEqual(300); // no cookie: off to sign-in
  });

  test("a shopper's Google sign-in on A is a session on B: favorites kept on B, read on A, signed out on B for both", async () => {
    const who = { sub: 'g-instances-1', email: 'shopper@instances.test', name: 'Instance Shopper' };
    const signIn = await call(a, 'POST', '/v1/account/auth/google', { json: { credential: await issuer.idToken(who) } });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    const set = signIn.headers.getSetCookie().find((c) => c.startsWith(`${SHOPPER_COOKIE}=`))!;
    const cookie = set.split(';')[0]!;

    const slug = (await call(a, 'GET', '/v1/artworks')).body.items[0].slug as string;
    expect((await call(b, 'PUT', `/v1/account/favorites/${slug}`, { headers: { cookie } })).status).toBe(200);
    const favorites = await call(a, 'GET', '/v1/account/favorites', { headers: { cookie } });
    expect(favorites.status).toBe(200);
    expect(favorites.body.items.map((i: { slug: string }) => i.slug)).toEqual([slug]);
    // NextAuth on B reads the session A's sign-in wrote.
    const session = await call(b, 'GET', '/api/auth/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(who.email);

    expect((await call(b, 'POST', '/v1/account/auth/logout', { headers: { cookie } })).status).toBeLessThan(300);
    expect((await call(a, 'GET', '/v1/account/favorites', { headers: { cookie } })).status).toBe(401);
  });

  test('a catalog change is seen by both instances within the cache recheck bound (1 s), whichever served it before', async () => {
    const first = await call(a, 'GET', '/v1/artworks');
    const slug = first.body.items[0].slug as string;
    // Warm both caches with the work's page.
    for (const shop of [a, b]) await call(shop, 'GET', `/v1/artworks/${slug}`);
    expect((await fetch(`${a.url}/v1/artworks/${slug}`)).headers.get('x-catalog-cache')).toBe('hit');
    // A hand fix in SQL, as an operator would make it: no instance is told.
    await query(`UPDATE artwork_texts SET title = 'Retitled by hand' WHERE locale = 'en' AND artwork_id = (SELECT id FROM artworks WHERE slug = $1)`, [slug]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    for (const shop of [a, b]) {
      const answer = await call(shop, 'GET', `/v1/artworks/${slug}`);
      expect(JSON.stringify(answer.body)).toContain('Retitled by hand');
    }
  });
});
