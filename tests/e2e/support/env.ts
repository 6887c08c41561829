import os from 'node:os';
import path from 'node:path';

/** Debian's Chromium; without it the end-to-end tests are skipped (playwright.config.ts). */
export const E2E_CHROMIUM = '/usr/bin/chromium';

/** The shop every spec browses. */
export const E2E_PORT = 3107;
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** The staff token the end-to-end server is started with (playwright.config.ts), so staff tests can sign in. */
export const E2E_ADMIN_TOKEN = 'e2e-staff-token-7d41c2a9-5b80e3f61c4a';

/**
 * Where the end-to-end server also writes its log (LOG_FILE), inside its data folder, which every
 * run starts without: tests/e2e/zz-logs.spec.ts, the last spec, reads it.
 */
export const E2E_LOG_FILE = path.join(os.tmpdir(), 'art-prints-e2e', 'logs', 'shop.log');

/** How to pay on the end-to-end server, which has no payment provider: a bank transfer to this account, with a note. */
export const E2E_BANK = {
  BANK_ACCOUNT_HOLDER: 'Atelier Prints (example)',
  BANK_IBAN: 'DE89 3704 0044 0532 0130 00',
  BANK_BIC: 'COBADEFFXXX',
  BANK_NAME: 'Commerzbank',
  PAYMENT_INSTRUCTIONS: 'Transfers from outside the euro area: please pay the bank charges.',
};

/** Which server the run tests: `production` (`npm start`, playwright.config.ts) or `dev` (`npm run dev`, playwright.dev.config.ts). */
export const E2E_SERVER: 'production' | 'dev' = process.env.E2E_SERVER === 'dev' ? 'dev' : 'production';

/** The `npm run dev` shop of playwright.dev.config.ts. */
export const E2E_DEV_PORT = 3111;
