import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { withE2eDatabase } from './support/database';
import { E2E_ADMIN_TOKEN } from './support/env';
import { catalogLocales } from '@/shared/locales';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

const screenshots = path.join('tests', 'e2e', 'screenshots');
const phone = { width: 360, height: 740 };
const desktop = { width: 1280, height: 800 };

/** A screenshot of the whole page at desktop and at phone width (the viewport is restored after). */
async function shoot(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  const before = page.viewportSize()!;
  for (const [label, size] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    await page.setViewportSize(size);
    await page.evaluate(() => document.fonts.ready);
    await page.waitForTimeout(150); // the chart redraws to its new width
    await page.screenshot({ path: path.join(screenshots, `staff-${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

async function signIn(page: Page, locale = 'en') {
  await page.goto(`/staff/${locale}/sign-in`);
  await page.locator('#token').fill(E2E_ADMIN_TOKEN);
  await page.locator('form[action="/staff/api/sign-in"] button[type=submit]').click();
  await expect(page).toHaveURL(new RegExp(`/staff/${locale}$`));
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function placeOrder(request: APIRequestContext, name: string, email: string, extra: Record<string, unknown> = {}) {
  const answer = await request.post('/v1/orders', {
    data: {
      kind: 'reproduction',
      artworkSlug: 'the-starry-night',
      size: '50x70',
      frame: 'framed',
      locale: 'de',
      customer: { name, email, address: 'Museumsinsel 1', city: 'Berlin', postalCode: '10178', country: 'DE' },
      ...extra,
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { code: string }).code;
}

test.describe('staff sign-in', () => {
  test('every page and data route is refused without a session; a wrong token is refused; the right one signs in and out', async ({ page, request }) => {
    // Bare /staff goes on in the staff member's language.
    const bare = await request.get('/staff', { headers: { 'accept-language': 'it-CH, fr;q=0.8' }, maxRedirects: 0 });
    expect(bare.status()).toBeGreaterThanOrEqual(300);
    expect(bare.headers()['location']).toMatch(/\/staff\/it$/);

    await page.goto('/staff/en/catalog');
    await expect(page).toHaveURL(/\/staff\/en\/sign-in\?next=%2Fstaff%2Fen%2Fcatalog$/);
    for (const route of ['/staff/api/trpc/board?input=%7B%7D', '/staff/api/trpc/pipeline.stats?input=%7B%7D', `/staff/api/photos/${crypto.randomUUID()}`]) {
      expect((await request.get(route)).status(), route).toBe(401);
    }
    expect((await request.post('/staff/api/trpc/pipeline.publish', { data: { count: 1 } })).status()).toBe(401);

    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await shoot(page, 'sign-in');
    await page.getByLabel('Staff token').fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('#sign-in-error')).toHaveText('That token is not right. Check it and try again.');
    expect((await page.context().cookies()).filter((c) => c.name.includes('atelier-staff'))).toEqual([]);

    await page.getByLabel('Staff token').fill(E2E_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Back where the visit began, with a cookie that is not the token.
    await expect(page).toHaveURL(/\/staff\/en\/catalog$/);
    // The e2e shop's public address is plain http, so the cookie is not the Secure one (it is over https).
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'atelier-staff');
    expect(cookie).toMatchObject({ path: '/staff', httpOnly: true, sameSite: 'Strict', secure: false });
    expect(cookie!.value).not.toContain(E2E_ADMIN_TOKEN);
    expect(page.url()).not.toContain(E2E_ADMIN_TOKEN);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).not.toContain(E2E_ADMIN_TOKEN);

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page).toHaveURL(/\/staff\/en\/sign-in\?signedOut=1$/);
    await page.goto('/staff/en');
    await expect(page).toHaveURL(/\/staff\/en\/sign-in/);
  });
});

test.describe('a day of production', () => {
  test('find an order, walk it from paid to delivered with a note and a tracking number, and the customer sees it', async ({ page, request }) => {
    const id = stamp();
    const email = `albrecht.${id}@example.de`;
    const code = await placeOrder(request, `Albrecht Dürer ${id}`, email);
    await signIn(page);

    // The board: the new order is on top of "Awaiting payment", and the search finds it by e-mail.
    await page.getByRole('link', { name: /^Awaiting payment/ }).click();
    await expect(page.locator('tbody tr').first()).toHaveAttribute('data-code', code);
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    const row = page.locator(`tr[data-code="${code}"]`);
    await expect(row).toContainText('The Starry Night');
    // The Starry Night hangs landscape: the studio sees the canvas as it is to be painted.
    await expect(row).toContainText('70 × 50 cm, framed');
    await expect(row).toContainText('DE');
    await expect(page.getByRole('link', { name: /^Awaiting payment/ })).toContainText('1');
    await shoot(page, 'board');

    await row.getByRole('link', { name: code }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Order ${code}`);
    await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment');
    await shoot(page, 'order');

    const steps = [
      { status: 'paid', label: 'Paid', note: 'Payment received by bank transfer.' },
      { status: 'sketching', label: 'Sketching', note: null },
      { status: 'painting', label: 'Painting', note: 'Underpainting done.' },
      { status: 'drying', label: 'Drying', note: null },
      { status: 'shipped', label: 'Shipped', note: 'Sent with DHL.', tracking: 'JD014600006281230704' },
      { status: 'delivered', label: 'Delivered', note: 'Signed for at the door.' },
    ];
    const moveTo = page.getByLabel('Move to');
    const chain = ['pending', ...steps.map((s) => s.status)];
    for (const [index, step] of steps.entries()) {
      // Only moves the server allows are offered: never back to where the order has been.
      for (const earlier of chain.slice(0, index)) await expect(moveTo.locator(`option[value="${earlier}"]`)).toHaveCount(0);
      await expect(moveTo).toHaveValue(step.status); // the next step is suggested
      if (step.tracking) {
        // The carrier links a number: it waits for one.
        await expect(page.getByLabel('Carrier')).toBeDisabled();
        await page.getByLabel('Tracking number').fill(step.tracking);
        await page.getByLabel('Carrier').selectOption('dhl');
      }
      if (step.note) await page.getByLabel('Note for the customer').fill(step.note);
      await page.getByRole('button', { name: `Move to “${step.label}”` }).click();
      // Payment confirmed by hand says first what the customer will see.
      if (step.status === 'paid') await page.getByRole('button', { name: `Yes, move to “${step.label}”` }).click();
      await expect(page.getByTestId('order-status')).toHaveText(step.label);
      await expect(page.getByTestId('order-outcome')).toContainText(`the order is now “${step.label}”`);
    }
    await expect(page.getByTestId('tracking-number')).toHaveText('JD014600006281230704 · DHL');
    await expect(page.getByTestId('tracking-number').getByRole('link')).toHaveAttribute('href', /^https:\/\/www\.dhl\.com\/.*tracking-id=JD014600006281230704/);
    await expect(page.getByTestId('history').locator('li')).toHaveCount(7);
    await expect(page.getByTestId('history')).toContainText('Signed for at the door.');
    // Delivered is final: only a note may still be added.
    await expect(moveTo.locator('option')).toHaveCount(1);
    await shoot(page, 'order-delivered');

    const lookup = await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`);
    expect(lookup.status()).toBe(200);
    const { order } = (await lookup.json()) as { order: { status: string; trackingNumber: string; events: { status: string; note: string | null }[] } };
    expect(order.status).toBe('delivered');
    expect(order).toMatchObject({ trackingNumber: 'JD014600006281230704', carrier: 'dhl' });
    expect(order.events.map((e) => [e.status, e.note])).toEqual([
      ['pending', null],
      ['paid', 'Payment received by bank transfer.'],
      ['sketching', null],
      ['painting', 'Underpainting done.'],
      ['drying', null],
      ['shipped', 'Sent with DHL.'],
      ['delivered', 'Signed for at the door.'],
    ]);
  });

  test('a change made meanwhile by someone else is not overwritten: the second person is told and sees the order as it is', async ({ page, context, request }) => {
    const id = stamp();
    const code = await placeOrder(request, `Käthe Kollwitz ${id}`, `kaethe.${id}@example.de`);
    await signIn(page);
    const other = await context.newPage();
    await page.goto(`/staff/en/orders/${code}`);
    await other.goto(`/staff/en/orders/${code}`);

    await other.getByLabel('Note for the customer').fill('Paid at the counter.');
    await other.getByRole('button', { name: 'Move to “Paid”' }).click();
    await other.getByRole('button', { name: 'Yes, move to “Paid”' }).click();
    await expect(other.getByTestId('order-status')).toHaveText('Paid');

    // The first page still shows "Awaiting payment" and tries to cancel.
    await page.getByLabel('Move to').selectOption('cancelled');
    await page.getByRole('button', { name: 'Move to “Cancelled”' }).click();
    await expect(page.getByTestId('order-outcome')).toContainText('Someone else changed this order while you had it open.');
    await expect(page.getByTestId('order-status')).toHaveText('Paid');
    await shoot(page, 'order-conflict');
    const lookup = await request.get(`/v1/orders/${code}?email=kaethe.${id}@example.de`);
    expect(((await lookup.json()) as { order: { status: string } }).order.status).toBe('paid');
  });

  test("a custom order shows the customer's photo and takes the sketch's status", async ({ page, request }) => {
    const upload = await request.post('/v1/uploads', { headers: { 'content-type': 'image/jpeg' }, data: readFileSync('tests/fixtures/photos/photo.jpg') });
    expect(upload.status()).toBe(201);
    const { uploadId } = (await upload.json()) as { uploadId: string };
    const id = stamp();
    const code = await placeOrder(request, `Frida Kahlo ${id}`, `frida.${id}@example.mx`, {
      kind: 'custom',
      artworkSlug: undefined,
      uploadId,
      style: 'vangogh',
      subjects: 2,
      size: '30x40',
      frame: 'rolled',
    });
    await signIn(page, 'en');
    await page.goto(`/staff/en/orders/${code}`);
    const photo = page.getByRole('img', { name: `Photo sent by Frida Kahlo ${id} for the painting` });
    await expect(photo).toBeVisible();
    expect(await photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // The photo route refuses a browser without the session.
    expect((await request.get(`/staff/api/photos/${uploadId}`)).status()).toBe(401);

    await page.getByLabel('Move to').selectOption('sketching');
    await page.getByRole('button', { name: 'Move to “Sketching”' }).click();
    await expect(page.getByTestId('confirm-move')).toContainText('“Payment received”');
    await page.getByRole('button', { name: 'Yes, move to “Sketching”' }).click();
    await expect(page.getByTestId('order-status')).toHaveText('Sketching');
    await expect(page.getByTestId('sketch-status')).toHaveText('Being drawn: add the sketch photo to ask the customer');
    // A decision the customer gave by phone is recorded on the order, in sketching.
    await page.getByLabel('Move to').selectOption('sketching');
    await page.getByLabel('Sketch status').selectOption('changes_requested');
    await page.getByLabel('Note for the customer').fill('Sketch sent; the customer asked for a warmer sky.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByTestId('sketch-status')).toHaveText('Changes requested');
    await shoot(page, 'order-custom');
  });

  test('"Mark the whole basket paid": a transfer of the basket\'s total moves every order of it to paid at once', async ({ page, request }) => {
    const id = stamp();
    const email = `kaethe.${id}@example.de`;
    const item = { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '30x40', frame: 'rolled' };
    const answer = await request.post('/v1/checkouts', {
      data: {
        items: [item, { ...item, artworkSlug: 'mona-lisa', frame: 'stretched' }],
        locale: 'de',
        customer: { name: `Käthe Kollwitz ${id}`, email, address: 'Weißenburger Straße 25', city: 'Berlin', postalCode: '10405', country: 'DE' },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    const basket = (await answer.json()) as { code: string; orders: { code: string }[] };
    await signIn(page, 'en');
    // The basket's code finds its orders together on the board.
    await page.getByRole('searchbox', { name: 'Search orders' }).fill(basket.code);
    await page.getByRole('button', { name: 'Search' }).click();
    for (const order of basket.orders) await expect(page.locator(`tr[data-code="${order.code}"]`)).toBeVisible();
    await page.locator(`tr[data-code="${basket.orders[0]!.code}"]`).getByRole('link', { name: basket.orders[0]!.code }).click();
    await expect(page.getByTestId('order-status')).toHaveText('Awaiting payment');
    await page.getByTestId('basket-paid').click();
    await expect(page.getByTestId('order-status')).toHaveText('Paid');
    // Nothing of the basket waits any more: the button is gone, so it cannot be pressed twice.
    await expect(page.getByTestId('basket-paid')).toHaveCount(0);
    const lookup = await request.get(`/v1/checkouts/${basket.code}?email=${encodeURIComponent(email)}`);
    const { checkout } = (await lookup.json()) as { checkout: { orders: { status: string; payment: { state: string; paid: number } }[] } };
    expect(checkout.orders.map((o) => [o.status, o.payment.state])).toEqual([
      ['paid', 'paid'],
      ['paid', 'paid'],
    ]);
    await shoot(page, 'order-basket-paid');
  });

  test('the dashboard speaks the staff member’s language', async ({ page, request }) => {
    const id = stamp();
    await placeOrder(request, `Katsushika Hokusai ${id}`, `hokusai.${id}@example.jp`);
    await signIn(page, 'ja');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('注文');
    await expect(page.locator('tbody tr').first()).toContainText('$');
    await shoot(page, 'board-ja');
  });
});

test.describe('catalog pipeline', () => {
  const prefix = `e2e-staff-study-${stamp()}`;

  // The seeded catalog has no queue; three ready works (queued, with an English story and their
  // titles in the six catalog languages) by a public artist go in directly, and are taken out
  // again after, so other tests see the seed.
  test.beforeAll(async () => {
    await withE2eDatabase(async (client) => {
      for (let i = 1; i <= 3; i++) {
        const { rows } = await client.query<{ id: number }>(
          `INSERT INTO artworks (slug, artist_id, year, popularity, status, updated_at)
           SELECT $1, artist_id, 1889, 1, 'queued', now() FROM artworks WHERE slug = 'the-starry-night' RETURNING id`,
          [`${prefix}-${i}`],
        );
        for (const locale of catalogLocales) {
          await client.query(`INSERT INTO artwork_texts (artwork_id, locale, title, title_source, story, story_source) VALUES ($1, $2, $3, 'curated', $4, $5)`, [
            rows[0]!.id,
            locale,
            `Study ${i} (${prefix})`,
            locale === 'en' ? 'A study for the end-to-end test of the staff dashboard.' : null,
            locale === 'en' ? 'template' : null,
          ]);
        }
      }
    });
  });

  test.afterAll(async ({ request }) => {
    await withE2eDatabase((client) => client.query(`DELETE FROM artworks WHERE slug LIKE $1`, [`${prefix}-%`]));
    await request.post('/v1/admin/seo/refresh-counts', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` } });
  });

  test('the figures, the chart of the last runs, publish now and refresh counts', async ({ page }) => {
    await signIn(page);
    await page.getByRole('link', { name: 'Catalog pipeline' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalog pipeline');
    const figure = async (key: string) => Number((await page.getByTestId(`stat-${key}`).locator('dd > span').first().innerText()).replace(/\D/g, ''));
    const ready = await figure('ready');
    const published = await figure('published');
    expect(ready).toBeGreaterThanOrEqual(3);
    expect(published).toBeGreaterThanOrEqual(31);

    await page.getByLabel('Works to publish').fill('3');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await expect(page.getByTestId('catalog-outcome')).toContainText('Published 3 works.');
    // What it published, by name, linking to the new pages.
    await expect(page.getByTestId('catalog-outcome').getByRole('link', { name: new RegExp(`^${prefix}-\\d$`) })).toHaveCount(3);
    await expect.poll(() => figure('published')).toBe(published + 3);
    expect(await figure('ready')).toBe(ready - 3);
    // The run is in the chart (drawn by recharts) and in the table beside it.
    await expect(page.locator('.recharts-surface').first()).toBeVisible();
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await page.getByText('The runs as a table').click();
    await expect(page.locator('details table tbody tr').first()).toContainText('Studio');

    await page.getByRole('button', { name: 'Refresh counts' }).click();
    await expect(page.getByTestId('catalog-outcome')).toContainText('Counts refreshed');
    // No Inngest in this run: the in-process worker has no dashboard to link to.
    await expect(page.getByRole('link', { name: /Inngest dashboard/ })).toHaveCount(0);
    await shoot(page, 'catalog');
  });
});
