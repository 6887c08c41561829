import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/env';
import { orderStarryNight, ORDER_EMAIL } from './support/orders';

const chromium = '/usr/bin/chromium';
const screenshots = path.join('tests', 'e2e', 'screenshots');

test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

test.beforeEach(async ({ page }) => {
  await page.route(/^https:\/\/(commons|upload)\.wikimedia\.org\//, (route) => route.abort('internetdisconnected'));
});

async function screenshotAt(page: Page, name: string, width: number) {
  mkdirSync(screenshots, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => document.fonts.ready);
  // The whole page in the viewport, so lazy images load too, then back to a screen's height.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15_000 });
  await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  await page.setViewportSize({ width, height: 900 });
}

const email = ORDER_EMAIL;

/** A staff status change through the staff API. */
async function move(request: APIRequestContext, code: string, data: Record<string, string>) {
  const answer = await request.post(`/v1/admin/orders/${code}/status`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data });
  expect(answer.status(), await answer.text()).toBe(200);
}

test('order lookup: a wrong e-mail finds nothing, a lower-case code and the right e-mail open the order', async ({ page, request }) => {
  const code = await orderStarryNight(request);

  const response = await page.goto('/en/orders', { waitUntil: 'networkidle' });
  expect(response?.status()).toBe(200);
  expect(response?.headers()['cache-control'] ?? '').not.toMatch(/s-maxage|public/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Follow your order');
  await screenshotAt(page, 'orders-lookup', 390);
  await screenshotAt(page, 'orders-lookup', 1280);

  await page.getByLabel('Order code').fill(code.toLowerCase());
  await page.getByLabel('E-mail address').fill('someone.else@example.com');
  await page.getByRole('button', { name: 'Find my order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No order matches' })).toBeVisible();

  // An unknown code answers the same way.
  await page.getByLabel('Order code').fill('ZZZZZZZZZZ');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Find my order' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'No order matches' })).toBeVisible();

  await page.getByLabel('Order code').fill(code.toLowerCase());
  await page.getByLabel('E-mail address').fill(' ADA@example.com ');
  await page.getByRole('button', { name: 'Find my order' }).click();
  await expect(page).toHaveURL(new RegExp(`/en/orders/${code}$`));
  await expect(page.getByRole('heading', { level: 1 })).toContainText(code);
  await expect(page.getByText('Awaiting payment')).toBeVisible();
  await expect(page.getByRole('link', { name: 'The Starry Night' })).toBeVisible();
  // 50 × 70 framed: 19900 + 14900, in the summary and as the amount to transfer.
  await expect(page.getByRole('complementary').getByText('$348')).toBeVisible();
  await expect(page.getByTestId('transfer-amount')).toHaveText('$348');
});

test('the order page follows the studio: timeline with dates, notes and the tracking number', async ({ page, request }) => {
  const code = await orderStarryNight(request);
  await move(request, code, { status: 'paid', note: 'Bank transfer received, thank you.' });
  await move(request, code, { status: 'sketching' });
  await move(request, code, { status: 'painting', note: 'The sky is down: the swirls took two days.' });
  await move(request, code, { status: 'drying' });
  await move(request, code, { status: 'shipped', trackingNumber: '1Z999AA10123456784', carrier: 'ups', note: 'Packed in a wooden crate.' });

  // Opened from an e-mail link: the page asks for the e-mail first.
  const response = await page.goto(`/en/orders/${code.toLowerCase()}`);
  expect(response?.headers()['cache-control'] ?? '').not.toMatch(/s-maxage|public/);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByText('enter the e-mail address it was placed with')).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Show my order' }).click();

  const timeline = page.getByRole('list').filter({ has: page.locator('[aria-current="step"]') });
  await expect(timeline.locator('[aria-current="step"]')).toContainText('Shipped');
  for (const step of ['Order placed', 'Payment received', 'Sketching', 'Painting', 'Drying', 'Shipped', 'Delivered']) await expect(timeline).toContainText(step);
  await expect(timeline.locator('[data-step="delivered"]')).toHaveAttribute('data-state', 'upcoming');
  await expect(page.getByText('Bank transfer received, thank you.')).toBeVisible();
  await expect(page.getByText('The sky is down: the swirls took two days.')).toBeVisible();
  await expect(page.getByText('Packed in a wooden crate.')).toBeVisible();
  // The number links to the carrier's page for it, whole on one line.
  await expect(page.getByTestId('tracking-number')).toHaveText('1Z999AA10123456784 UPS');
  const tracking = page.getByTestId('tracking-number').getByRole('link', { name: '1Z999AA10123456784' });
  await expect(tracking).toHaveAttribute('href', 'https://www.ups.com/track?tracknum=1Z999AA10123456784');
  await expect(tracking).toHaveCSS('white-space', 'nowrap');
  await expect(page.getByText('Awaiting payment')).toHaveCount(0);
  // Each reached step carries its date.
  await expect(timeline.locator('[data-step="paid"] time').first()).toHaveAttribute('datetime', /Z$/);
  await screenshotAt(page, 'order-timeline', 1280);
  await screenshotAt(page, 'order-timeline', 390);

  // The e-mail is remembered for this tab: after a reload the order shows at once; delivered closes the timeline.
  await move(request, code, { status: 'delivered' });
  await page.reload();
  await expect(page.locator('[data-step="delivered"]')).toHaveAttribute('data-state', 'done');
  await expect(page.locator('[aria-current="step"]')).toHaveCount(0);
});

test('the order page in Japanese formats dates and prices for the locale', async ({ page, request }) => {
  const code = await orderStarryNight(request);
  await page.goto('/ja/orders', { waitUntil: 'networkidle' });
  // Typed from paper, in groups: spaces are ignored.
  await page.getByLabel('注文番号').fill(`${code.slice(0, 4)} ${code.slice(4, 8)} ${code.slice(8)}`);
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByRole('button', { name: '注文を探す' }).click();
  await expect(page).toHaveURL(new RegExp(`/ja/orders/${code}$`));
  await expect(page.getByText('お支払い待ち')).toBeVisible();
  await expect(page.getByText(/\d{4}年\d{1,2}月\d{1,2}日/).first()).toBeVisible();
  await expect(page.getByRole('complementary').getByText('$348')).toBeVisible();
  await expect(page.getByTestId('transfer-details')).toContainText('金額');
  await expect(page.getByTestId('transfer-amount')).toHaveText('$348');
  await screenshotAt(page, 'order-awaiting-payment-ja', 390);
  await screenshotAt(page, 'order-awaiting-payment-ja', 1440);
});
