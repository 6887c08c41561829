import { inject } from 'vitest';

// Every test file talks to the run's real PostgreSQL through the same client the app uses.
process.env.DATABASE_URL = inject('databaseUrl');
