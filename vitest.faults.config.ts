import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: every fault test (tests/faults, the fast ones also run in `npm test`) and
 * the two-instance tests (tests/instances), which start production servers of their own and so run
 * one file at a time. Run it alone on the machine: `flock /tmp/atelier-heavy.lock npm run test:faults`.
 */
export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Tests run the server's modules, as Next's server bundles do: `server-only` is its empty module
      // here (the package throws outside the react-server condition). docs/architecture.md "One-way layers".
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
    },
  },
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
