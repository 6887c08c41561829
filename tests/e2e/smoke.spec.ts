import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SERVER } from './support/env';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * What a client and a shopper meet first, the same on the production server (playwright.config.ts)
 * and on `npm run dev` (playwright.dev.config.ts, with api.spec.ts): development is production
 * (issue 40). The one difference Next makes: `next dev` caches no page, so every page's policy
 * carries a nonce there, where production allows a cached page's scripts by their hashes.
 */
const development = E2E_SERVER === 'dev';

test('a catalog read over /v1: its JSON, ETag and 304, CORS, policy and request id', async ({ request }) => {
  const read = await request.get('/v1/artworks?page=1', { headers: { 'x-request-id': 'smoke-request-0001' } });
  expect(read.status()).toBe(200);
  const headers = read.headers();
  expect(headers['content-type']).toMatch(/^application\/json/);
  expect(headers['cache-control']).toMatch(/^public, max-age=\d+/);
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-request-id']).toBe('smoke-request-0001');
  expect(headers['content-encoding']).toBeUndefined();
  const body = (await read.json()) as { items: { slug: string }[] };
  expect(body.items.length).toBeGreaterThan(0);

  const same = await request.get('/v1/artworks?page=1', { headers: { 'if-none-match': headers.etag! } });
  expect(same.status()).toBe(304);
  expect(await same.body()).toHaveLength(0);
  const head = await request.head('/v1/artworks?page=1');
  expect(head.status()).toBe(200);
  expect(head.headers().etag).toBe(headers.etag);
});

test('/v1 refusals: the contract body and status, whatever the path', async ({ request }) => {
  const badPage = await request.get('/v1/artworks?page=0');
  expect(badPage.status()).toBe(400);
  expect(await badPage.json()).toMatchObject({ error: { code: 'invalid_input', message: expect.any(String) } });
  const wrongMethod = await request.delete('/v1/artworks');
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers().allow).toContain('GET');
  expect((await wrongMethod.json()).error.code).toBe('method_not_allowed');
  const tooLarge = await request.post('/v1/orders', { headers: { 'content-type': 'application/json' }, data: Buffer.from(`{"pad":"${'x'.repeat(70 * 1024)}"}`) });
  expect(tooLarge.status()).toBe(413);
  expect((await tooLarge.json()).error.code).toBe('payload_too_large');
});

/** Collects what the page's policy blocked. */
async function watchPolicy(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __blocked: string[] }).__blocked = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`));
  });
  return () => page.evaluate(() => (window as unknown as { __blocked: string[] }).__blocked);
}

for (const [path, cached] of [
  ['/en', true],
  ['/ja/artworks/the-starry-night', true],
  ['/de/artworks?q=nacht', false],
] as const) {
  test(`${path}: rendered, hydrated under its policy with nothing blocked, with the headers every page carries`, async ({ page }) => {
    const blocked = await watchPolicy(page);
    await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
    const answer = await page.goto(path);
    expect(answer!.status()).toBe(200);
    const headers = answer!.headers();
    const scripts = /script-src [^;]*/.exec(headers['content-security-policy'] ?? '')?.[0] ?? '';
    expect(scripts).toMatch(cached && !development ? /^script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+$/ : /^script-src 'self' 'nonce-[A-Za-z0-9+/]{16,}=*'( 'unsafe-eval')?$/);
    if (!development) expect(scripts).not.toContain('unsafe-eval');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-request-id']).toBeTruthy();
    await page.waitForLoadState('networkidle');
    // Hydrated: the header's search box is React's, and takes a query.
    const search = page.getByRole('banner').getByRole('combobox').first();
    await search.fill('starry');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/artworks\?q=starry/);
    expect(await blocked()).toEqual([]);
  });
}
