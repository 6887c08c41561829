import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { E2E_ADMIN_TOKEN, E2E_LOG_FILE, E2E_PAYMENT_INSTRUCTIONS } from './tests/e2e/support/env';
import { E2E_OIDC_URL, e2eGoogleEnv } from './tests/support/e2e-oidc';
import { E2E_PAYING_SHOP_PORT, E2E_PAYING_SHOP_URL, E2E_STRIPE_URL, e2eStripeEnv } from './tests/support/e2e-stripe';

/**
 * End-to-end tests against the real shop: `npm start` with its embedded PostgreSQL in a fresh temp
 * folder. Browsers cannot be downloaded here, so Debian's Chromium is used (`apt-get install
 * chromium`); without it the tests are skipped, loudly, instead of failing.
 */
const chromium = '/usr/bin/chromium';
const chromiumAvailable = existsSync(chromium);

if (!chromiumAvailable) {
  const bar = '!'.repeat(78);
  console.warn(
    `\n${bar}\n!! ${chromium} not found: the end-to-end tests are SKIPPED.\n` +
      `!! Install it with: apt-get update && apt-get install -y chromium\n${bar}\n`,
  );
}

const port = 3107;
// Without Chromium no server is started either; each spec skips itself.
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests/e2e',
  // One server and one database for every test; the tests only read.
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  // On CI one retry: a test that fails twice fails; one that passes on its retry is reported as
  // flaky in the output (two hydration races were seen on this 2-core machine).
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: chromium,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: chromiumAvailable
    ? [
        // Google for the run: a local OpenID Connect issuer (tests/support/e2e-oidc.ts) for the sign-in tests.
        {
          command: 'node --import tsx tests/support/e2e-oidc.ts --serve',
          url: `${E2E_OIDC_URL}/.well-known/openid-configuration`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'pipe',
          stderr: 'pipe',
        },
        {
          command: 'npm start',
          url: `${baseURL}/en`,
          env: {
            PORT: String(port),
            DATA_DIR: path.join(os.tmpdir(), 'art-prints-e2e'),
            ADMIN_TOKEN: E2E_ADMIN_TOKEN,
            // The log of the whole run, which the last spec (zz-logs.spec.ts) searches for secrets and e-mail addresses.
            LOG_FILE: E2E_LOG_FILE,
            LOG_LEVEL: 'debug',
            // Every spec's browser is one client (127.0.0.1): the per-customer allowances would trip
            // across specs, not within one.
            RATE_LIMIT_MULTIPLIER: '10',
            // As behind a load balancer: limits.spec.ts speaks as another address through X-Forwarded-For.
            TRUST_PROXY: '1',
            ...e2eGoogleEnv(baseURL),
            // Without a payment provider, orders say how to pay by bank transfer (payment.spec.ts).
            PAYMENT_INSTRUCTIONS: E2E_PAYMENT_INSTRUCTIONS,
          },
          reuseExistingServer: false,
          timeout: 600_000,
          stdout: 'pipe',
          stderr: 'pipe',
        },
        // Stripe for the run: the stand-in with its hosted checkout pages (tests/support/e2e-stripe.ts).
        {
          command: 'node --import tsx --import ./scripts/server-process.mjs tests/support/e2e-stripe.ts --serve',
          // Answers 401 without the API key: up.
          url: `${E2E_STRIPE_URL}/v1/checkout/sessions`,
          reuseExistingServer: false,
          timeout: 60_000,
          stdout: 'pipe',
          stderr: 'pipe',
        },
        // A second shop that takes payment through that stand-in (payment.spec.ts); started after the
        // first has built the site, so it serves the same build.
        {
          command: 'npm start',
          url: `${E2E_PAYING_SHOP_URL}/en`,
          env: {
            PORT: String(E2E_PAYING_SHOP_PORT),
            DATA_DIR: path.join(os.tmpdir(), 'art-prints-e2e-paying'),
            ADMIN_TOKEN: E2E_ADMIN_TOKEN,
            RATE_LIMIT_MULTIPLIER: '10',
            PUBLIC_BASE_URL: E2E_PAYING_SHOP_URL,
            ...e2eStripeEnv(),
          },
          reuseExistingServer: false,
          timeout: 600_000,
          stdout: 'pipe',
          stderr: 'pipe',
        },
      ]
    : undefined,
});
