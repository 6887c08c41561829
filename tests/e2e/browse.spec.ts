import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { shoot } from './support/screenshots';

const chromium = '/usr/bin/chromium';
const screenshots = path.join('tests', 'e2e', 'screenshots');

test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

// Commons is never reached from a test; our /images route draws a placeholder when it cannot be.
test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

/** Saves the page at a phone and a desktop width (tests/e2e/screenshots/<name>-<width>.png), checking nothing spills sideways. */
async function screenshotsOf(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  const url = page.url();
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(url);
    await page.evaluate(() => document.fonts.ready);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} overflows sideways at ${width} px`).toBeLessThanOrEqual(0);
    // A viewport as tall as the page brings every lazy image in before the picture is taken.
    const full = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width, height: full });
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 30_000 });
    await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
}

const cards = (page: Page, within = 'main') => page.locator(`${within} li[data-slug]`);

test.describe('browsing the catalog', () => {
  test('home → artworks grid → a German search → a movement filter, the query kept in every link', async ({ page }) => {
    await page.goto('/de');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Handgemalte Reproduktionen');
    // The home page's rows: featured works, movements and museums, and the custom painting teaser.
    expect(await cards(page, '#featured').count()).toBeGreaterThanOrEqual(6);
    await expect(page.locator('#movements li[data-slug]').first()).toBeVisible();
    await expect(page.locator('#museums li[data-slug]').first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Gemälde in Auftrag geben' })).toHaveAttribute('href', '/de/custom');

    await page.getByRole('link', { name: 'Alle Werke' }).click();
    await expect(page).toHaveURL(/\/de\/artworks$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Werke');
    await expect(page.locator('#grid-summary')).toHaveText('31 Werke');
    expect(await cards(page).count()).toBe(31);

    // Search in German from the home page's search box (a GET form: it needs no JavaScript).
    await page.goto('/de');
    await page.getByLabel('Ein Gemälde finden').fill('Sternennacht');
    await page.getByLabel('Ein Gemälde finden').press('Enter');
    await expect(page).toHaveURL(/\/de\/artworks\?q=Sternennacht$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ergebnisse für „Sternennacht“');
    await expect(cards(page).first()).toHaveAttribute('data-slug', 'the-starry-night');
    await expect(cards(page).first()).toContainText('Die Sternennacht');

    // Widen the search, then narrow it by a movement with the grid's own form.
    await page.getByLabel('Titel und Künstler suchen').fill('nacht');
    await page.getByLabel('Stilrichtung', { exact: true }).selectOption('post-impressionism');
    await page.getByRole('button', { name: 'Werke zeigen' }).click();
    await expect(page).toHaveURL(/\/de\/artworks\?q=nacht&movement=post-impressionism$/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toHaveAttribute('data-slug', 'the-starry-night');
    await expect(page.locator('#grid-summary')).toHaveText('1 Werk für „nacht“');

    // The active filter is a chip that removes itself and keeps the words.
    const chip = page.getByRole('link', { name: 'Filter Stilrichtung entfernen: Postimpressionismus' });
    await expect(chip).toHaveAttribute('href', '/de/artworks?q=nacht');
    await chip.click();
    await expect(page).toHaveURL(/\/de\/artworks\?q=nacht$/);
    expect(await cards(page).count()).toBeGreaterThanOrEqual(2); // Die Sternennacht, Die Nachtwache

    // A filter alone, without JavaScript's help: the plain GET form also works (empty fields in the address).
    await page.goto('/de/artworks?q=&artist=&movement=post-impressionism&museum=&genre=&subject=');
    await expect(page.locator('#grid-summary')).toHaveText('5 Werke');
    await expect(page.getByLabel('Stilrichtung', { exact: true })).toHaveValue('post-impressionism');

    // Page links keep the whole query. The seed (31 works) fills one page of 48, so ask for the
    // second page of a search: it leads back to the first page with the query intact.
    await page.goto('/de/artworks?q=nacht&movement=post-impressionism&page=2');
    await expect(page.getByRole('link', { name: 'Zur ersten Seite' })).toHaveAttribute('href', '/de/artworks?q=nacht&movement=post-impressionism');

    await page.goto('/de/artworks?q=Sternennacht');
    await screenshotsOf(page, 'artworks-search');
    await page.goto('/en/artworks');
    await screenshotsOf(page, 'artworks');
  });

  test('a filter form sent before its script ran, empty fields and all, lands on the clean address of the same grid', async ({ page }) => {
    await page.goto('/de/artworks?q=Sternennacht&artist=&movement=&museum=&genre=&subject=');
    await expect(page).toHaveURL(/\/de\/artworks\?q=Sternennacht$/);
    await expect(cards(page).first()).toHaveAttribute('data-slug', 'the-starry-night');
    await page.goto('/en/artworks?q=&artist=&page=');
    await expect(page).toHaveURL(/\/en\/artworks$/);
    expect(await cards(page).count()).toBe(31);
  });

  test('searching finds titles in any language and ranks the exact title first', async ({ page }) => {
    for (const [q, locale] of [
      ['nuit etoilee', 'en'],
      ['starry', 'ja'],
      ['星月夜', 'fr'],
    ] as const) {
      await page.goto(`/${locale}/artworks?q=${encodeURIComponent(q)}`);
      await expect(cards(page).first()).toHaveAttribute('data-slug', 'the-starry-night');
    }
  });

  test('a misspelt search says what it shows instead; a search that found little offers a better one', async ({ page }) => {
    // Nothing matches the typo: the grid shows the mended search's works, and its count names it.
    await page.goto('/de/artworks?q=vermer+delft');
    await expect(page.getByText('Keine Treffer für „vermer delft“. Stattdessen Ergebnisse für „vermeer delft“.')).toBeVisible();
    await expect(page.locator('#grid-summary')).toHaveText('2 Werke für „vermeer delft“');
    await expect(cards(page)).toHaveCount(2);
    await expect(cards(page).first()).toHaveAttribute('data-slug', 'view-of-delft');

    // Two works found: they stay, and the painter's name is offered as a link that keeps the language.
    await page.goto('/de/artworks?q=vermeer+delft');
    await expect(page.locator('#grid-summary')).toHaveText('2 Werke für „vermeer delft“');
    await page.getByRole('link', { name: 'Meinten Sie „Jan Vermeer“?' }).click();
    await expect(page).toHaveURL(/\/de\/artworks\?q=Jan(\+|%20)Vermeer$/);
    await expect(cards(page)).toHaveCount(4);
  });

  test('a search or filter that finds nothing is a calm, helpful empty result, never an error', async ({ page }) => {
    const unknown = await page.goto('/en/artworks?museum=no-such-museum');
    expect(unknown?.status()).toBe(200);
    await expect(page.getByRole('status')).toContainText('No painting matches these filters');
    await expect(page.getByRole('link', { name: 'Clear all filters' })).toHaveAttribute('href', '/en/artworks');
    await expect(page.getByRole('link', { name: 'Remove filter Museum: no-such-museum' })).toBeVisible();

    await page.goto('/en/artworks?q=zzqxj&movement=realism');
    await expect(page.getByRole('status')).toContainText('Nothing found for “zzqxj”');
    await expect(page.getByRole('link', { name: 'Search “zzqxj” in all works' })).toHaveAttribute('href', '/en/artworks?q=zzqxj');
    await expect(page.getByRole('link', { name: 'Keep the filters, clear the search' })).toHaveAttribute('href', '/en/artworks?movement=realism');

    // Hand-edited addresses: a malformed page number, an overlong slug, a NUL character.
    for (const query of ['page=abc', `artist=${'x'.repeat(300)}`, 'q=%00', `q=${'a'.repeat(400)}`]) {
      const response = await page.goto(`/en/artworks?${query}`);
      expect(response?.status(), query).toBe(200);
    }
    await page.goto('/en/artworks?q=zzqxj');
    await screenshotsOf(page, 'artworks-empty');
  });

  test('a search that finds nothing offers a way on: the painter, near works, and a custom painting with the words carried over', async ({ page }) => {
    // German: nothing is called "Sonnenblumen" in the catalog; a custom painting is offered, with the word.
    await page.goto('/de/artworks?q=Sonnenblumen');
    await expect(page.getByText('Keine Treffer für „Sonnenblumen“')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Wir malen jedes Bild' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Gemälde, die unsere Kunden lieben' })).toBeVisible();
    expect(await page.locator('main li[data-slug]').count()).toBeGreaterThan(3);
    await shoot(page, 'search-way-on-de');
    await page.getByRole('link', { name: 'Gemälde in Auftrag geben' }).click();
    await expect(page).toHaveURL(/\/de\/custom\?idea=Sonnenblumen$/);
    await expect(page.getByRole('textbox', { name: /Hinweise/ })).toHaveValue('Aus meiner Suche: „Sonnenblumen“');

    // A painter's name among the words: his page, and his works as the near ones.
    await page.goto('/en/artworks?q=gogh+sunflwers');
    await expect(page.getByText('Nothing found for “gogh sunflwers”')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Painters whose name is close' }).getByRole('link', { name: 'Vincent van Gogh' })).toHaveAttribute(
      'href',
      '/en/artists/vincent-van-gogh',
    );
    await expect(page.getByRole('heading', { name: 'Paintings near your search' })).toBeVisible();
    await expect(page.locator('main li[data-slug="the-starry-night"]')).toBeVisible();

    // Japanese: the usual spelling without the middle dot finds the Mona Lisa; what is not there offers a painting.
    await page.goto(`/ja/artworks?q=${encodeURIComponent('モナリザ')}`);
    await expect(page.locator('main li[data-slug="mona-lisa"]')).toBeVisible();
    await page.goto(`/ja/artworks?q=${encodeURIComponent('ひまわり')}`);
    await expect(page.getByRole('heading', { name: 'どんな絵でもお描きします' })).toBeVisible();
    await shoot(page, 'search-way-on-ja');
    await page.getByRole('link', { name: 'オーダーメイド絵画を始める' }).click();
    await expect(page.getByRole('textbox', { name: /画家へのご要望/ })).toHaveValue('検索した言葉：「ひまわり」');

    // A correction names the work as the page does: the German title typed on an English page.
    await page.goto('/en/artworks?q=Sternenacht');
    await expect(page.getByText('Nothing matches “Sternenacht”. Showing results for “The Starry Night”.')).toBeVisible();
  });

  test('the showcase page: linked from the footer, the home page and the consent box, in the page language', async ({ page }) => {
    for (const [locale, title] of [
      ['de', 'In unserem Atelier gemalt'],
      ['ja', null],
    ] as const) {
      const response = await page.goto(`/${locale}/showcase`);
      expect(response?.status()).toBe(200);
      const heading = page.getByRole('heading', { level: 1 });
      if (title) await expect(heading).toHaveText(title);
      // Finished paintings staff chose to show, or, before any, the ways to have one painted.
      await expect(page.locator('[data-testid="showcase-gallery"], main [role="status"]').first()).toBeVisible();
      await expect(page.locator(`footer nav a[href="/${locale}/showcase"]`)).toHaveCount(1);
      await shoot(page, `showcase-${locale}`);
    }
    await page.goto('/de/artworks/the-starry-night');
    await page.getByRole('link', { name: 'Galerie' }).click();
    await expect(page).toHaveURL(/\/de\/showcase$/);
  });

  test('artists index → artist page with life years, movements, works and Person data', async ({ page }) => {
    await page.goto('/en/artists');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Artists');
    expect(await cards(page).count()).toBe(14);
    const gogh = page.locator('li[data-slug="vincent-van-gogh"]');
    await expect(gogh).toContainText('1853–1890');
    await expect(gogh).toContainText('5 works');
    await screenshotsOf(page, 'artists');

    await page.goto('/en/artists');
    await gogh.getByRole('link', { name: 'Vincent van Gogh' }).click();
    await expect(page).toHaveURL(/\/en\/artists\/vincent-van-gogh$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Vincent van Gogh');
    await expect(page.getByRole('main')).toContainText('1853–1890');
    await expect(page.getByRole('main')).toContainText('Dutch painter');
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Artists' })).toHaveAttribute('href', '/en/artists');
    await expect(page.getByRole('link', { name: 'Post-Impressionism' }).first()).toHaveAttribute('href', '/en/movements/post-impressionism');
    await expect(cards(page)).toHaveCount(5);
    await expect(page.getByRole('link', { name: 'Filter these works' })).toHaveAttribute('href', '/en/artworks?artist=vincent-van-gogh');

    const data = await page.locator('script[type="application/ld+json"]').allTextContents();
    const person = data.map((text) => JSON.parse(text) as Record<string, unknown>).find((item) => item['@type'] === 'Person');
    expect(person).toMatchObject({ name: 'Vincent van Gogh', birthDate: '1853', deathDate: '1890' });
    // The artist's cover is one of his paintings, so it is no portrait of him.
    expect(person).not.toHaveProperty('image');
    expect(data.some((text) => text.includes('BreadcrumbList'))).toBe(true);

    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/en\/artists\/vincent-van-gogh$/);
    await expect(page.locator('link[rel="alternate"][hreflang="ja"]')).toHaveAttribute('href', /\/ja\/artists\/vincent-van-gogh$/);
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', /\/en\/artists\/vincent-van-gogh$/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/images\/.+\?w=1280$/);
    await screenshotsOf(page, 'artist');
  });

  test('browse index → browse page with its works and top artists', async ({ page }) => {
    await page.goto('/en/museums');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Museums');
    // Only pages with at least 3 works are listed.
    await expect(page.locator('li[data-slug="rijksmuseum"]')).toContainText('4 works');
    await expect(page.locator('li[data-slug="van-gogh-museum"]')).toHaveCount(0);
    await screenshotsOf(page, 'browse-index');

    await page.goto('/en/museums');
    await page.locator('li[data-slug="rijksmuseum"]').getByRole('link').click();
    await expect(page).toHaveURL(/\/en\/museums\/rijksmuseum$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rijksmuseum');
    await expect(cards(page)).toHaveCount(4);
    await expect(page.getByRole('list', { name: 'Artists here' }).getByRole('link', { name: /Johannes Vermeer/ })).toHaveAttribute('href', '/en/artists/johannes-vermeer');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Museums' })).toHaveAttribute('href', '/en/museums');
    await expect(page.getByRole('link', { name: 'Filter these works' })).toHaveAttribute('href', '/en/artworks?museum=rijksmuseum');
    const data = await page.locator('script[type="application/ld+json"]').allTextContents();
    expect(data.some((text) => text.includes('"CollectionPage"'))).toBe(true);
    await expect(page).toHaveTitle(/Rijksmuseum/);
    await screenshotsOf(page, 'browse-page');

    // Every kind has its index; movements and genres link on.
    for (const kind of ['movements', 'subjects', 'genres']) {
      const response = await page.goto(`/fr/${kind}`);
      expect(response?.status(), kind).toBe(200);
    }
    await page.goto('/de/movements/post-impressionism');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Postimpressionismus');
  });

  test('an unknown kind, artist or browse page is the 404 page in the visitor’s language', async ({ page }) => {
    const kind = await page.goto('/de/paintings');
    expect(kind?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    const german = await page.getByRole('heading', { level: 1 }).textContent();
    expect(german).not.toBe('We could not find this page');

    const artist = await page.goto('/ja/artists/no-such-painter');
    expect(artist?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('お探しのページが見つかりません');

    const taxon = await page.goto('/fr/museums/no-such-museum');
    expect(taxon?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

    // A museum with fewer than 3 works has no page.
    const small = await page.goto('/en/museums/van-gogh-museum');
    expect(small?.status()).toBe(404);
  });

  test('the home page at phone and desktop widths, in English and Japanese', async ({ page }) => {
    await page.goto('/en');
    await screenshotsOf(page, 'home');
    await page.goto('/ja');
    await expect(page.getByRole('heading', { level: 2, name: '注目の作品' })).toBeVisible();
    await screenshotsOf(page, 'home-ja');
  });
});
