import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { startShopServer, type ShopServer } from '../../scripts/lib/shop-server';
import { shoot } from './support/screenshots';
import { E2E_ADMIN_TOKEN, E2E_BANK } from './support/env';
import { E2E_PAYING_SHOP_URL, e2eStripeEnv } from '../support/e2e-stripe';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * Before ordering, a shopper sees when the painting arrives and that the price includes shipping;
 * after ordering, a customer who did not pay at once pays later ("Pay now" through the Stripe
 * stand-in, on the shop that takes payment), or reads how to pay by transfer (the shop that does not).
 */

const customer = (email: string) => ({ name: 'Gabriele Münter', email, address: 'Kottmüllerallee 6', city: 'Murnau', postalCode: '82418', country: 'DE' });
const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test('German: the delivery estimate and "shipping included" beside the price, then the order button in the legal wording', async ({ page }) => {
  await page.goto('/de/artworks/the-starry-night');
  const estimate = page.getByTestId('delivery-estimate');
  await expect(estimate).toContainText(/Bei Bestellung heute voraussichtlich bei Ihnen: .*\d{4}\./);
  await expect(estimate).toContainText('Preise in US-Dollar inkl. MwSt., versicherter Versand mit Sendungsverfolgung inklusive.');
  // "Ab" names the choice it prices: the size cards below start stretched, at a higher price.
  await expect(page.locator('main')).toContainText(/Handgemalte Reproduktionen ab 129\s\$ \(gerollte Leinwand, 40\s×\s30\scm\)/);
  const before = await estimate.textContent();
  // A larger canvas takes longer.
  await page.locator('input[name="order-size"][value="90x120"]').check();
  await expect(estimate).not.toHaveText(before!);
  await expect(page.getByRole('button', { name: /^Zahlungspflichtig bestellen · / })).toBeVisible();
  await estimate.scrollIntoViewIfNeeded();
  await shoot(page, 'payment-artwork-de');
});

test('Japanese: the custom painting page gives its delivery estimate, sketch included', async ({ page }) => {
  await page.goto('/ja/custom');
  await expect(page.getByTestId('delivery-estimate')).toContainText('スケッチのご確認を含めてお届けは');
  await expect(page.getByTestId('delivery-estimate')).toContainText('送料を含みます');
  await expect(page.getByTestId('delivery-estimate')).toContainText('関税・輸入消費税は含まれず');
  await expect(page.getByRole('button', { name: '注文を確定する（お支払い義務が発生します）' })).toBeVisible();
});

test('without a payment provider, the order page gives the bank account, the amount, the reference and the last day, each ready to copy', async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = `muenter.${stamp()}@example.de`;
  const answer = await request.post('/v1/orders', {
    data: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '30x40', frame: 'rolled', locale: 'de', customer: customer(email) },
  });
  const { code, checkoutUrl } = (await answer.json()) as { code: string; checkoutUrl: string | null };
  expect(checkoutUrl).toBeNull();
  await page.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${code}`, email]);
  await page.goto(`/de/orders/${code}?placed=1`);
  const panel = page.getByTestId('payment-panel');
  await expect(panel).toContainText('Bitte überweisen Sie auf dieses Konto.');
  // What a bank form asks, in its order: the account, the amount (30 × 40 cm rolled) and the reference.
  await expect(page.getByTestId('transfer-details').locator('dt')).toHaveText(['Kontoinhaber', 'IBAN', 'BIC', 'Bank', 'Betrag', 'Verwendungszweck']);
  await expect(page.getByTestId('transfer-accountHolder')).toHaveText('Atelier Prints (example)');
  await expect(page.getByTestId('transfer-iban')).toHaveText('DE89 3704 0044 0532 0130 00');
  await expect(page.getByTestId('transfer-amount')).toHaveText(/^129\s\$$/);
  await expect(page.getByTestId('transfer-reference')).toHaveText(code);
  await expect(page.getByTestId('payment-instructions')).toHaveText('Transfers from outside the euro area: please pay the bank charges.');
  // The day the terms cancel it unpaid: 14 days after the order.
  await expect(page.getByTestId('pay-by')).toContainText(
    new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.now() + 14 * 86_400_000)),
  );
  // Each value copies as a form takes it: the IBAN without spaces, the amount as a number.
  await page.getByRole('button', { name: 'Kopieren IBAN' }).click();
  await expect(page.getByRole('button', { name: 'Kopiert IBAN' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('DE89370400440532013000');
  await page.getByRole('button', { name: 'Kopieren Betrag' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('129.00');
  await page.getByRole('button', { name: 'Kopieren Verwendungszweck' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  await expect(page.getByTestId('order-estimate')).toContainText('2026');
  await shoot(page, 'payment-transfer-de');
});

test('the terms promise the way this shop takes payment: a bank transfer, no card, and the button says so', async ({ page }) => {
  await page.goto('/en/terms');
  const payment = page.locator('section#payment');
  await expect(payment).toContainText('By bank transfer to our account');
  await expect(payment).not.toContainText('Stripe');
  // The privacy notice names no payment provider the shop does not use.
  await page.goto('/en/privacy');
  await expect(page.locator('main')).not.toContainText('Stripe');
  await expect(page.locator('section#payment')).toContainText('For a bank transfer we see');
  await page.goto('/en/artworks/the-starry-night');
  await expect(page.getByRole('button', { name: /^Order and pay by transfer · / })).toBeVisible();
  // An English page prices in dollars and measures in inches too.
  await expect(page.locator('main')).toContainText(/Hand-painted copies from \$129, as a 40\s×\s30\scm \(16\s×\s12\sin\) rolled canvas/);
  await expect(page.getByTestId('size-30x40')).toContainText(/40\s×\s30\scm\s*16\s×\s12\sin/);
});

test('Japanese: the address form is written as a Japanese address, postal code first, and the order keeps it', async ({ page }) => {
  await page.goto('/ja/artworks/the-starry-night');
  const form = page.locator('[data-address="jp"]');
  // The page's language preselects Japan, and the fields follow a Japanese envelope.
  await expect(page.getByLabel('国')).toHaveValue('JP');
  const labels = await form.locator('label').evaluateAll((all) => all.map((label) => label.textContent?.replace(/（任意）|\s/g, '')));
  expect(labels.slice(3)).toEqual(['国', '郵便番号', '都道府県', '市区町村', '番地・建物名・部屋番号']);
  await page.getByLabel('お名前（フルネーム）').fill('葛飾 北斎');
  await page.getByLabel('メールアドレス').fill(`hokusai.${stamp()}@example.jp`);
  await page.getByLabel('郵便番号').fill('150-0002');
  await page.getByLabel('都道府県').selectOption('東京都');
  await page.getByLabel('市区町村').fill('渋谷区');
  await page.getByLabel('番地・建物名・部屋番号').fill('渋谷2-11-3 富嶽ビル5階');
  await shoot(page, 'address-jp');
  await page.getByRole('button', { name: /^注文を確定する/ }).click();
  await page.waitForURL(/\/ja\/orders\/[0-9A-Z]+\?placed=1$/);
  await expect(page.getByTestId('delivery-address')).toContainText('東京都渋谷区');
  await expect(page.getByTestId('delivery-address')).toContainText('渋谷2-11-3 富嶽ビル5階');
});

test('Japanese: the bank details read as a Japanese customer expects, at phone and desktop widths', async ({ page, request }) => {
  const email = `hokusai.${stamp()}@example.jp`;
  const answer = await request.post('/v1/orders', {
    data: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '50x70', frame: 'stretched', locale: 'ja', customer: { ...customer(email), country: 'JP' } },
  });
  const { code } = (await answer.json()) as { code: string };
  await page.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${code}`, email]);
  await page.goto(`/ja/orders/${code}`);
  await expect(page.getByTestId('transfer-details').locator('dt')).toHaveText(['口座名義', 'IBAN', 'BIC（SWIFTコード）', '銀行名', '金額', '参照番号']);
  await expect(page.getByTestId('pay-by')).toContainText('までにお支払いください');
  await shoot(page, 'payment-transfer-ja');
});

test.describe('on the shop that takes payment online', () => {
  test.use({ baseURL: E2E_PAYING_SHOP_URL });

  test('the terms promise card payment through Stripe and no bank transfer', async ({ page }) => {
    await page.goto('/en/terms');
    const payment = page.locator('section#payment');
    await expect(payment).toContainText('through our payment provider Stripe');
    await expect(payment).not.toContainText('bank transfer');
    await page.goto('/en/privacy');
    await expect(page.locator('section#payment')).toContainText('Card payments are handled by Stripe');
    await expect(page.locator('section#sharing')).toContainText('Stripe handles card payments.');
    await page.goto('/en/artworks/the-starry-night');
    await expect(page.getByRole('button', { name: /^Order and pay · / })).toBeVisible();
  });

  test('a customer who left the payment page pays later with "Pay now", and the order becomes paid once', async ({ page, request }) => {
    const email = `muenter.${stamp()}@example.de`;
    const answer = await request.post('/v1/orders', {
      data: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '50x70', frame: 'framed', locale: 'de', customer: customer(email) },
    });
    expect(answer.status()).toBe(201);
    const { code, checkoutUrl } = (await answer.json()) as { code: string; checkoutUrl: string };
    // The first payment page is left without paying.
    expect(checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:3109\/pay\/cs_test_/);

    await page.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${code}`, email]);
    await page.goto(`/de/orders/${code}?checkout=cancelled`);
    await expect(page.getByText(`Ihre Bestellung ${code} bleibt gespeichert`)).toBeVisible();
    await shoot(page, 'payment-pay-later-de');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Jetzt bezahlen' }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:3109\/pay\/cs_test_/);
    expect(page.url()).not.toBe(checkoutUrl);
    // The first session was expired when the new one was opened: it can no longer take money.
    expect((await request.get(checkoutUrl)).status()).toBe(410);
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect(page).toHaveURL(new RegExp(`/de/orders/${code}\\?checkout=success$`));
    await expect(page.getByText('Vielen Dank für Ihre Zahlung')).toBeVisible();
    await expect
      .poll(async () => {
        const lookup = await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`);
        return ((await lookup.json()) as { order: { status: string } }).order.status;
      })
      .toBe('paid');
    const lookup = (await (await request.get(`/v1/orders/${code}?email=${encodeURIComponent(email)}`)).json()) as { order: { events: { status: string }[]; payment: unknown } };
    expect(lookup.order.events.filter((e) => e.status === 'paid')).toHaveLength(1);
    expect(lookup.order.payment).toEqual({
      state: 'paid',
      paid: 34800,
      refunded: 0,
      disputed: false,
      online: false,
      instructions: null,
      bankTransfer: null,
      payBy: null,
      refunds: [],
    });
    await page.reload();
    await expect(page.getByTestId('payment-panel')).toHaveCount(0);
  });
});

// The third way a shop can be set up (README, docs/shop.md "Payment"): a Stripe key and a bank
// account. Its own shop, started here from the run's build: the two shops of the run each take one way.
test.describe('on a shop that takes card and bank transfer', () => {
  let shop: ShopServer;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    shop = await startShopServer({ prebuilt: true, env: { ADMIN_TOKEN: E2E_ADMIN_TOKEN, RATE_LIMIT_MULTIPLIER: '10', ...e2eStripeEnv(), ...E2E_BANK } });
  });
  test.afterAll(async () => {
    await shop?.stop();
  });

  test('the terms, the privacy notice and the order form name both ways, and the button says the order is paid', async ({ page }) => {
    await page.goto(`${shop.url}/en/terms`);
    const terms = page.locator('section#payment');
    await expect(terms).toContainText('through our payment provider Stripe');
    await expect(terms).toContainText('By bank transfer to our account');
    await page.goto(`${shop.url}/en/privacy`);
    await expect(page.locator('section#payment')).toContainText('Card payments are handled by Stripe');
    await expect(page.locator('section#payment')).toContainText('For a bank transfer we see');
    await page.goto(`${shop.url}/en/artworks/the-starry-night`);
    await expect(page.getByRole('button', { name: /^Order and pay · / })).toBeVisible();
    await expect(page.locator('main')).toContainText("Next you pay securely by card on Stripe's page, or by bank transfer with the details on your order page");
  });

  for (const locale of ['de', 'ja'] as const) {
    test(`${locale}: a customer who left the card payment sees "Pay now" and the bank account side by side, each value ready to copy`, async ({ page, request, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      const email = `both.${stamp()}@example.de`;
      const answer = await request.post(`${shop.url}/v1/orders`, {
        data: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '30x40', frame: 'rolled', locale, customer: customer(email) },
      });
      expect(answer.status()).toBe(201);
      const { code, checkoutUrl } = (await answer.json()) as { code: string; checkoutUrl: string | null };
      // Placed, the order goes to Stripe's page first.
      expect(checkoutUrl).toMatch(/^http:\/\/127\.0\.0\.1:3109\/pay\/cs_test_/);

      await page.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${code}`, email]);
      await page.goto(`${shop.url}/${locale}/orders/${code}?checkout=cancelled`);
      const panel = page.getByTestId('payment-panel');
      // The card first (a fresh Stripe session), then the account, the amount and the reference.
      await expect(panel.getByRole('button')).not.toHaveCount(0);
      await expect(page.getByTestId('transfer-iban')).toHaveText('DE89 3704 0044 0532 0130 00');
      await expect(page.getByTestId('transfer-amount')).toContainText('129');
      await expect(page.getByTestId('transfer-reference')).toHaveText(code);
      // The studio's note on transfers (PAYMENT_INSTRUCTIONS) goes with the account.
      await expect(page.getByTestId('payment-instructions')).toHaveText(E2E_BANK.PAYMENT_INSTRUCTIONS);
      await expect(page.getByTestId('pay-by')).toBeVisible();
      await page.getByTestId('transfer-iban').locator('xpath=..').getByRole('button').click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('DE89370400440532013000');
      await shoot(page, `payment-both-${locale}`);

      // "Pay now" opens a new Stripe session for the same order.
      await panel.getByRole('button').first().click();
      await expect(page).toHaveURL(/127\.0\.0\.1:3109\/pay\/cs_test_/);
      expect(page.url()).not.toBe(checkoutUrl);
    });
  }
});
