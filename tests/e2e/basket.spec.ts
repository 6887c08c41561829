import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ORDER_EMAIL } from './support/orders';

/**
 * A basket's page (decisions.md "A basket"): placed through the API as any client would, opened
 * with the e-mail in German and Japanese, every order listed and linked, one payment for all; each
 * order's page names its basket and the orders placed with it. Screenshots at 390 and 1440 px.
 */

const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

const screenshots = path.join('tests', 'e2e', 'screenshots');
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function placeBasket(page: Page, locale: string): Promise<{ code: string; orders: { code: string }[] }> {
  const item = { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '50x70', frame: 'framed' };
  const created = await page.request.post('/v1/checkouts', {
    data: {
      items: [item, { ...item, artworkSlug: 'mona-lisa', size: '30x40', frame: 'stretched' }],
      locale,
      customer: { name: 'Ada Lovelace', email: ORDER_EMAIL, address: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { code: string; orders: { code: string }[] };
}

for (const { locale, email, open, partOf } of [
  { locale: 'de', email: 'E-Mail-Adresse', open: 'Meine Bestellungen zeigen', partOf: 'Teil des Warenkorbs' },
  { locale: 'ja', email: 'メールアドレス', open: '注文を表示', partOf: 'カート' },
]) {
  test(`a basket's page in ${locale}: its orders, one payment, and each order naming its basket`, async ({ page }) => {
    await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
    mkdirSync(screenshots, { recursive: true });
    const basket = await placeBasket(page, locale);
    await page.goto(`/${locale}/orders/basket/${basket.code}`);
    await page.getByLabel(email).fill(ORDER_EMAIL);
    await page.getByRole('button', { name: open }).click();
    const listed = page.getByTestId('basket-order');
    await expect(listed).toHaveCount(2);
    for (const order of basket.orders) await expect(page.getByTestId('basket-orders')).toContainText(order.code);
    await expect(page.getByTestId('payment-panel')).toBeVisible();
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForLoadState('networkidle');
      const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(screenshots, `basket-${locale}-${width}.png`), fullPage: true });
    }
    // The e-mail that opened the basket opens its orders too; each names its basket and sibling.
    await listed.first().getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/${locale}/orders/${basket.orders[0]!.code}$`));
    const note = page.getByTestId('order-basket');
    await expect(note).toContainText(partOf);
    await expect(note).toContainText(basket.orders[1]!.code);
    await page.screenshot({ path: path.join(screenshots, `basket-order-${locale}-1440.png`), fullPage: true });
  });
}
