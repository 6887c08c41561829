import { existsSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { shoot } from './support/screenshots';
import { E2E_PAYING_SHOP_URL, E2E_STRIPE_URL } from '../support/e2e-stripe';
import { signed, STRIPE_TEST_KEY, stripeEvent } from '../support/stripe';
import { E2E_ADMIN_TOKEN } from './support/env';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * decisions.md "Payments and refunds" as the customer and the studio see it, on the shop that takes
 * payment through the Stripe stand-in: a refund made on the staff order page, and the order page of
 * a refunded, a processing and a disputed order, in German and Japanese at 390 and 1440 px.
 */
test.use({ baseURL: E2E_PAYING_SHOP_URL });

const stamp = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
type Locale = 'de' | 'ja';
const customers: Record<Locale, { name: string; address: string; city: string; postalCode: string; country: string }> = {
  de: { name: 'Gabriele Münter', address: 'Kottmüllerallee 6', city: 'Murnau', postalCode: '82418', country: 'DE' },
  ja: { name: '葛飾 北斎', address: '墨田区亀沢2-7-2', city: '東京都', postalCode: '130-0014', country: 'JP' },
};

/** An order at the paying shop; its code, e-mail and Checkout session. */
async function order(request: APIRequestContext, locale: Locale) {
  const email = `money.${stamp()}@example.com`;
  const answer = await request.post('/v1/orders', {
    data: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '50x70', frame: 'framed', locale, customer: { ...customers[locale], email } },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const { code, checkoutUrl } = (await answer.json()) as { code: string; checkoutUrl: string };
  return { code, email, checkoutUrl, session: checkoutUrl.split('/').at(-1)! };
}

/** The customer pays on the stand-in's page (Stripe then sends the shop its signed event); answers the payment's id. */
async function pay(request: APIRequestContext, placed: { checkoutUrl: string; session: string }) {
  expect((await request.post(placed.checkoutUrl, { maxRedirects: 0 })).status()).toBe(303);
  const session = await request.get(`${E2E_STRIPE_URL}/v1/checkout/sessions/${placed.session}`, { headers: { authorization: `Bearer ${STRIPE_TEST_KEY}` } });
  return ((await session.json()) as { payment_intent: string }).payment_intent;
}

/** Delivers an event to the shop's webhook, signed as Stripe signs. */
async function deliver(request: APIRequestContext, event: unknown) {
  const payload = JSON.stringify(event);
  const answer = await request.post('/v1/payments/stripe-webhook', { headers: signed(payload), data: payload });
  expect(answer.status(), await answer.text()).toBe(200);
  return ((await answer.json()) as { outcome: string }).outcome;
}

async function openOrder(page: Page, locale: Locale, placed: { code: string; email: string }) {
  await page.addInitScript(([key, value]) => sessionStorage.setItem(key!, value!), [`atelier:order-email:${placed.code}`, placed.email]);
  await page.goto(`/${locale}/orders/${placed.code}`);
  await expect(page.getByTestId('payment-panel')).toBeVisible();
}

test('the studio refunds part of an order on its page; the customer sees what went back and when', async ({ page, request }) => {
  const placed = await order(request, 'de');
  await pay(request, placed);
  await page.goto('/staff/en/sign-in');
  await page.locator('#token').fill(E2E_ADMIN_TOKEN);
  await page.locator('form[action="/staff/api/sign-in"] button[type=submit]').click();
  await page.goto(`/staff/en/orders/${placed.code}`);
  const money = page.getByTestId('staff-payment');
  await expect(money).toContainText('Paid');
  const form = page.getByTestId('refund-form');
  // Prefilled with everything left: the order's total.
  await expect(form.getByLabel('Amount (USD)')).toHaveValue('348.00');
  await form.getByLabel('Amount (USD)').fill('50');
  await form.getByLabel('Note (the customer sees it with the amount)').fill('The frame arrived scratched.');
  await form.getByRole('button', { name: 'Refund…' }).click();
  const confirm = page.getByTestId('confirm-refund');
  await expect(confirm).toContainText('Give $50.00 back to the customer?');
  await expect(confirm).toContainText('Stripe sends it back to the card or account that paid.');
  await shoot(page, 'money-staff-refund-confirm-en');
  await confirm.getByRole('button', { name: 'Yes, refund $50.00' }).click();
  await expect(page.getByTestId('refund-outcome')).toHaveText('$50.00 refunded. The customer is e-mailed.');
  await expect(page.getByTestId('staff-refunds')).toContainText('$50.00 · through Stripe');
  await expect(page.getByTestId('staff-refunded')).toHaveText('$50.00');
  await expect(money).toContainText('Partly refunded');
  await expect(page.getByTestId('refund-form').getByLabel('Amount (USD)')).toHaveValue('298.00');
  await shoot(page, 'money-staff-refunded-en');

  for (const locale of ['de', 'ja'] as const) {
    await openOrder(page, locale, placed);
    const panel = page.getByTestId('payment-panel');
    await expect(panel).toHaveAttribute('data-payment', 'partially_refunded');
    await expect(panel).toContainText(locale === 'de' ? /Von den bezahlten 348\s\$ wurden 50\s\$ erstattet\./ : /お支払いいただいた\$348のうち\$50を返金しました。/);
    await shoot(page, `money-refunded-${locale}`);
  }
});

for (const locale of ['de', 'ja'] as const) {
  test(`${locale}: a bank debit on its way offers no new payment; a disputed payment says the work waits`, async ({ page, request }) => {
    const debit = await order(request, locale);
    const session = { id: debit.session, object: 'checkout.session', client_reference_id: debit.code, amount_total: 34800, currency: 'usd' };
    expect(
      await deliver(request, stripeEvent('checkout.session.completed', { ...session, status: 'complete', payment_status: 'unpaid', payment_intent: `pi_e2e_${stamp()}` })),
    ).toBe('processing');
    await openOrder(page, locale, debit);
    await expect(page.getByTestId('payment-panel')).toHaveAttribute('data-payment', 'processing');
    await expect(page.getByRole('button', { name: locale === 'de' ? 'Jetzt bezahlen' : '今すぐ支払う' })).toHaveCount(0);
    await shoot(page, `money-processing-${locale}`);

    const disputed = await order(request, locale);
    const paymentIntent = await pay(request, disputed);
    const dispute = {
      id: `dp_e2e_${stamp()}`,
      object: 'dispute',
      amount: 34800,
      currency: 'usd',
      payment_intent: paymentIntent,
      status: 'needs_response',
      reason: 'fraudulent',
      metadata: {},
    };
    expect(await deliver(request, stripeEvent('charge.dispute.created', dispute))).toBe('dispute_opened');
    await openOrder(page, locale, disputed);
    await expect(page.getByTestId('payment-panel')).toHaveAttribute('data-payment', 'disputed');
    await shoot(page, `money-disputed-${locale}`);
  });
}
