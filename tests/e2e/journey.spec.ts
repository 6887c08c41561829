import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const chromium = '/usr/bin/chromium';
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

/**
 * The shop's promise in one go, as a German-speaking shopper meets it: from the home page, a search
 * in German, the painting, a reproduction ordered with the form, and the order followed with its
 * code and e-mail on the lookup page. Every step through the pages, nothing through the API.
 */
test('browse → search in German → artwork → order a reproduction → look the order up', async ({ page, context }) => {
  await page.goto('/de');
  await page.getByLabel('Ein Gemälde finden').fill('sternennacht');
  await page.getByLabel('Ein Gemälde finden').press('Enter');
  await expect(page).toHaveURL(/\/de\/artworks\?q=sternennacht$/);

  // Lower case and no accent: the German title is found all the same, and ranked first.
  const first = page.locator('main li[data-slug]').first();
  await expect(first).toHaveAttribute('data-slug', 'the-starry-night');
  await first.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/de\/artworks\/the-starry-night$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Die Sternennacht');
  await page.waitForLoadState('networkidle');

  // The order form: a size and a finish, the live price, the customer's details.
  await page.getByRole('radio', { name: /Mittel/ }).check();
  await page.getByRole('radio', { name: /Gerahmt/ }).check();
  await page.getByLabel('Vollständiger Name').fill('Clara Schumann');
  const email = `clara.${Date.now()}@example.de`;
  await page.getByLabel('E-Mail', { exact: true }).fill(email);
  await page.getByLabel('Straße und Hausnummer').fill('Inselstraße 18');
  await page.getByLabel('Ort', { exact: true }).fill('Leipzig');
  await page.getByLabel('Postleitzahl').fill('04103');
  await page.getByLabel('Land', { exact: true }).selectOption('DE');
  const submit = page.getByRole('button', { name: /^Zahlungspflichtig bestellen · / });
  // 50×70 framed is $348 in the server's table (src/shared/prices.ts), written the German way.
  await expect(submit).toHaveText(/348\s?\$/);
  await submit.click();

  await page.waitForURL(/\/de\/orders\/[0-9A-Z]{10}\?placed=1$/);
  const code = new URL(page.url()).pathname.split('/').pop()!;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(code);

  // Later, in a fresh browser (no remembered e-mail): the lookup page with code and e-mail.
  const later = await context.browser()!.newContext({ baseURL: new URL(page.url()).origin });
  const lookup = await later.newPage();
  await lookup.goto('/de/orders', { waitUntil: 'networkidle' });
  await lookup.getByLabel('Bestellnummer').fill(code.toLowerCase());
  await lookup.getByLabel('E-Mail-Adresse').fill(email.toUpperCase());
  await lookup.getByRole('button', { name: 'Bestellung finden' }).click();
  await expect(lookup).toHaveURL(new RegExp(`/de/orders/${code}$`));
  await expect(lookup.getByRole('heading', { level: 1 })).toContainText(code);
  await expect(lookup.getByRole('main')).toContainText('Sternennacht');
  await later.close();
});
