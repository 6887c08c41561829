import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page, type Request } from '@playwright/test';
import { E2E_SHOPPER } from '../support/e2e-oidc';

/**
 * Favorites kept while signed out, merged into the account at Google sign-in (the whole NextAuth
 * redirect flow against the local OpenID Connect issuer of tests/support/e2e-oidc.ts), seen from a
 * second browser, and left on the server at sign-out.
 */

const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

const screenshots = path.join('tests', 'e2e', 'screenshots');
const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;
const LOCAL_KEY = 'atelier-prints.favorites';

interface Work {
  slug: string;
  title: string;
}

// The steps build on each other: one signed-out browser, then sign-in, then a second browser.
test.describe.configure({ mode: 'serial' });

/** Lets every image settle, then saves the page at both widths as <name>-<width>.png. */
async function screenshotsOf(page: Page, name: string, prepare?: (page: Page) => Promise<void>) {
  mkdirSync(screenshots, { recursive: true });
  const before = page.viewportSize();
  for (const size of Object.values(widths)) {
    await page.setViewportSize(size);
    await prepare?.(page);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15_000 });
    await page.screenshot({ path: path.join(screenshots, `${name}-${size.width}.png`), fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${size.width}px overflows sideways`).toBeLessThanOrEqual(0);
  }
  if (before) await page.setViewportSize(before);
}

/** Three published works from the catalog, with their English titles. */
async function someWorks(page: Page): Promise<Work[]> {
  const answer = await page.request.get('/v1/artworks?locale=en');
  expect(answer.status()).toBe(200);
  const { items } = (await answer.json()) as { items: Work[] };
  expect(items.length).toBeGreaterThanOrEqual(3);
  return items.slice(0, 3).map(({ slug, title }) => ({ slug, title }));
}

const localList = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]') as string[], LOCAL_KEY);

/** Favorites a work from its own page with the heart (FavoriteButton on the artwork page). */
async function favoriteOnArtworkPage(page: Page, work: Work) {
  await page.goto(`/en/artworks/${work.slug}`);
  const heart = page.getByRole('button', { name: `Add to favorites: ${work.title}` });
  await expect(heart).toHaveAttribute('aria-pressed', 'false');
  await heart.click();
  await expect(page.getByRole('button', { name: `In your favorites: ${work.title}` })).toHaveAttribute('aria-pressed', 'true');
}

/** Clicks "Sign in" in the header and follows NextAuth's redirect flow through the local issuer back to the same page. */
async function signIn(page: Page) {
  const back = page.url();
  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.href === back, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` })).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.endsWith('next-auth.session-token') && c.httpOnly)).toBe(true);
}

async function accountFavorites(page: Page): Promise<string[]> {
  const answer = await page.request.get('/v1/account/favorites?locale=en');
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { items: Work[] }).items.map((card) => card.slug);
}

const cardTitles = (page: Page) => page.locator('main ul[aria-label="Your favorite paintings"] > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-slug')));

let works: Work[] = [];
let page: Page;

test.describe('favorites', () => {
  test.beforeAll(async ({ browser }: { browser: Browser }) => {
    // Commons is never reached from a test; our /images route draws placeholders anyway.
    page = await (await browser.newContext()).newPage();
    await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
  });
  test.afterAll(async () => {
    await page.context().close();
  });

  test('signed out, the favorites page is empty, says why, offers the artworks and stays out of search engines', async () => {
    const response = await page.goto('/en/favorites');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/Your favorites/);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your favorites' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No favorites yet' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Browse the artworks' })).toHaveAttribute('href', '/en/artworks');
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
    await screenshotsOf(page, 'favorites-empty');
  });

  test('signed out, works favorited on their pages are kept in the browser across reloads and listed newest first', async () => {
    works = await someWorks(page);
    for (const work of works) await favoriteOnArtworkPage(page, work);
    // The heart as the artwork page shows it, pressed and with keyboard focus.
    const pressed = page.getByRole('button', { name: `In your favorites: ${works[2]!.title}` });
    await pressed.focus();
    await pressed.screenshot({ path: path.join(screenshots, 'favorite-button-pressed.png') });
    expect(await localList(page)).toEqual(works.map((w) => w.slug).reverse());

    // Still there after a reload (the last work's page is open).
    await page.reload();
    expect(await localList(page)).toHaveLength(3);
    await expect(page.getByRole('button', { name: `In your favorites: ${works[2]!.title}` })).toHaveAttribute('aria-pressed', 'true');
    const [first] = works;

    await page.goto('/en/favorites');
    await expect(page.getByText('3 paintings')).toBeVisible();
    await expect(page.getByText('Kept in this browser.')).toBeVisible();
    await expect.poll(() => cardTitles(page)).toEqual(works.map((w) => w.slug).reverse());
    await expect(page.getByRole('banner').getByRole('link', { name: /Favorites.*3/ })).toBeVisible();

    // The heart on a card takes it off the list at once; focus moves to the next card's heart.
    await page.getByRole('button', { name: `Remove ${first!.title} from favorites` }).click();
    await expect(page.getByText('2 paintings')).toBeVisible();
    await expect.poll(() => cardTitles(page)).toEqual([works[2]!.slug, works[1]!.slug]);
    await expect(page.locator(':focus')).toHaveAttribute('data-favorite-slug', /.+/);

    await page.reload();
    await expect.poll(() => cardTitles(page)).toEqual([works[2]!.slug, works[1]!.slug]);
    await screenshotsOf(page, 'favorites-filled');
  });

  test('another tab sees a change at once (storage event)', async () => {
    const other = await page.context().newPage();
    await other.goto('/en/favorites');
    await expect(other.getByText('2 paintings')).toBeVisible();
    await page.evaluate(([key, slug]) => localStorage.setItem(key!, JSON.stringify([slug])), [LOCAL_KEY, works[2]!.slug]);
    await expect(other.getByText('1 painting', { exact: true })).toBeVisible();
    await page.evaluate(([key, slugs]) => localStorage.setItem(key!, JSON.stringify(slugs)), [LOCAL_KEY, [works[2]!.slug, works[1]!.slug]] as const);
    await expect(other.getByText('2 paintings')).toBeVisible();
    await other.close();
  });

  test('signing in with Google keeps the favorites: they are merged into the account and leave the browser', async () => {
    await page.goto('/en/favorites');
    await expect(page.getByText('2 paintings')).toBeVisible();
    await signIn(page);
    await expect(page.getByText('Kept in your account, on every device where you sign in.')).toBeVisible();
    await expect.poll(() => localList(page)).toEqual([]);
    const stored = await accountFavorites(page);
    expect(stored).toEqual(expect.arrayContaining([works[2]!.slug, works[1]!.slug]));
    expect(stored).not.toContain(works[0]!.slug);
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining([works[2]!.slug, works[1]!.slug]));

    await page.reload();
    await expect(page.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` })).toBeVisible();
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining([works[2]!.slug, works[1]!.slug]));

    await screenshotsOf(page, 'favorites-signed-in');
    await screenshotsOf(page, 'header-signed-in', async (p) => {
      const menu = p.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` });
      if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
      await expect(p.getByText(`Signed in as ${E2E_SHOPPER.email}`)).toBeVisible();
    });
    // Escape closes the menu and gives focus back to its button.
    await page.keyboard.press('Escape');
    await expect(page.getByText(`Signed in as ${E2E_SHOPPER.email}`)).toBeHidden();
    await expect(page.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` })).toBeFocused();
  });

  test('a second browser signing in as the same shopper sees the same favorites', async ({ browser }) => {
    const second = await browser.newContext();
    await second.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
    const other = await second.newPage();
    await other.goto('/en/favorites');
    await expect(other.getByRole('heading', { name: 'No favorites yet' })).toBeVisible();
    await signIn(other);
    await expect.poll(() => cardTitles(other)).toEqual(expect.arrayContaining([works[2]!.slug, works[1]!.slug]));
    await second.close();
  });

  test('signed in, the heart writes to the account, and a refused write puts it back', async () => {
    const work = works[0]!;
    await favoriteOnArtworkPage(page, work);
    await expect.poll(() => accountFavorites(page)).toContain(work.slug);

    // The server refuses: the heart shows the change at once, then goes back and says so.
    await page.route('**/api/trpc/account.removeFavorite**', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '[]' }));
    await page.getByRole('button', { name: `In your favorites: ${work.title}` }).click();
    await expect(page.getByText('Your favorites could not be updated. Please try again.')).toBeVisible();
    await expect(page.getByRole('button', { name: `In your favorites: ${work.title}` })).toHaveAttribute('aria-pressed', 'true');
    await page.unroute('**/api/trpc/account.removeFavorite**');

    await page.getByRole('button', { name: `In your favorites: ${work.title}` }).click();
    await expect(page.getByRole('button', { name: `Add to favorites: ${work.title}` })).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => accountFavorites(page)).not.toContain(work.slug);
  });

  test("a heart clicked while the account's list is still loading stays as clicked", async () => {
    const work = works[0]!;
    // tRPC batches the page's first reads into one request (the basket's beside the favorites).
    const isList = (url: URL | string) => new URL(String(url)).pathname.split(/[/,]/).includes('account.favorites');
    // The page's first read of the list is answered as the server had it before the click, and
    // handed over only once the write has answered: the order a slow phone can see.
    let held: Request | undefined;
    let listRead!: () => void;
    const reading = new Promise<void>((resolve) => (listRead = resolve));
    const written = page.waitForResponse((response) => response.url().includes('/api/trpc/account.addFavorite'));
    await page.route(isList, async (route) => {
      if (held) return route.continue();
      held = route.request();
      const before = await route.fetch();
      listRead();
      await written;
      await route.fulfill({ response: before }).catch(() => {
        // The page may have dropped the read by now.
      });
    });
    await page.goto(`/en/artworks/${work.slug}`);
    await reading;
    await page.getByRole('button', { name: `Add to favorites: ${work.title}` }).click();
    // The list read again after the write, which holds the work.
    const again = await page.waitForResponse((response) => isList(response.url()) && response.request() !== held, { timeout: 15_000 });
    expect(await again.text()).toContain(work.slug);
    await page.unroute(isList);
    await expect(page.getByRole('button', { name: `In your favorites: ${work.title}` })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('banner').getByRole('link', { name: /^Favorites/ })).toContainText('3');
    expect(await accountFavorites(page)).toContain(work.slug);
  });

  test('/ja/favorites speaks Japanese, sign-in included', async ({ browser }) => {
    const fresh = await browser.newContext();
    const ja = await fresh.newPage();
    await ja.setViewportSize(widths.phone);
    await ja.goto('/ja/favorites');
    await expect(ja.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(ja.getByRole('heading', { level: 1, name: 'お気に入り' })).toBeVisible();
    await expect(ja.getByRole('heading', { name: 'お気に入りはまだありません' })).toBeVisible();
    await expect(ja.getByRole('banner').getByRole('button', { name: 'ログイン' })).toBeVisible();
    await expect(ja.getByRole('button', { name: 'Google でログイン' })).toBeVisible();
    await ja.screenshot({ path: path.join(screenshots, 'favorites-empty-ja-390.png'), fullPage: true });
    await fresh.close();
  });

  test('the sign-in page says when a sign-in did not complete, and signing in there leads to the favorites', async ({ browser }) => {
    const fresh = await browser.newContext();
    const visitor = await fresh.newPage();
    const response = await visitor.goto('/en/sign-in?error=OAuthCallback');
    expect(response?.status()).toBe(200);
    await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(visitor.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(visitor.getByRole('main').getByRole('alert')).toContainText('Sign-in did not complete');
    await screenshotsOf(visitor, 'sign-in-error');

    await visitor.getByRole('main').getByRole('button', { name: 'Sign in with Google' }).click();
    await visitor.waitForURL(/\/en\/favorites$/, { timeout: 30_000 });
    await expect(visitor.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` })).toBeVisible();
    await visitor.goto('/en/sign-in');
    await expect(visitor.getByText(`You are signed in as ${E2E_SHOPPER.email}.`)).toBeVisible();
    await fresh.close();
  });

  test('signing out ends the session; the browser starts an empty list while the account keeps its favorites', async () => {
    await page.goto('/en/favorites');
    await page.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No favorites yet' })).toBeVisible();
    expect((await page.request.get('/v1/account/me')).status()).toBe(200);
    expect((await (await page.request.get('/v1/account/me')).json()).user).toBeNull();

    // Back in: the account still has them.
    await signIn(page);
    await expect.poll(() => cardTitles(page)).toEqual(expect.arrayContaining([works[2]!.slug, works[1]!.slug]));
  });
});
