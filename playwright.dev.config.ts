import { defineConfig } from '@playwright/test';
import production from './playwright.config';
import { E2E_DEV_PORT } from './tests/e2e/support/env';

/**
 * The smoke subset against `npm run dev` (issue 40: development is production): the /v1 contract
 * (api.spec.ts) and what a client and a shopper meet first (smoke.spec.ts), on Next's development
 * server in the same server.mjs, with the same expectations as on the production server.
 */
process.env.E2E_SERVER = 'dev';

export default defineConfig({
  ...production,
  globalSetup: './tests/e2e/support/dev-shop.ts',
  testMatch: ['api.spec.ts', 'smoke.spec.ts'],
  // A route's first request compiles it (tests/e2e/support/dev-shop.ts warms the ones asked for).
  timeout: 120_000,
  use: { ...production.use, baseURL: `http://127.0.0.1:${E2E_DEV_PORT}` },
  webServer: undefined,
});
