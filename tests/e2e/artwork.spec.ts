import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const chromium = '/usr/bin/chromium';
const screenshots = path.join('tests', 'e2e', 'screenshots');

test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

// Commons is never reached from a test: the /images route draws its placeholder, as it does offline.
test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

const slug = 'the-starry-night';
const email = 'grace@example.com';

interface PriceTable {
  reproduction: Record<string, Record<string, number>>;
}

/** Full page: the viewport is grown to the page's height first, so lazy images below the fold load too. */
async function screenshotAt(page: Page, name: string, width: number) {
  mkdirSync(screenshots, { recursive: true });
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await page.evaluate(() => document.fonts.ready);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15_000 });
  await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
}

/** The zoom viewer fills the screen: a viewport-sized shot once its 1920 px image has arrived. */
async function viewerShot(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  await page.waitForFunction(() => Array.from(document.querySelectorAll('dialog img')).every((img) => (img as HTMLImageElement).complete), undefined, {
    timeout: 15_000,
  });
  await page.screenshot({ path: path.join(screenshots, name) });
}

/** React says so in the console when the server's HTML and the first client render differ. */
function watchHydration(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|#418|#423|#425/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

const usd = (cents: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: cents % 100 ? 2 : 0 }).format(
    cents / 100,
  );

test.describe('the artwork page', () => {
  test('is server-rendered with the painting, its facts, browse links and structured data', async ({ page, request }) => {
    // The first paint already has the content: no client fetch is needed for the title, facts or prices.
    const first = await request.get(`/en/artworks/${slug}`);
    const html = await first.text();
    expect(html).toContain('The Starry Night');
    expect(html).toContain('data-testid="order-price"');
    // Rendered once, then served from Next's cache (revalidate = 300).
    const again = await request.get(`/en/artworks/${slug}`);
    expect(again.headers()['x-nextjs-cache'] ?? again.headers()['cache-control']).toMatch(/HIT|STALE|s-maxage=300/);

    const problems = watchHydration(page);
    await page.goto(`/en/artworks/${slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The Starry Night');
    await expect(page.getByRole('link', { name: 'Vincent van Gogh' }).first()).toBeVisible();
    await expect(page.getByText('92.1 × 73.7 cm')).toBeVisible();
    const facts = page.getByRole('region', { name: 'About the painting' }).locator('dl');
    await expect(facts.getByRole('link').nth(1)).toHaveAttribute('href', /\/en\/(museums|movements|genres)\//);
    // No dead ends: the Museum of Modern Art and the night-sky subject have fewer than 3 published works,
    // so no browse page; they are named without a link. Post-Impressionism (5 works) is a link.
    await expect(facts).toContainText('Museum of Modern Art');
    await expect(facts.getByRole('link', { name: 'Museum of Modern Art' })).toHaveCount(0);
    await expect(facts.getByRole('link', { name: 'Night sky' })).toHaveCount(0);
    await expect(facts.getByRole('link', { name: 'Post-Impressionism' })).toHaveAttribute('href', '/en/movements/post-impressionism');
    await expect(page.getByRole('list', { name: 'Related works' }).getByRole('listitem').first()).toBeVisible();

    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const data = blocks.flatMap((text) => [JSON.parse(text)].flat()) as Record<string, unknown>[];
    const artwork = data.find((d) => d['@type'] === 'VisualArtwork');
    const product = data.find((d) => d['@type'] === 'Product') as { offers: Record<string, string> } | undefined;
    expect(artwork?.name).toBe('The Starry Night');
    // Every size and finish the page offers, from the rolled 30×40 to the framed 90×120, with shipping and returns.
    expect(product?.offers).toMatchObject({
      '@type': 'AggregateOffer',
      lowPrice: '129.00',
      highPrice: '688.00',
      offerCount: 12,
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
    });
    expect(product?.offers).toHaveProperty('shippingDetails.shippingRate.value', 0);
    expect(product?.offers).toHaveProperty('hasMerchantReturnPolicy.merchantReturnLink', expect.stringMatching(/\/en\/returns$/));
    expect(data.some((d) => d['@type'] === 'BreadcrumbList')).toBe(true);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/en/artworks/${slug}$`));

    await screenshotAt(page, 'artwork', 390);
    await screenshotAt(page, 'artwork', 1280);
    expect(problems).toEqual([]);
  });

  test('fits a 360 px phone without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(`/en/artworks/${slug}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('opens the zoom viewer from a click or the keyboard, zooms, and closes with Esc', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/en/artworks/${slug}`);
    const opener = page.getByRole('button', { name: 'Click to zoom: The Starry Night' });
    await opener.click();
    const viewer = page.getByRole('dialog', { name: 'The Starry Night, enlarged' });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator('img')).toHaveAttribute('src', /w=1920/);
    await page.keyboard.press('+');
    await expect(viewer.locator('output')).toHaveText('140%');
    await page.keyboard.press('0');
    await expect(viewer.locator('output')).toHaveText('100%');
    await viewerShot(page, 'zoom-viewer-1280.png');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(opener).toBeFocused();

    await page.keyboard.press('Enter');
    await expect(viewer).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await viewerShot(page, 'zoom-viewer-390.png');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
  });

  test('orders a reproduction: live price from the server’s table, inline validation, then the order page', async ({ page, request }) => {
    const table = (await (await request.get('/v1/pricing')).json()) as PriceTable;
    await page.goto(`/en/artworks/${slug}`);
    const price = page.getByTestId('order-price');
    // The default choice, then another size and frame: the price follows the server's table.
    await expect(price).toHaveAttribute('data-cents', String(table.reproduction['50x70']!.stretched));
    await page.locator('input[name="order-size"][value="90x120"]').check();
    await page.locator('input[name="order-frame"][value="framed"]').check();
    const total = table.reproduction['90x120']!.framed!;
    await expect(price).toHaveAttribute('data-cents', String(total));
    await expect(price).toHaveText(usd(total));
    await page.locator('input[name="order-frame"][value="rolled"]').check();
    await expect(price).toHaveText(usd(table.reproduction['90x120']!.rolled!));
    await page.locator('input[name="order-frame"][value="framed"]').check();

    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill('grace@');
    await page.getByLabel('Street address').fill('1 Navy Yard');
    await expect(page.getByText('Please enter a valid e-mail address, like name@example.com.')).toBeVisible();
    await page.getByLabel('City').fill('Arlington');
    await page.getByLabel('Postal code').fill('22202');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('Notes for the studio').fill('Please keep the cypress dark.');

    await page.getByRole('button', { name: /^Order and pay/ }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Please check the highlighted fields.' })).toBeVisible();
    await expect(page.getByLabel('E-mail')).toBeFocused();
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('E-mail').fill(email);
    await expect(page.getByText('Please enter a valid e-mail address, like name@example.com.')).toBeHidden();
    await page.getByRole('button', { name: `Order and pay by transfer · ${usd(total)}` }).click();

    // No payment provider in the e-2-e server: the order is taken and the browser goes to its page.
    await page.waitForURL(/\/en\/orders\/[0-9A-Z]+\?placed=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(new URL(page.url()).pathname.split('/').pop()!);
    const code = new URL(page.url()).pathname.split('/').pop()!;
    expect(await page.evaluate((key) => sessionStorage.getItem(key), `atelier:order-email:${code}`)).toBe(email);

    const answer = await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`);
    expect(answer.status()).toBe(200);
    const { order } = (await answer.json()) as { order: Record<string, unknown> };
    expect(order).toMatchObject({ code, kind: 'reproduction', artworkSlug: slug, size: '90x120', frame: 'framed', total, status: 'pending' });
  });

  test('shows how a wide work sits on each canvas, and the order carries the shopper’s choice', async ({ page, request }) => {
    // Wheatfield with Crows, 103 × 50.5 cm: about 2 : 1, on canvases of 4 : 3 to 3 : 2.
    await page.goto('/en/artworks/wheatfield-with-crows');
    const sizes = ['30x40', '50x70', '60x90', '90x120'].map((size) => page.getByTestId(`size-${size}`));
    // Whole (the default): each size draws the canvas with the work in it, and says how much is added.
    for (const size of sizes) {
      await expect(size.locator('[data-fit="whole"]')).toBeVisible();
      await expect(size).toContainText(/\d+% of the canvas is extended background/);
    }
    const wall = page.getByTestId('wall-canvas');
    await expect(wall.locator('img')).toHaveCount(2); // the work, over its own colours as the extended background
    await expect(sizes[1]!).toContainText('70 × 50 cm');

    // Crop: the whole work with the canvas's crop lines, the share cut off, and the wall shows the canvas filled.
    await page.getByTestId('fit-crop').click();
    for (const size of sizes) {
      await expect(size.locator('[data-fit="crop"]')).toBeVisible();
      await expect(size).toContainText(/\d+% of the painting is cropped/);
    }
    await expect(wall.locator('img')).toHaveCount(1);
    // 70 × 50 against 103 × 50.5: 1 − 1.4 / 2.04 ≈ 31 % either way.
    await expect(sizes[1]!).toContainText('31% of the painting is cropped');

    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Street address').fill('1 Navy Yard');
    await page.getByLabel('City').fill('Arlington');
    await page.getByLabel('Postal code').fill('22202');
    await page.getByLabel('Country').selectOption('US');
    await page.getByRole('button', { name: /^Order and pay/ }).click();
    await page.waitForURL(/\/en\/orders\/[0-9A-Z]+\?placed=1$/);
    const code = new URL(page.url()).pathname.split('/').pop()!;
    const { order } = (await (await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`)).json()) as { order: Record<string, unknown> };
    expect(order).toMatchObject({ artworkSlug: 'wheatfield-with-crows', size: '50x70', orientation: 'landscape', fit: 'crop' });
  });

  test('speaks Japanese, with no message key left untranslated', async ({ page }) => {
    await page.goto(`/ja/artworks/${slug}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('星月夜');
    await expect(page.getByRole('heading', { name: '手描きの複製画を注文する' })).toBeVisible();
    const text = await page.locator('body').innerText();
    // A string missing from messages/ja.json would show as ⟦Namespace.key⟧ (src/i18n/request.ts).
    expect(text).not.toContain('⟦');
    await screenshotAt(page, 'artwork-ja', 390);
  });

  test('says what arrives and shows each finish, in German and Japanese on a phone and a desktop', async ({ page }) => {
    const expected = {
      de: { title: 'Was Sie erhalten', painter: 'Wer es malt', shipping: 'Versand und Lieferung', finishes: ['Gerollte Leinwand', 'Auf Keilrahmen', 'Gerahmt'] },
      ja: { title: 'お届けするもの', painter: '描く人', shipping: '配送とお届け', finishes: ['キャンバスのみ（巻き）', '木枠張り', '額装'] },
    } as const;
    for (const [locale, words] of Object.entries(expected)) {
      await page.goto(`/${locale}/artworks/${slug}`);
      const receive = page.getByRole('region', { name: words.title });
      // Who paints it, canvas, paint, varnish, stretcher and frame, hanging, packing: each a term and its description.
      await expect(receive.locator('dt')).toHaveCount(7);
      await expect(receive.locator('dt').first()).toHaveText(words.painter);
      for (const description of await receive.locator('dd').allInnerTexts()) expect(description.length).toBeGreaterThan(20);
      await expect(receive.getByRole('link', { name: words.shipping })).toHaveAttribute('href', `/${locale}/shipping`);
      // Each finish carries its picture, drawn beside its name; the name alone is what a screen reader hears.
      const finishes = page.locator('[data-kind="frame"] label');
      await expect(finishes).toHaveCount(3);
      for (const [i, name] of words.finishes.entries()) {
        await expect(finishes.nth(i).locator('svg[aria-hidden="true"]')).toHaveCount(1);
        await expect(finishes.nth(i).getByRole('radio', { name: new RegExp(`^${name}`) })).toHaveCount(1);
      }
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        mkdirSync(screenshots, { recursive: true });
        await page.locator('[data-kind="frame"]').screenshot({ path: path.join(screenshots, `finishes-${locale}-${width}.png`) });
        await receive.screenshot({ path: path.join(screenshots, `receive-${locale}-${width}.png`) });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
  });

  test('an unknown artwork is the localized 404', async ({ page }) => {
    const response = await page.goto('/fr/artworks/no-such-painting');
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });
});
