import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
    // tests/faults/*.test.ts are the fast fault tests; tests/faults/servers/ start production servers (npm run test:faults only).
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/fuzz/**/*.test.ts', 'tests/faults/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    setupFiles: ['tests/support/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
