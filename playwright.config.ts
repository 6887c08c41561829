import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS } from './scripts/lib/chromium';
import { E2E_BASE_URL, E2E_CHROMIUM } from './tests/e2e/support/env';
import { E2E_OIDC_URL } from './tests/support/e2e-oidc';
import { E2E_STRIPE_URL } from './tests/support/e2e-stripe';

/**
 * End-to-end tests against the real shop: `npm start` with its embedded PostgreSQL in a temp
 * folder, started by the global setup (tests/e2e/support/shops.ts, through the helper every test,
 * benchmark and Lighthouse run uses: scripts/lib/shop-server.ts) once the stand-ins below are up.
 * Browsers cannot be downloaded here, so Debian's Chromium is used (`apt-get install chromium`);
 * without it the tests are skipped, loudly, instead of failing.
 */
const chromium = E2E_CHROMIUM;
const chromiumAvailable = existsSync(chromium);

if (!chromiumAvailable) {
  const bar = '!'.repeat(78);
  console.warn(`\n${bar}\n!! ${chromium} not found: the end-to-end tests are SKIPPED.\n` + `!! Install it with: apt-get update && apt-get install -y chromium\n${bar}\n`);
}

// Without Chromium no server is started either; each spec skips itself.
const baseURL = E2E_BASE_URL;

export default defineConfig({
  testDir: 'tests/e2e',
  // The shops (after the web servers below, which Playwright starts first); its answer stops them.
  globalSetup: './tests/e2e/support/shops.ts',
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
          args: ['--headless', ...CHROMIUM_FLAGS],
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
      ]
    : undefined,
});
