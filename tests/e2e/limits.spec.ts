import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The webServer (npm start) runs only where Chromium exists; see playwright.config.ts.
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

/** The lookup limit's window (10 minutes): its counts start again at each edge, on the server's clock (this machine's). */
const WINDOW_SECONDS = 600;

test('the lookup page says plainly that too many lookups came from this address', async ({ page, request }) => {
  test.setTimeout(180_000);
  // All of this spec's lookups must fall in one window: wait out the end of one that is nearly over.
  const left = WINDOW_SECONDS - ((Date.now() / 1000) % WINDOW_SECONDS);
  if (left < 60) await new Promise((resolve) => setTimeout(resolve, (left + 1) * 1000));
  // Spend the address's lookups over /v1 (each is a 404), then one more in the page.
  for (let sent = 0; sent < LOOKUPS; sent += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, LOOKUPS - sent) }, () => request.get('/v1/orders/ZZZZZZZZZZ?email=nobody%40example.com', { headers: { 'x-forwarded-for': CLIENT } })),
    );
    for (const answer of batch) expect(answer.status()).toBe(404);
  }
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
