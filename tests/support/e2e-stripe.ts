/**
 * The end-to-end run's Stripe: the stand-in of tests/support/stripe.ts on a fixed port, with its
 * hosted checkout pages on, started by playwright.config.ts as a web server. The paying shop
 * (E2E_PAYING_SHOP_URL, a second `npm start` of the run) is configured with it; its "Pay" button
 * sends a signed checkout.session.completed to that shop's webhook, as Stripe would.
 *
 *   node --import tsx --import ./scripts/server-process.mjs tests/support/e2e-stripe.ts --serve
 */
import { STRIPE_TEST_KEY, WEBHOOK_SECRET } from './stripe';

export const E2E_STRIPE_PORT = 3109;
export const E2E_STRIPE_URL = `http://127.0.0.1:${E2E_STRIPE_PORT}`;
export const E2E_PAYING_SHOP_PORT = 3110;
export const E2E_PAYING_SHOP_URL = `http://127.0.0.1:${E2E_PAYING_SHOP_PORT}`;

/** What the paying shop's server needs to take payment through this stand-in. */
export const e2eStripeEnv = (): Record<string, string> => ({
  STRIPE_SECRET_KEY: STRIPE_TEST_KEY,
  STRIPE_API_BASE: E2E_STRIPE_URL,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});

if (process.argv.includes('--serve')) {
  const { startStripeServer } = await import('./stripe');
  const stripe = await startStripeServer({ port: E2E_STRIPE_PORT, payPages: { webhookUrl: `${E2E_PAYING_SHOP_URL}/v1/payments/stripe-webhook` } });
  console.log(`e2e Stripe stand-in at ${stripe.url}`);
  const stop = () => void stripe.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
