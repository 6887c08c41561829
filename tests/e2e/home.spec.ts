import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const chromium = '/usr/bin/chromium';
const screenshots = path.join('tests', 'e2e', 'screenshots');

// playwright.config.ts has already printed the loud warning; here every test is skipped.
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

// Wikimedia Commons is never reached from a test: images fail exactly as they do offline, so the
// pages must look right with broken images.
test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

const japanese = /[\u3040-\u30ff\u4e00-\u9fff]/;

/** Lets every (lazy) image settle, then saves a full-page screenshot. */
async function fullPageScreenshot(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  const { width } = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15_000 });
  await page.screenshot({ path: path.join(screenshots, name), fullPage: true });
}

test.describe('locale routing', () => {
  test('/ answers 302 to /en when the browser asks for no language we have', async ({ request }) => {
    const response = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': 'pt-BR,pt;q=0.9' } });
    expect(response.status()).toBe(302);
    expect(new URL(response.headers()['location']!, 'http://x').pathname).toBe('/en');
  });

  test('/ answers 302 to the best language from Accept-Language', async ({ request }) => {
    const response = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': 'ja-JP,ja;q=0.9,en;q=0.5' } });
    expect(response.status()).toBe(302);
    expect(new URL(response.headers()['location']!, 'http://x').pathname).toBe('/ja');
  });

  test('a browser opening / lands on /en', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/en$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('an unknown language prefix is a 404 page', async ({ page }) => {
    const response = await page.goto('/xx/');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('We could not find this page');
    await fullPageScreenshot(page, 'not-found-xx.png');
  });

  test('an unknown page inside a language is a localized 404', async ({ page }) => {
    const response = await page.goto('/ja/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('お探しのページが見つかりません');
    await fullPageScreenshot(page, 'not-found-ja.png');
  });

  test('the REST API and static files are left alone by the locale routing', async ({ request }) => {
    const api = await request.get('/v1/openapi.json', { maxRedirects: 0 });
    expect(api.status()).toBe(200);
    expect(api.headers()['content-type']).toContain('json');
    const unknown = await request.get('/v1/no-such-endpoint', { maxRedirects: 0 });
    expect(unknown.status()).toBe(404);
    expect(unknown.headers()['content-type']).toContain('json');
    const icon = await request.get('/favicon.svg', { maxRedirects: 0 });
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toContain('image/svg+xml');
  });

  test('the language switcher keeps the current path', async ({ page }) => {
    await page.goto('/fr/some/where');
    const switcher = page.getByRole('navigation', { name: 'Langue' });
    await switcher.locator('summary').click();
    await expect(switcher.getByRole('link', { name: '日本語' })).toHaveAttribute('href', '/ja/some/where');
    await expect(switcher.getByRole('link', { name: 'Français' })).toHaveAttribute('aria-current', 'page');
  });
});

test.describe('home page', () => {
  test('/en shows the shop name, the promise, a search box and at least 6 featured works', async ({ page }) => {
    const response = await page.goto('/en');
    expect(response?.status()).toBe(200);
    await expect(page.locator('.brand')).toHaveText('Atelier Prints');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Hand-painted reproductions of public-domain masterpieces');
    await expect(page).toHaveTitle('Atelier Prints — hand-painted masterpieces');
    await expect(page.getByRole('searchbox', { name: 'Find a painting' })).toBeVisible();

    const cards = page.locator('#featured li[data-slug]');
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    for (const card of await cards.all()) {
      await expect(card.getByRole('link')).not.toBeEmpty();
      await expect(card).toContainText('from $129');
    }
    // Pictures come through our own /images route, never straight from Commons.
    await expect(cards.first().locator('img')).toHaveAttribute('src', /^\/images\/.+\?w=500$/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/images\/.+\?w=1280$/);

    // Rows of movements and museums with their work counts, and the custom painting teaser.
    await expect(page.locator('#movements li[data-slug="dutch-golden-age"]')).toContainText('7 works');
    await expect(page.locator('#museums li[data-slug]').first()).toContainText(/\d+ works/);
    await expect(page.getByRole('link', { name: 'All museums' })).toHaveAttribute('href', '/en/museums');
    await expect(page.getByRole('link', { name: 'Commission a painting' })).toHaveAttribute('href', '/en/custom');

    // Search engines learn the shop (a demonstration: its name only) and the grid's search.
    const data = (await page.locator('script[type="application/ld+json"]').allTextContents()).flatMap((text) => [JSON.parse(text)].flat()) as Record<string, unknown>[];
    expect(data.find((d) => d['@type'] === 'Organization')).toMatchObject({ name: 'Atelier Prints', hasMerchantReturnPolicy: { merchantReturnDays: 14 } });
    expect(data.find((d) => d['@type'] === 'Organization')).not.toHaveProperty('legalName');
    const search = (data.find((d) => d['@type'] === 'WebSite') as { potentialAction: { target: { urlTemplate: string } } }).potentialAction.target.urlTemplate;
    expect(new URL(search.replace('{search_term_string}', 'sunflowers')).pathname).toBe('/en/artworks');
    await fullPageScreenshot(page, 'home-en.png');
  });

  test('/en carries a canonical link and hreflang alternates for the six catalog languages', async ({ page }) => {
    await page.goto('/en');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en$/);
    const hreflangs = await page
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) => links.map((link) => [link.getAttribute('hreflang'), new URL(link.getAttribute('href')!).pathname]));
    expect(hreflangs).toEqual([
      ['en', '/en'],
      ['es', '/es'],
      ['fr', '/fr'],
      ['de', '/de'],
      ['it', '/it'],
      ['ja', '/ja'],
      ['x-default', '/en'],
    ]);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /favicon\.svg/);
  });

  test('/ja is in Japanese, titles included, with the price written for Japan', async ({ page }) => {
    const response = await page.goto('/ja');
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('パブリックドメインの名画');
    await expect(page.getByRole('heading', { level: 2, name: '注目の作品' })).toBeVisible();
    const titles = await page.locator('#featured li[data-slug] a').allTextContents();
    expect(titles.length).toBeGreaterThanOrEqual(6);
    expect(titles.some((title) => japanese.test(title))).toBe(true);
    await expect(page.locator('#featured li[data-slug]').first()).toContainText('$129から');
    await fullPageScreenshot(page, 'home-ja.png');
  });

  test('/vi speaks Vietnamese with English catalog text', async ({ page }) => {
    await page.goto('/vi');
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
    await expect(page.getByRole('heading', { level: 2, name: 'Tác phẩm nổi bật' })).toBeVisible();
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/vi$/);
  });

  test('on a phone the grid and header still fit', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/en');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await fullPageScreenshot(page, 'home-en-mobile.png');
  });
});
