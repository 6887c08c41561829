import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';

// Every test file talks to the run's real PostgreSQL through the same client the app uses.
process.env.DATABASE_URL = inject('databaseUrl');
// The staff token of the test run (staff endpoints are closed when none is configured).
process.env.ADMIN_TOKEN = 'test-staff-token-5c1f0e';
// The webhook secret Stripe would sign with (tests sign with tests/support/stripe.ts). No
// STRIPE_SECRET_KEY: orders answer checkoutUrl null unless a test hands a checkout in.
process.env.STRIPE_WEBHOOK_SECRET = 'whsec_test_local_secret';
// Every test calls from one client (`local`): the per-client limits would trip across unrelated
// tests, so they are off unless a test hands a context with limits in (tests/integration/limits.test.ts).
process.env.RATE_LIMIT_MULTIPLIER = '0';
// The staff-token lockout holds whatever the multiplier says; here unrelated tests' wrong tokens
// would lock each other out, so the suite turns it off (tests/integration/limits.test.ts keeps it on).
process.env.STAFF_LOCKOUT_OFF = '1';
// Services a developer's shell may configure stay off; tests hand in local stand-ins explicitly.
for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_API_BASE', 'SMTP_URL', 'INNGEST_EVENT_KEY', 'INNGEST_DEV', 'UPLOAD_STORAGE']) delete process.env[name];
// A data folder of the test file's own (private uploads and their spool files), never the project's .data.
const dataDir = mkdtempSync(path.join(tmpdir(), 'art-prints-data-'));
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
