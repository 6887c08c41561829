import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { withE2eDatabase } from './support/database';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * The per-client limits as a visitor meets them. The e2e server trusts X-Forwarded-For as if behind
 * a load balancer (TRUST_PROXY, playwright.config.ts), so this spec speaks as an address of its own
 * and trips its limit without touching the other specs'.
 * The allowances are the shipped ones times the run's RATE_LIMIT_MULTIPLIER (playwright.config.ts).
 */
const CLIENT = '203.0.113.77';
const MULTIPLIER = 10;
const LOOKUPS = 60 * MULTIPLIER;

/** The lookup limit's window (10 minutes): its counts start again at each edge, on the database's clock. */
const WINDOW_SECONDS = 600;

test('the lookup page says plainly that too many lookups came from this address', async ({ page, request }) => {
  // The address has spent its lookups: its count stands at the allowance in the window of now and
  // in the next one, so the lookups below are over it whichever window they fall in, and nothing
  // waits for a window's edge to pass. (Counting itself is tested in tests/integration/limits.test.ts.)
  await withE2eDatabase((client) =>
    client.query(
      `INSERT INTO rate_limit_hits (limit_name, client, window_start, hits, expires_at)
       SELECT 'orderLookup', $1::text, w.start, $2::int, w.start + make_interval(secs => $3::int)
         FROM (SELECT date_bin(make_interval(secs => $3::int), now(), timestamptz '2000-01-01') + make_interval(secs => $3::int) * k AS start
                 FROM generate_series(0, 1) AS k) w
       ON CONFLICT (limit_name, client, window_start) DO UPDATE SET hits = EXCLUDED.hits`,
      [CLIENT, LOOKUPS, WINDOW_SECONDS],
    ),
  );
  const refused = await request.get('/v1/orders/ZZZZZZZZZZ?email=nobody%40example.com', { headers: { 'x-forwarded-for': CLIENT } });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  expect((await refused.json()).error.code).toBe('rate_limited');

  await page.setExtraHTTPHeaders({ 'x-forwarded-for': CLIENT });
  await page.goto('/en/orders', { waitUntil: 'networkidle' });
  await page.getByLabel('Order code').fill('ZZZZZZZZZZ');
  await page.getByLabel('E-mail address').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Find my order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Too many lookups' })).toBeVisible();
  await expect(page.getByText('Please wait a few minutes, then try again.')).toBeVisible();
});

test('/v1 answers carry the API headers, and the public catalog is readable cross-origin', async ({ request }) => {
  const health = await request.get('/v1/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });
  expect(health.headers()['cache-control']).toBe('private, no-store');
  expect(health.headers()['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(health.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

  const catalog = await request.get('/v1/artworks', { headers: { origin: 'https://elsewhere.example' } });
  expect(catalog.headers()['access-control-allow-origin']).toBe('*');
  const orders = await request.post('/v1/orders', { headers: { origin: 'https://elsewhere.example' }, data: {} });
  expect(orders.headers()['access-control-allow-origin']).toBeUndefined();
});
