import { defineConfig } from 'vitest/config';
import { resolve } from './vitest.shared.ts';

export default defineConfig({
  resolve,
  test: {
    // tests/faults/*.test.ts are the fast fault tests; tests/faults/servers/ start production servers (npm run test:faults only).
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/fuzz/**/*.test.ts', 'tests/faults/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
