import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/env';
import { orderStarryNight, ORDER_EMAIL } from './support/orders';

/**
 * Accessibility as a test (issue 17, item 6): axe (@axe-core/playwright, the engine browsers'
 * accessibility tools use) on the shop's main pages and the staff dashboard, in English, German and
 * Japanese, at a phone's width and a desktop's, once each page has hydrated. Zero violations of
 * WCAG 2.2 A and AA (and the 2.0/2.1 rules they include).
 */
const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const widths = { phone: { width: 360, height: 780 }, desktop: { width: 1280, height: 900 } } as const;
const locales = ['en', 'de', 'ja'] as const;

// axe reads the whole page twice per test (both widths): a page with the wall preview takes a while on 2 cores.
test.describe.configure({ timeout: 120_000 });

test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

/** Runs axe on the page as it is at both widths; a violation fails with its rule, impact and where. */
async function expectNoViolations(page: Page, name: string) {
  for (const [label, size] of Object.entries(widths)) {
    await page.setViewportSize(size);
    await page.waitForLoadState('networkidle');
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    const found = violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join('\n    ')}`,
    );
    expect(found, `${name} at ${label} width`).toEqual([]);
  }
}

for (const locale of locales) {
  test.describe(`${locale}`, () => {
    // A search that finds nothing shows its ways on (the custom painting offer, near works).
    for (const path of ['', '/artworks', '/artworks?q=zzqxj', '/artworks/the-starry-night', '/custom', '/favorites']) {
      test(`/${locale}${path}`, async ({ page }) => {
        await page.goto(`/${locale}${path}`);
        await expectNoViolations(page, `/${locale}${path}`);
      });
    }

    test(`an order page`, async ({ page, request }) => {
      const code = await orderStarryNight(request, locale);
      await page.goto(`/${locale}/orders/${code}`);
      await page.locator('input[type=email]').fill(ORDER_EMAIL);
      await page.locator('main form button[type=submit]').click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(code);
      await expectNoViolations(page, `/${locale}/orders/${code}`);
    });

    test(`the staff dashboard: sign-in, the orders board, an order`, async ({ page, request }) => {
      const code = await orderStarryNight(request, locale);
      await page.goto(`/staff/${locale}/sign-in`);
      await expectNoViolations(page, `/staff/${locale}/sign-in`);
      await page.locator('#token').fill(E2E_ADMIN_TOKEN);
      await page.locator('form[action="/staff/api/sign-in"] button[type=submit]').click();
      await expect(page).toHaveURL(new RegExp(`/staff/${locale}$`));
      await expectNoViolations(page, `/staff/${locale}`);
      await page.goto(`/staff/${locale}/orders/${code}`);
      await expectNoViolations(page, `/staff/${locale}/orders/${code}`);
    });
  });
}
