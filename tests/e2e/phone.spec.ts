import { existsSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * Phone first (issue 17, item 5): a 360 px touch screen. Every section one tap away, the grid's
 * results before its filters, the price and the order button always in reach, touch wording,
 * Japanese names kept whole, and a heart on every card.
 */
const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

test.use({ viewport: { width: 360, height: 780 }, hasTouch: true, isMobile: true });

test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

const locales = ['en', 'de', 'fr', 'es', 'it', 'ja', 'vi'] as const;
const pages = ['', '/artworks', '/artworks/wheatfield-with-crows', '/custom', '/artists', '/museums', '/favorites', '/orders'];

/** How far the page reaches past the screen's right edge (0 when nothing makes it scroll sideways). */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('every page fits a 360 px screen in every language, nothing scrolling sideways', async ({ page }) => {
  test.setTimeout(180_000);
  const overflowing: string[] = [];
  for (const locale of locales) {
    for (const path of pages) {
      await page.goto(`/${locale}${path}`);
      const overflow = await sidewaysOverflow(page);
      if (overflow > 0) overflowing.push(`/${locale}${path}: ${overflow} px`);
    }
  }
  expect(overflowing).toEqual([]);
});

test('the menu lists every section, and closes once the shopper has moved on', async ({ page }) => {
  await page.goto('/en/artworks');
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = page.locator('summary', { hasText: 'Menu' });
  await expect(menu).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Custom painting' })).toBeHidden();
  // Favorites stay beside it; the order lookup joins the sections.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Favorites' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Your order' })).toBeHidden();

  await menu.click();
  for (const name of ['Artworks', 'Artists', 'Movements', 'Museums', 'Custom painting', 'Your order']) await expect(nav.getByRole('link', { name })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nav.getByRole('link', { name: 'Artists' })).toBeHidden();
  await expect(menu).toBeFocused();

  await menu.click();
  await nav.getByRole('link', { name: 'Custom painting' }).click();
  await expect(page).toHaveURL(/\/en\/custom$/);
  await expect(nav.getByRole('link', { name: 'Artists' })).toBeHidden();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
});

test('the grid shows its results first, the five filters wait behind a button', async ({ page }) => {
  await page.goto('/en/artworks');
  const artist = page.getByLabel('Artist', { exact: true });
  await expect(artist).toBeHidden();
  // The first row of works is on the first screen.
  const firstCard = page.locator('main ul li[data-slug]').first();
  expect((await firstCard.boundingBox())!.y).toBeLessThan(780);

  const filters = page.locator('summary', { hasText: 'Filters' });
  await expect(filters).toHaveText('Filters');
  await filters.click();
  await expect(artist).toBeVisible();
  await artist.selectOption('vincent-van-gogh');
  await page.getByRole('button', { name: 'Show works' }).click();
  await expect(page).toHaveURL(/\/en\/artworks\?artist=vincent-van-gogh$/);
  // One filter on: the button says so, and the chip shows it.
  await expect(filters).toHaveText('Filters (1)');
  await expect(page.getByRole('link', { name: /Remove filter Artist/ })).toBeVisible();
});

test('the artwork page keeps the price and the order button in reach, and says "tap"', async ({ page }) => {
  await page.goto('/en/artworks/the-starry-night');
  await expect(page.getByRole('button', { name: 'Tap to zoom: The Starry Night' })).toBeVisible();

  const bar = page.getByTestId('order-bar');
  await expect(bar).toBeVisible();
  // The bar's price is the form's, and follows the choice.
  const price = page.getByTestId('order-price');
  await expect(bar).toContainText((await price.textContent())!);
  await page.getByTestId('size-90x120').click();
  await expect(bar).toContainText('120 × 90 cm'); // a landscape painting, a landscape canvas
  await expect(bar).toContainText((await price.textContent())!);

  // Its button leads through the form, never submitting it empty: first to the sizes and finishes
  // (the shopper came from the top of the page), then to the first field to fill, with no error shown.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.reload();
  await bar.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByTestId('size-90x120')).toBeInViewport();
  await expect(page.getByLabel('Full name')).not.toBeFocused();
  await bar.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByLabel('Full name')).toBeFocused();
  await expect(page.getByLabel('Full name')).toBeInViewport();
  await expect(page.getByRole('alert').filter({ hasText: 'Please check the highlighted fields.' })).toHaveCount(0);
  await expect(page.locator('[aria-invalid="true"]')).toHaveCount(0);
  // Once the shopper has begun, it submits the same form, which names what is missing.
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await bar.getByRole('button', { name: 'Order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please check the highlighted fields.' })).toBeVisible();
  await expect(page.getByLabel('E-mail')).toBeFocused();

  // With the form's own button on screen, the bar steps aside: one order button at a time.
  await page.getByRole('button', { name: /^Order and pay/ }).scrollIntoViewIfNeeded();
  await expect(bar).toBeHidden();
});

test("the order form starts with the country of the page's language", async ({ page }) => {
  for (const [locale, country] of [
    ['en', 'US'],
    ['de', 'DE'],
    ['ja', 'JP'],
  ] as const) {
    await page.goto(`/${locale}/artworks/the-starry-night`);
    await expect(page.locator('select[name="country"]')).toHaveValue(country);
  }
});

test('the custom painting page keeps its total in reach; ordering without a photo goes to the photo', async ({ page }) => {
  await page.goto('/en/custom');
  const bar = page.getByTestId('order-bar');
  await expect(bar).toBeVisible();
  await expect(bar).toContainText((await page.getByTestId('custom-total').textContent())!);
  // Without a photo the bar goes back to the photo, however often it is pressed, and says nothing is wrong yet.
  for (let press = 0; press < 2; press++) {
    await bar.getByRole('button', { name: 'Order' }).click();
    await expect(page.locator('section[aria-labelledby$="-photo-title"] h2')).toBeInViewport();
  }
  await expect(page.getByText('Please add a photo first: it is what we paint from.')).toHaveCount(0);
});

test('every card of the grid has its heart', async ({ page }) => {
  await page.goto('/en/artworks');
  const cards = page.locator('main ul li[data-slug]');
  const count = await cards.count();
  expect(count).toBeGreaterThan(20);
  await expect(page.locator('main ul li[data-slug] button[aria-pressed]')).toHaveCount(count);
  const title = (await cards.first().locator('a').first().innerText()).trim();
  await page.getByRole('button', { name: `Add ${title} to favorites` }).click();
  await expect(page.getByRole('button', { name: `Remove ${title} from favorites` })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('banner').getByRole('link', { name: /Favorites.*1/ })).toBeVisible();
});

/**
 * Where the text of each element breaks into lines, as "before|after": a break inside a word has
 * letters on both sides. Each character's box is measured; a lower one starts a line.
 */
const lineBreaks = (elements: Locator) =>
  elements.evaluateAll((spans) =>
    spans.flatMap((span) => {
      const text = span.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      const value = text.textContent ?? '';
      const range = document.createRange();
      const topOf = (i: number) => {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        return range.getBoundingClientRect().top;
      };
      const found: string[] = [];
      for (let i = 1; i < value.length; i++) if (topOf(i) > topOf(i - 1) + 2) found.push(`${value.slice(0, i)}|${value.slice(i)}`);
      return found;
    }),
  );

test('Japanese names break only between their words', async ({ page }) => {
  await page.goto('/ja/artists');
  const breaks = await lineBreaks(page.locator('main li[data-slug] a > span'));
  expect(breaks.length).toBeGreaterThan(0); // at 360 px some names take two lines
  // Allowed: after a middle dot, an equals sign or a space, or before a bracket ("ピーテル・ブリューゲル|（父）").
  const inWord = breaks.filter((at) => !/[・＝=\s]\||\|[（(]/.test(at));
  expect(inWord).toEqual([]);
});

test("the custom painting's style names break only where a hyphen goes, in every language", async ({ page }) => {
  const inWord: string[] = [];
  for (const locale of locales) {
    await page.goto(`/${locale}/custom`);
    const breaks = await lineBreaks(page.locator('label:has(> input[name="style"]) > span:first-of-type'));
    // Allowed: after a space, or at a soft hyphen, where the browser draws a hyphen. Chromium puts
    // the letter after a soft hyphen it broke at on the first line's box, so the break is seen one
    // letter later ("Impres\u00ads|ionist" is drawn "Impres-" over "sionist").
    inWord.push(...breaks.filter((at) => !/(\s|\u00ad.)\|/.test(at)).map((at) => `${locale}: ${at}`));
  }
  expect(inWord).toEqual([]);
});
