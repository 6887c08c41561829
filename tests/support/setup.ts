import { inject } from 'vitest';

// Every test file talks to the run's real PostgreSQL through the same client the app uses.
process.env.DATABASE_URL = inject('databaseUrl');
// The staff token of the test run (staff endpoints are closed when none is configured).
process.env.ADMIN_TOKEN = 'test-staff-token-5c1f0e';
