import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/env';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * The custom painting's sketch loop in two browsers, the studio's and the customer's: staff add a
 * sketch → the customer sees it beside their photo and asks for changes → a second sketch → the
 * customer approves → staff take it to delivered, the customer's page checked at every step.
 */

const screenshots = path.join('tests', 'e2e', 'screenshots');
/** A real landscape JPEG (800 × 600). */
const landscapePhoto = readFileSync('tests/fixtures/e2e/dog-in-a-field.jpg');
const sketchPhoto = readFileSync('tests/fixtures/photos/photo.jpg');
const landscapePhotoFile = 'tests/fixtures/e2e/dog-in-a-field.jpg';

async function shoot(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  const before = page.viewportSize()!;
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function customOrder(request: APIRequestContext, locale: string, email: string) {
  const upload = await request.post('/v1/uploads', { headers: { 'content-type': 'image/jpeg' }, data: landscapePhoto });
  expect(upload.status()).toBe(201);
  const { uploadId, width, height } = (await upload.json()) as { uploadId: string; width: number; height: number };
  expect([width, height]).toEqual([800, 600]);
  const answer = await request.post('/v1/orders', {
    data: {
      kind: 'custom',
      uploadId,
      style: 'impressionist',
      subjects: 1,
      size: '50x70',
      frame: 'stretched',
      locale,
      notes: 'Bitte mit Abendlicht.',
      customer: { name: 'Clara Schumann', email, address: 'Schillerstraße 5', city: 'Leipzig', postalCode: '04109', country: 'DE' },
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { code: string }).code;
}

/** A search in each language that finds nothing in the catalog, and the words the custom page then shows. */
const emptySearch = {
  de: { q: 'Sonnenblumen', received: 'Foto erhalten: dog-in-a-field.jpg', notes: 'Aus meiner Suche: „Sonnenblumen“' },
  ja: { q: 'ひまわり', received: '写真を受け付けました：dog-in-a-field.jpg', notes: '検索した言葉：「ひまわり」' },
} as const;

/**
 * The way a shopper comes to a custom painting when the catalog has not got what they want (issue
 * #42, "Done when"): a search that finds nothing, its offer to paint any picture, the custom page
 * with the words carried into the notes, a photo, a style, the details, the order; then the order
 * page's transfer details, each value copyable. The order's code.
 */
async function customOrderFromAnEmptySearch(browser: Browser, locale: 'de' | 'ja', email: string) {
  const words = emptySearch[locale];
  const context = await browser.newContext({ viewport: { width: 390, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  await page.goto(`/${locale}/artworks?q=${encodeURIComponent(words.q)}`);
  await expect(page.locator('main li[data-slug]').first()).toBeVisible();
  await page.locator(`main a[href$="/custom?idea=${encodeURIComponent(words.q)}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/${locale}/custom\\?idea=`));
  await page.waitForLoadState('networkidle');
  const notes = page.locator('#custom-notes');
  await expect(notes).toHaveValue(words.notes);
  // A file chosen before the form has hydrated changes nothing: choose it again until it is taken.
  await expect(async () => {
    await page.locator('input[type="file"]').setInputFiles(landscapePhotoFile);
    await expect(page.getByText(words.received)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.locator('label:has(input[name="style"][value="impressionist"])').click();
  await notes.fill(`${words.notes} Bitte mit Abendlicht.`);
  await page.locator('#custom-customer-country').selectOption('DE');
  await page.locator('#custom-customer-name').fill('Clara Schumann');
  await page.locator('#custom-customer-email').fill(email);
  await page.locator('#custom-customer-address').fill('Schillerstraße 5');
  await page.locator('#custom-customer-city').fill('Leipzig');
  await page.locator('#custom-customer-postalCode').fill('04109');
  await page.locator('main form button[type="submit"]').click();
  await expect(page).toHaveURL(new RegExp(`/${locale}/orders/[0-9A-Z]{10}\\?placed=1$`));
  const code = new URL(page.url()).pathname.split('/').pop()!;
  // Paid by transfer on this shop: every value of the transfer copies as a bank's form takes it.
  await expect(page.getByTestId('transfer-reference')).toHaveText(code);
  for (const [field, copied] of [
    ['iban', 'DE89370400440532013000'],
    ['reference', code],
  ] as const) {
    await page.getByTestId(`transfer-${field}`).locator('xpath=..').getByRole('button').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(copied);
  }
  await shoot(page, `sketch-ordered-from-search-${locale}`);
  await context.close();
  return code;
}

/** The studio's browser, signed in, on the order's page. */
async function staffPage(browser: Browser, code: string, locale = 'en') {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/staff/${locale}/sign-in`);
  await page.locator('#token').fill(E2E_ADMIN_TOKEN);
  await page.locator('form[action="/staff/api/sign-in"] button[type=submit]').click();
  await expect(page).toHaveURL(new RegExp(`/staff/${locale}$`));
  await page.goto(`/staff/${locale}/orders/${code}`);
  return page;
}

/** The customer's browser on their order page (the e-mail as the order form leaves it for the tab). */
async function customerPage(browser: Browser, code: string, email: string, locale: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${code}`, email]);
  const page = await context.newPage();
  await page.goto(`/${locale}/orders/${code}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(code);
  return page;
}

/** Moves the order on from the staff page, confirming when the page asks. */
async function move(page: Page, status: string, label: string, options: { confirm?: boolean; tracking?: string } = {}) {
  await page.getByLabel('Move to').selectOption(status);
  if (options.tracking) await page.getByLabel('Tracking number').fill(options.tracking);
  await page.getByRole('button', { name: `Move to “${label}”` }).click();
  if (options.confirm) {
    await expect(page.getByTestId('confirm-move')).toBeVisible();
    await page.getByRole('button', { name: `Yes, move to “${label}”` }).click();
  }
  await expect(page.getByTestId('order-status')).toHaveText(label);
}

async function addSketch(page: Page, note: string) {
  await page.getByTestId('photo-drop').locator('input[type=file]').setInputFiles({ name: 'sketch.jpg', mimeType: 'image/jpeg', buffer: sketchPhoto });
  await expect(page.getByLabel('What it shows')).toHaveValue('sketch');
  await page.getByLabel('Caption for the customer (optional)').fill(note);
  await page.getByRole('button', { name: 'Add the photo' }).click();
  await expect(page.getByTestId('photo-outcome')).toContainText('they have been asked to approve it');
}

/** The studio photographs the finished painting (while it dries). */
async function addFinishedPhoto(page: Page) {
  await page.getByTestId('photo-drop').locator('input[type=file]').setInputFiles({ name: 'finished.jpg', mimeType: 'image/jpeg', buffer: sketchPhoto });
  await page.getByLabel('What it shows').selectOption('finished');
  await page.getByRole('button', { name: 'Add the photo' }).click();
  await expect(page.getByTestId('photo-outcome')).toBeVisible();
}

/** Waits until every image the selector finds (the thumbnails, not their closed full-size dialogs) has loaded. */
const loaded = (page: Page, selector: string, count: number) =>
  expect
    .poll(() =>
      page
        .locator(`${selector}:not(dialog img)`)
        .evaluateAll((images) => images.map((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)),
    )
    .toEqual(Array(count).fill(true));

/** The step the customer's timeline marks as current. */
const currentStep = (page: Page) => page.locator('[aria-current="step"]').getAttribute('data-step');

test('German: from a search that found nothing to a custom order; sketch, changes asked, a second sketch, approved, then painted and delivered, the customer seeing every step', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const email = `clara.${stamp()}@example.de`;
  const code = await customOrderFromAnEmptySearch(browser, 'de', email);
  const staff = await staffPage(browser, code);
  // Landscape from the photo to the studio: 70 wide, 50 high.
  await expect(staff.getByTestId('staff-size')).toHaveText('70 × 50 cm · landscape');
  // Unpaid: moving on says what the customer will see, and waits for a yes.
  await staff.getByLabel('Move to').selectOption('sketching');
  await staff.getByRole('button', { name: 'Move to “Sketching”' }).click();
  await expect(staff.getByTestId('confirm-move')).toContainText('“Payment received” on their order page');
  await staff.getByRole('button', { name: 'Not now' }).click();
  await expect(staff.getByTestId('order-status')).toHaveText('Awaiting payment');
  await move(staff, 'paid', 'Paid', { confirm: true });
  await move(staff, 'sketching', 'Sketching');

  const customer = await customerPage(browser, code, email, 'de');
  await expect(customer.getByTestId('order-size')).toHaveText('70 × 50 cm · Querformat');
  await expect(customer.getByText('Der Maler zeichnet Ihre Skizze.')).toBeVisible();
  await expect(customer.getByTestId('sketch-decision')).toHaveCount(0);
  // Their own photo is shown back to them, not an icon.
  await loaded(customer, 'img[alt="Das Foto, das Sie geschickt haben"]', 1);
  await expect(customer.getByTestId('sketch-fact')).toHaveText('Wird gezeichnet');

  await addSketch(staff, 'Erste Skizze');
  await customer.reload();
  const decision = customer.getByTestId('sketch-decision');
  await expect(decision.getByRole('heading')).toHaveText('Ihre Skizze ist fertig');
  await loaded(customer, '[data-testid="sketch-decision"] img', 2);
  await shoot(customer, 'sketch-customer-de-waiting');
  await decision.getByRole('button', { name: 'Änderungen wünschen' }).click();
  await decision.getByRole('button', { name: 'Änderungen senden' }).click();
  await expect(decision.getByRole('alert')).toHaveText('Bitte sagen Sie dem Maler, was er ändern soll.');
  await decision.getByLabel('Was soll der Maler ändern?').fill('Der Himmel etwas heller, bitte.');
  await decision.getByRole('button', { name: 'Änderungen senden' }).click();
  await expect(customer.getByTestId('sketch-decision')).toHaveCount(0);
  await expect(customer.getByText('Sie haben Änderungen an der Skizze gewünscht.')).toBeVisible();
  await expect(customer.getByText('Der Himmel etwas heller, bitte.')).toBeVisible();

  // The studio sees the answer at once, on the board and the order.
  await staff.goto('/staff/en');
  await expect(staff.locator(`tr[data-code="${code}"]`).getByTestId('board-answered')).toHaveText('Customer asked for changes');
  await staff.goto(`/staff/en/orders/${code}`);
  await expect(staff.getByTestId('customer-answered')).toContainText('asked for changes');
  await expect(staff.getByTestId('history')).toContainText('Der Himmel etwas heller, bitte.');
  await addSketch(staff, 'Zweite Skizze, hellerer Himmel');
  await shoot(staff, 'sketch-staff-en');

  await customer.reload();
  await expect(customer.getByTestId('sketch-decision')).toBeVisible();
  await customer.getByRole('button', { name: 'Skizze freigeben' }).click();
  await expect(customer.getByText('Sie haben die Skizze freigegeben.')).toBeVisible();
  await expect(customer.getByTestId('sketch-decision')).toHaveCount(0);
  expect(await customer.locator('[data-testid="timeline-entry"] [data-photo-kind="sketch"]').count()).toBe(2);

  await staff.reload();
  await expect(staff.getByTestId('customer-answered')).toContainText('approved the sketch');
  for (const [status, label, tracking] of [
    ['painting', 'Painting'],
    ['drying', 'Drying'],
    ['shipped', 'Shipped', 'JD0146000062'],
    ['delivered', 'Delivered'],
  ] as const) {
    await move(staff, status, label, { tracking });
    if (status === 'drying') await addFinishedPhoto(staff);
    await customer.reload();
    await expect(customer.getByTestId('order-size')).toBeVisible();
    if (status === 'delivered') await expect(customer.locator('[data-step="delivered"]')).toHaveAttribute('data-state', 'done');
    else expect(await currentStep(customer)).toBe(status);
  }
  await expect(customer.getByTestId('tracking-number')).toHaveText('JD0146000062');
  // Delivered opens with the finished painting, large, and the way to order another.
  const delivered = customer.getByTestId('order-delivered');
  await expect(delivered.getByRole('heading', { name: 'Ihr Gemälde ist angekommen' })).toBeVisible();
  await expect(delivered.locator('[data-photo-kind="finished"][data-size="large"]')).toBeVisible();
  await expect(delivered.getByRole('link', { name: 'Noch ein Auftragsgemälde bestellen' })).toHaveAttribute('href', '/de/custom');
  // The showcase permission, asked again where the finished painting is: given, kept, taken back.
  const ask = delivered.getByTestId('showcase-ask');
  await expect(ask).toHaveAttribute('data-consent', 'false');
  await expect(ask.getByRole('link', { name: 'Galerie' })).toHaveAttribute('href', '/de/showcase');
  await ask.getByRole('button', { name: 'Ja, Sie dürfen es zeigen' }).click();
  await expect(ask).toHaveAttribute('data-consent', 'true');
  await customer.reload();
  await expect(ask).toContainText('Sie erlauben uns, das fertige Gemälde');
  await shoot(customer, 'sketch-customer-de-delivered');
  await ask.getByRole('button', { name: 'Nicht zeigen' }).click();
  await expect(ask).toHaveAttribute('data-consent', 'false');
  const lookup = await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`);
  expect(((await lookup.json()) as { order: { showcaseConsent: boolean } }).order.showcaseConsent).toBe(false);
});

test('Japanese: from a search that found nothing to a custom order; the customer sees the sketch and approves it; the pages read well at phone and desktop widths', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const email = `haruki.${stamp()}@example.jp`;
  const code = await customOrderFromAnEmptySearch(browser, 'ja', email);
  const staff = await staffPage(browser, code, 'ja');
  await expect(staff.getByTestId('staff-size')).toHaveText('70 × 50 cm · 横');
  await staff.goto(`/staff/en/orders/${code}`);
  await move(staff, 'paid', 'Paid', { confirm: true });
  await move(staff, 'sketching', 'Sketching');
  await addSketch(staff, '最初の下絵です');

  const customer = await customerPage(browser, code, email, 'ja');
  await expect(customer.getByTestId('sketch-decision').getByRole('heading')).toHaveText('スケッチができあがりました');
  await expect(customer.getByTestId('order-size')).toHaveText('70 × 50 cm · 横向き');
  await shoot(customer, 'sketch-customer-ja-waiting');
  // The sketch opens at full size and closes again.
  await customer.getByRole('button', { name: '拡大表示：スケッチ' }).first().click();
  await expect(customer.locator('dialog[open]')).toBeVisible();
  await customer.getByRole('button', { name: '閉じる' }).click();
  await expect(customer.locator('dialog[open]')).toHaveCount(0);
  await customer.getByRole('button', { name: 'スケッチを承認する' }).click();
  await expect(customer.getByText('スケッチをご承認いただきました。')).toBeVisible();
  await shoot(customer, 'sketch-customer-ja-approved');
  await staff.goto(`/staff/ja/orders/${code}`);
  await shoot(staff, 'sketch-staff-ja');

  // Painted, dried (the studio photographs it), shipped and delivered: the customer is shown the
  // finished painting first, large.
  await staff.goto(`/staff/en/orders/${code}`);
  for (const [status, label, tracking] of [
    ['painting', 'Painting'],
    ['drying', 'Drying'],
    ['shipped', 'Shipped', 'JD0146000063'],
    ['delivered', 'Delivered'],
  ] as const) {
    await move(staff, status, label, { tracking });
    if (status === 'drying') await addFinishedPhoto(staff);
  }
  await customer.reload();
  const delivered = customer.getByTestId('order-delivered');
  await expect(delivered.locator('[data-photo-kind="finished"][data-size="large"]')).toBeVisible();
  // The way to order another custom painting.
  await expect(delivered.locator('a[href="/ja/custom"]')).toBeVisible();
  await expect(customer.getByTestId('tracking-number')).toHaveText('JD0146000063');
  await shoot(customer, 'sketch-customer-ja-delivered');
});

/** What the customer's page says, in their language, when the studio recorded the approval. */
const recordedIn = {
  de: {
    askChanges: 'Änderungen wünschen',
    sendChanges: 'Änderungen senden',
    comment: 'Der Himmel etwas wärmer.',
    asked: 'Sie haben Änderungen an der Skizze gewünscht.',
    step: 'Das Atelier hat die Skizze als freigegeben vermerkt.',
    entry: 'Das Atelier hat Ihre Freigabe der Skizze vermerkt.',
    fact: 'Freigegeben (vom Atelier vermerkt)',
    ownClick: 'Sie haben die Skizze freigegeben.',
  },
  ja: {
    askChanges: '変更を依頼する',
    sendChanges: '変更内容を送る',
    comment: '空をもう少し暖かい色に。',
    asked: 'スケッチの変更をご依頼いただきました。',
    step: 'アトリエがスケッチを承認済みとして記録しました。',
    entry: 'スケッチのご承認をアトリエが記録しました。',
    fact: '承認済み（アトリエが記録）',
    ownClick: 'スケッチをご承認いただきました。',
  },
} as const;

for (const locale of ['de', 'ja'] as const) {
  test(`${locale}: after a request for changes painting waits for an approval; one the studio records is shown as the studio's, and the estimate moved`, async ({
    browser,
    request,
  }) => {
    const words = recordedIn[locale];
    const email = `changes.${stamp()}@example.com`;
    const code = await customOrder(request, locale, email);
    const staff = await staffPage(browser, code);
    await move(staff, 'paid', 'Paid', { confirm: true });
    // Paid but not sketching: the studio is not offered a sketch (and the door refuses one).
    await expect(staff.getByLabel('What it shows').locator('option')).toHaveText(['Progress', 'Finished']);
    await move(staff, 'sketching', 'Sketching');
    await addSketch(staff, 'First sketch');

    const customer = await customerPage(browser, code, email, locale);
    const before = await customer.getByTestId('order-estimate').textContent();
    const decision = customer.getByTestId('sketch-decision');
    await decision.getByRole('button', { name: words.askChanges }).click();
    await decision.getByRole('textbox').fill(words.comment);
    await decision.getByRole('button', { name: words.sendChanges }).click();
    await expect(customer.getByText(words.asked)).toBeVisible();
    await customer.reload();
    // A second sketch to draw and approve: the door is three working days further off.
    await expect(customer.getByTestId('order-estimate')).not.toHaveText(before!);

    // The studio cannot start painting over the request; the form asks it to record an approval.
    const refused = await request.post(`/v1/admin/orders/${code}/status`, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { status: 'painting' } });
    expect(refused.status()).toBe(409);
    await staff.reload();
    await staff.getByLabel('Move to').selectOption('painting');
    const moveButton = staff.getByRole('button', { name: 'Move to “Painting”' });
    await expect(moveButton).toBeDisabled();
    await expect(staff.getByText('They asked for changes: painting starts once they approve a sketch.')).toBeVisible();
    await shoot(staff, `sketch-staff-record-approval-${locale}`);
    await staff.getByLabel("Record the customer's approval of the sketch, given by phone or e-mail").check();
    await staff.getByLabel('Note for the customer').fill('Agreed on the phone.');
    await moveButton.click();
    await expect(staff.getByTestId('order-status')).toHaveText('Painting');
    // No sketch once painting has started.
    await expect(staff.getByLabel('What it shows').locator('option')).toHaveText(['Progress', 'Finished']);

    await customer.reload();
    expect(await currentStep(customer)).toBe('painting');
    await expect(customer.getByTestId('timeline-sketch')).toHaveText(words.step);
    await expect(customer.getByText(words.entry)).toBeVisible();
    await expect(customer.getByTestId('sketch-fact')).toHaveText(words.fact);
    // Never the customer's own click.
    await expect(customer.getByText(words.ownClick)).toHaveCount(0);
    await shoot(customer, `sketch-customer-${locale}-recorded`);
  });
}
