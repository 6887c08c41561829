import { defineConfig } from 'vitest/config';
import { resolve } from './vitest.shared.ts';

/**
 * `npm run test:faults`: every fault test (tests/faults, the fast ones also run in `npm test`) and
 * the two-instance tests (tests/instances), which start production servers of their own and so run
 * one file at a time. Run it alone on the machine: `flock /tmp/atelier-heavy.lock npm run test:faults`.
 */
export default defineConfig({
  resolve,
  test: {
    include: ['tests/faults/**/*.test.ts', 'tests/instances/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 900_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
