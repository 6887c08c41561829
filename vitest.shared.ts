import { fileURLToPath } from 'node:url';

/**
 * What every Vitest run resolves alike (vitest.config.ts, vitest.faults.config.ts,
 * vitest.image.config.ts): the `@/` paths, and `server-only` as its empty module, since tests run the
 * server's modules as Next's server bundles do (the package throws outside the react-server
 * condition; docs/architecture.md "One-way layers").
 */
export const resolve = {
  alias: {
    '@': fileURLToPath(new URL('./src', import.meta.url)),
    'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
  },
};
