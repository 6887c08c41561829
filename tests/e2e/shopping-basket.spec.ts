import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SHOPPER } from '../support/e2e-oidc';
import { E2E_PAYING_SHOP_URL } from '../support/e2e-stripe';

/**
 * The website's basket (decisions.md "A basket"): two reproductions and a custom painting put in the
 * basket from their pages, the header counting them, kept through signing in, changed on the
 * basket page, then one customer form and one payment (the Stripe stand-in) that pays the three
 * orders, found again under "My orders". In German and Japanese, looked at (axe, no sideways
 * scroll, screenshots) at 390 and 1440 px.
 */

const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

const screenshots = path.join('tests', 'e2e', 'screenshots');
const photo = path.join('tests', 'fixtures', 'e2e', 'dog-in-a-field.jpg');
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function lookedAt(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
}

const headerCount = (page: Page) => page.locator('[data-basket-count]');

/** A basket as an earlier visit left it in this browser: written once, before the first page loads (a reload keeps what the page made of it). */
const seedBasket = (page: Page, entries: unknown[]) =>
  page.addInitScript((value) => {
    if (!sessionStorage.getItem('seeded')) localStorage.setItem('atelier-prints.basket', value);
    sessionStorage.setItem('seeded', '1');
  }, JSON.stringify(entries));

const words = {
  de: {
    add: 'In den Warenkorb',
    photoReceived: 'Foto erhalten: dog-in-a-field.jpg',
    change: 'Ändern',
    signIn: 'Anmelden',
    account: `Konto: ${E2E_SHOPPER.name}`,
    myOrders: 'Meine Bestellungen',
    thanks: 'Vielen Dank für Ihre Zahlung',
    pay: /^3 Werke zahlungspflichtig bestellen · /,
    emailLabel: 'E-Mail-Adresse',
  },
  ja: {
    add: 'カートに入れる',
    photoReceived: '写真を受け付けました：dog-in-a-field.jpg',
    change: '変更',
    signIn: 'ログイン',
    account: `アカウント：${E2E_SHOPPER.name}`,
    myOrders: '注文履歴',
    thanks: 'お支払いありがとうございます',
    pay: /^3点の注文を確定する（お支払い義務が発生します）· /,
    emailLabel: 'メールアドレス',
  },
} as const;

test.describe('on the shop that takes payment online', () => {
  test.use({ baseURL: E2E_PAYING_SHOP_URL });

  // The journey, whole: two reproductions and a custom portrait put aside signed out, the
  // basket kept through signing in, changed, one payment for the three, then all three under
  // "My orders", each opening its page without the e-mail. Both locales sign in as the one test
  // shopper, on the paying shop's own database.
  for (const locale of ['de', 'ja'] as const) {
    test(`${locale}: two reproductions and a custom painting in the basket, kept through sign-in, one payment pays all three, and "My orders" lists them`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const w = words[locale];
      await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
      await page.setViewportSize({ width: 1440, height: 900 });

      // Two reproductions, as chosen on their pages: no customer details needed to put them aside.
      await page.goto(`/${locale}/artworks/the-starry-night`);
      await page.locator('input[name="order-size"][value="60x90"]').check();
      await page.getByRole('button', { name: w.add }).click();
      await expect(headerCount(page)).toHaveText('(1)');
      await page.goto(`/${locale}/artworks/mona-lisa`);
      await page.locator('input[name="order-frame"][value="framed"]').check();
      await page.getByRole('button', { name: w.add }).click();
      await expect(headerCount(page)).toHaveText('(2)');

      // A custom painting: the photo first.
      await page.goto(`/${locale}/custom`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: w.add }).click();
      // Without a photo nothing is added: the photo step asks for one.
      await expect(headerCount(page)).toHaveText('(2)');
      await page.locator('input[type="file"]').setInputFiles(photo);
      await expect(page.getByText(w.photoReceived)).toBeVisible();
      await page.getByRole('button', { name: w.add }).click();
      await expect(headerCount(page)).toHaveText('(3)');
      // The same photo twice is the same painting: still three.
      await page.getByRole('button', { name: w.add }).click();
      await expect(page.getByTestId('add-to-basket')).toBeEnabled();
      await expect(headerCount(page)).toHaveText('(3)');

      await page.locator('[data-basket-link]').click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/basket$`));

      // Signing in here (the local OpenID issuer, NextAuth's whole redirect flow) keeps the basket:
      // it moves from the browser to the account, and the page comes back with all three.
      await page.getByRole('banner').getByRole('button', { name: w.signIn }).click();
      await expect(page.getByRole('button', { name: w.account })).toBeVisible({ timeout: 30_000 });
      await expect(page).toHaveURL(new RegExp(`/${locale}/basket$`));
      await expect.poll(() => page.evaluate(() => localStorage.getItem('atelier-prints.basket'))).toBeNull();
      await expect(headerCount(page)).toHaveText('(3)');

      const lines = page.locator('[data-basket-entry]');
      await expect(lines).toHaveCount(3);
      // The custom line shows the photo's thumbnail, kept with the entry on the account.
      await expect(lines.nth(2).locator('img')).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
      const total = page.getByTestId('basket-total');
      const before = Number(await total.getAttribute('data-cents'));
      const prices = await lines.getByTestId('basket-line-price').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-cents'))));
      expect(prices.reduce((sum, cents) => sum + cents, 0)).toBe(before);

      // Change the first reproduction's size in place: its price and the total follow.
      await lines.first().getByRole('button', { name: w.change }).click();
      await lines.first().locator('input[type="radio"][value="30x40"]').check();
      await expect(total).not.toHaveAttribute('data-cents', String(before));
      const after = Number(await total.getAttribute('data-cents'));
      expect(after).toBeLessThan(before);
      await lookedAt(page, `shopping-basket-${locale}`);

      await page.setViewportSize({ width: 390, height: 900 });
      // Signed in, the form starts with the account's name and e-mail; the e-mail can be another.
      await expect(page.locator('#basket-customer-name')).toHaveValue(E2E_SHOPPER.name);
      await expect(page.locator('#basket-customer-email')).toHaveValue(E2E_SHOPPER.email);
      const email = `basket.${stamp()}@example.jp`;
      await page.locator('#basket-customer-name').fill('Clara Schumann');
      await page.locator('#basket-customer-email').fill(email);
      await page.locator('#basket-customer-address').fill('Inselstraße 18');
      await page.locator('#basket-customer-city').fill('Leipzig');
      await page.locator('#basket-customer-postalCode').fill('04103');
      await page.locator('#basket-customer-country').selectOption('DE');
      // The button says the order obliges to pay, as German law asks (§ 312j BGB).
      await page.getByRole('button', { name: w.pay }).click();

      // One Stripe Checkout session for the three, then back to the basket's page.
      await expect(page).toHaveURL(/127\.0\.0\.1:3109\/pay\/cs_test_/);
      await page.getByRole('button', { name: 'Pay' }).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/orders/basket/[0-9A-Z]+\\?checkout=success$`));
      await expect(page.getByText(w.thanks)).toBeVisible();
      const code = /basket\/([0-9A-Z]+)/.exec(page.url())![1]!;
      let orders: { code: string; status: string; kind: string }[] = [];
      await expect
        .poll(async () => {
          const answer = await request.get(`${E2E_PAYING_SHOP_URL}/v1/checkouts/${code}?email=${encodeURIComponent(email)}`);
          const { checkout } = (await answer.json()) as { checkout: { orders: { code: string; status: string; kind: string }[]; total: number } };
          orders = checkout.orders;
          return { statuses: orders.map((o) => o.status), kinds: orders.map((o) => o.kind), total: checkout.total };
        })
        .toEqual({ statuses: ['paid', 'paid', 'paid'], kinds: ['reproduction', 'reproduction', 'custom'], total: after });
      await lookedAt(page, `shopping-basket-paid-${locale}`);

      // Ordered, the works have left the basket, on the account too.
      await expect(headerCount(page)).toHaveCount(0);
      const kept = (await (await page.request.get('/v1/account/basket')).json()) as { entries: unknown[] };
      expect(kept.entries).toEqual([]);

      // "My orders", from the account menu: the three orders, paid, and each opens its page
      // without asking for the e-mail (the customer e-mail is not the account's: the orders were
      // placed signed in).
      await page.getByRole('button', { name: w.account }).click();
      await page.getByRole('link', { name: w.myOrders }).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/my-orders$`));
      for (const order of orders) await expect(page.locator(`a[data-my-order="${order.code}"] [data-status="paid"]`)).toBeVisible();
      await lookedAt(page, `shopping-basket-my-orders-${locale}`);
      const custom = orders.find((o) => o.kind === 'custom')!;
      await page.locator(`a[data-my-order="${custom.code}"]`).click();
      await expect(page).toHaveURL(new RegExp(`/${locale}/orders/${custom.code}$`));
      await expect(page.getByRole('heading', { level: 1 })).toContainText(custom.code);
      await expect(page.getByLabel(w.emailLabel)).toHaveCount(0);

      // Loaded afresh (from the page cache): the basket page runs, no script refused by its policy.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refused.push(message.text());
      });
      await page.goto(`/${locale}/basket`);
      await expect(page.locator('[data-basket-empty]')).toBeVisible();
      expect(refused).toEqual([]);
    });
  }
});

test('a work no longer offered stays in the basket, says so, and is not paid; removing it empties the basket', async ({ page }) => {
  await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
  // Put aside earlier, unpublished since: the catalog no longer has the work.
  const entry = {
    id: '0b7f3c9e-1d2a-4c5b-8e6f-7a8b9c0d1e2f',
    item: { kind: 'reproduction', artworkSlug: 'a-work-since-unpublished', size: '50x70', frame: 'rolled', orientation: 'portrait', fit: 'whole', showcaseConsent: false },
    addedAt: new Date().toISOString(),
    uploadedAt: null,
    thumbnail: null,
  };
  await seedBasket(page, [entry]);
  await page.goto('/en/basket');
  const line = page.locator('[data-basket-entry]');
  await expect(line).toHaveAttribute('data-unpayable', 'unavailable');
  await expect(line).toContainText('This painting is no longer offered and cannot be ordered.');
  await expect(page.getByTestId('basket-total')).toHaveText('$0');
  await expect(page.locator('main form button[type="submit"]')).toBeDisabled();
  await expect(headerCount(page)).toHaveText('(1)');
  await line.getByRole('button', { name: 'Remove' }).click();
  await expect(page.locator('[data-basket-empty]')).toBeVisible();
  await expect(headerCount(page)).toHaveCount(0);
});

test('a custom painting whose photo is no longer kept says so, offers a new upload, and is not paid', async ({ page }) => {
  // Put aside two days ago: an unused photo is kept 24 hours.
  const entry = {
    id: '7f3e3a6c-4d5e-4f60-8a71-a3b4c5d6e7f8',
    item: {
      kind: 'custom',
      uploadId: '2c9d7a3e-5f60-4a71-9b82-b3c4d5e6f708',
      style: 'classic',
      subjects: 1,
      size: '50x70',
      frame: 'stretched',
      orientation: 'landscape',
      showcaseConsent: false,
    },
    addedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    uploadedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    thumbnail: null,
  };
  await seedBasket(page, [entry]);
  await page.goto('/en/basket');
  const line = page.locator('[data-basket-entry]');
  await expect(line).toHaveAttribute('data-unpayable', 'photoGone');
  await expect(line).toContainText('Your photo is no longer kept');
  await expect(line.locator('a[href="/en/custom"]')).toBeVisible();
  await expect(page.getByTestId('basket-total')).toHaveText('$0');
  await expect(page.locator('main form button[type="submit"]')).toBeDisabled();
});

test('an entry this shop cannot read (an older version wrote it) is left out, the rest of the basket kept', async ({ page }) => {
  await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
  const entry = (id: string, size: string) => ({
    id,
    item: { kind: 'reproduction', artworkSlug: 'mona-lisa', size, frame: 'rolled', orientation: 'portrait', fit: 'whole', showcaseConsent: false },
    addedAt: new Date().toISOString(),
    uploadedAt: null,
    thumbnail: null,
  });
  // A size this shop never sold, and a line that is no entry at all.
  const stored = [entry('5d1c1e4a-2b3c-4d5e-8f70-8192a3b4c5d6', '25x25'), 'not an entry', entry('6e2d2f5b-3c4d-4e5f-9a81-92a3b4c5d6e7', '50x70')];
  await seedBasket(page, stored);
  await page.goto('/en/basket');
  await expect(page.locator('[data-basket-entry]')).toHaveCount(1);
  await expect(page.locator('[data-basket-entry]')).toContainText('50 × 70');
  await expect(headerCount(page)).toHaveText('(1)');
});

test('signed out, the basket is kept in the browser; signing in moves it to the account', async ({ page }) => {
  await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
  await page.goto('/en/artworks/mona-lisa');
  await page.getByRole('button', { name: 'Add to basket' }).click();
  await expect(headerCount(page)).toHaveText('(1)');
  await page.reload();
  await expect(headerCount(page)).toHaveText('(1)');

  await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: `Account: ${E2E_SHOPPER.name}` })).toBeVisible({ timeout: 30_000 });
  await expect
    .poll(async () =>
      ((await (await page.request.get('/v1/account/basket')).json()) as { entries: { item: { artworkSlug?: string } }[] }).entries.map((e) => e.item.artworkSlug),
    )
    .toContain('mona-lisa');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('atelier-prints.basket'))).toBeNull();
  await expect(headerCount(page)).toHaveText(/\(\d+\)/);
});
