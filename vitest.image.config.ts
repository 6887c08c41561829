import { defineConfig } from 'vitest/config';
import { resolve } from './vitest.shared.ts';

/**
 * `npm run test:image`: the production image's tree, made by following the Dockerfile
 * (scripts/lib/image-tree.ts), started and asked for an order and pages (tests/image). Minutes of
 * install and build: a run of its own, after the other tests (`npm test`).
 */
export default defineConfig({
  resolve,
  test: {
    include: ['tests/image/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 1_200_000,
    pool: 'forks',
  },
});
