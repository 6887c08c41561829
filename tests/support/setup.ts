import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, inject } from 'vitest';

// Every test file talks to the run's real PostgreSQL through the same client the app uses.
process.env.DATABASE_URL = inject('databaseUrl');
// The staff token of the test run (staff endpoints are closed when none is configured).
process.env.ADMIN_TOKEN = 'test-staff-token-5c1f0e';
// A data folder of the test file's own (private uploads and their spool files), never the project's .data.
const dataDir = mkdtempSync(path.join(tmpdir(), 'art-prints-data-'));
process.env.DATA_DIR = dataDir;
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
