import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_SHOPPER } from '../support/e2e-oidc';
import { orderStarryNight } from './support/orders';

/**
 * "My orders" in German: sign in (NextAuth's redirect flow against the local OpenID Connect issuer),
 * place an order with the session, find it under "Meine Bestellungen" in the account menu, and open
 * its page without being asked for the e-mail, which a signed-out visitor still is.
 */

const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** axe at a phone's width and a desktop's, as a11y.spec.ts runs it: zero violations, and nothing wider than the screen. */
async function expectAccessible(page: Page, name: string) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.waitForLoadState('networkidle');
    // Signed in, the header's account toggle is checked too (a11y.spec.ts never signs in): its
    // visible first name must stand in its name.
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    expect(
      violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `${name} at ${size.width}px`,
    ).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} at ${size.width}px overflows sideways`).toBeLessThanOrEqual(0);
  }
}

test('signed in, an order placed is under "Meine Bestellungen" and its page opens without the e-mail', async ({ page, browser }) => {
  await page.context().route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));

  // Signed out, the page invites to sign in.
  await page.goto('/de/my-orders');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meine Bestellungen');
  await expect(page.getByRole('heading', { name: 'Melden Sie sich an, um Ihre Bestellungen zu sehen' })).toBeVisible();
  await expectAccessible(page, 'my orders, signed out');

  await page.getByRole('banner').getByRole('button', { name: 'Anmelden' }).click();
  await page.waitForURL(/\/de\/my-orders$/, { timeout: 30_000 });
  const menu = page.getByRole('button', { name: `Konto: ${E2E_SHOPPER.name}` });
  await expect(menu).toBeVisible();

  // The order goes with the browser's session cookie (page.request shares it), so it joins the
  // account although its customer e-mail is not the account's.
  const code = await orderStarryNight(page.request, 'de');
  const title = ((await (await page.request.get('/v1/artworks/the-starry-night?locale=de')).json()) as { artwork: { title: string } }).artwork.title;

  await menu.click();
  await page.getByRole('link', { name: 'Meine Bestellungen' }).click();
  await expect(page).toHaveURL(/\/de\/my-orders$/);
  const row = page.locator(`a[data-my-order="${code}"]`);
  await expect(row).toContainText(title);
  await expect(row).toContainText(`Bestellung ${code}`);
  await expect(row.locator('[data-status="pending"]')).toHaveText('Bestellt');
  // Newest first: the order just placed heads the list.
  await expect(page.locator('a[data-my-order]').first()).toHaveAttribute('data-my-order', code);
  await expectAccessible(page, 'my orders');

  await row.click();
  await expect(page).toHaveURL(new RegExp(`/de/orders/${code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(code);
  await expect(page.getByRole('link', { name: title })).toBeVisible();
  await expect(page.getByLabel('E-Mail-Adresse')).toHaveCount(0);

  // Anyone else is still asked for the e-mail.
  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    await other.goto(`/de/orders/${code}`);
    await expect(other.getByText('geben Sie die E-Mail-Adresse ein')).toBeVisible();
    await expect(other.getByLabel('E-Mail-Adresse')).toBeVisible();
  } finally {
    await stranger.close();
  }
});
