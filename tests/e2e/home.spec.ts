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
    await expect(switcher.getByRole('link', { name: '日本語' })).toHaveAttribute('href', '/ja/some/where');
    await expect(switcher.getByRole('link', { name: 'Français' })).toHaveAttribute('aria-current', 'page');
  });
});

test.describe('home page', () => {
  test('/en shows the shop name, the promise and at least 6 featured works', async ({ page }) => {
    const response = await page.goto('/en');
    expect(response?.status()).toBe(200);
    await expect(page.locator('.brand')).toHaveText('Atelier Prints');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Hand-painted reproductions of public-domain masterpieces');
    await expect(page).toHaveTitle('Atelier Prints — hand-painted masterpieces');

    const cards = page.locator('#featured .artwork-card');
    expect(await cards.count()).toBeGreaterThanOrEqual(6);
    for (const card of await cards.all()) {
      await expect(card.locator('.artwork-card__title')).not.toBeEmpty();
      await expect(card.locator('.artwork-card__artist')).not.toBeEmpty();
      await expect(card.locator('.artwork-card__price')).toHaveText('from $129');
    }
    const firstImage = cards.first().locator('img');
    await expect(firstImage).toHaveAttribute('src', /^https:\/\/commons\.wikimedia\.org\/wiki\/Special:FilePath\/.+\?width=600$/);

    // A broken image keeps the card's shape: a 4:5 frame.
    const box = (await cards.first().locator('.artwork-card__frame').boundingBox())!;
    expect(box.height / box.width).toBeCloseTo(1.25, 1);

    await fullPageScreenshot(page, 'home-en.png');
  });

  test('/en carries a canonical link and hreflang alternates for the six catalog languages', async ({ page }) => {
    await page.goto('/en');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en$/);
    const hreflangs = await page.locator('link[rel="alternate"][hreflang]').evaluateAll((links) =>
      links.map((link) => [link.getAttribute('hreflang'), new URL(link.getAttribute('href')!).pathname]),
    );
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
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('注目の作品');
    const titles = await page.locator('#featured .artwork-card__title').allTextContents();
    expect(titles.length).toBeGreaterThanOrEqual(6);
    expect(titles.some((title) => japanese.test(title))).toBe(true);
    await expect(page.locator('.artwork-card__price').first()).toHaveText('$129から');

    await fullPageScreenshot(page, 'home-ja.png');
  });

  test('/vi speaks Vietnamese with English catalog text', async ({ page }) => {
    await page.goto('/vi');
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText('Tác phẩm nổi bật');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/vi$/);
  });

  test('when Commons answers, each painting sits whole on its mat', async ({ page }) => {
    // A stand-in for Commons' thumbnails: portrait and landscape canvases, served locally.
    let served = 0;
    await page.route(/^https:\/\/commons\.wikimedia\.org\//, (route) => {
      const [w, h] = served++ % 3 === 1 ? [600, 420] : [480, 600];
      const hue = (served * 47) % 360;
      const body = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,35%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},40%,70%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
      return route.fulfill({ status: 200, contentType: 'image/svg+xml', body });
    });
    await page.goto('/en');
    const image = page.locator('#featured .artwork-card img').first();
    await expect(image).toHaveJSProperty('complete', true);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await fullPageScreenshot(page, 'home-en-with-images.png');
  });

  test('on a phone the grid and header still fit', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/en');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await fullPageScreenshot(page, 'home-en-mobile.png');
  });
});
