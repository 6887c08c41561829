/**
 * `node --import tsx --import ./scripts/server-process.mjs <script>`: run a script that loads the
 * server's modules (src/server) outside Next.
 *
 * Every server module begins with `import 'server-only'`, so Next refuses to build a browser bundle
 * that reaches one. That package throws when it is imported without the `react-server` condition,
 * which Next's server bundles set and a plain Node process does not. This process *is* a server,
 * so here the one specifier `server-only` is resolved as under `react-server` (to the package's
 * empty module); nothing else is resolved differently (`--conditions=react-server` would also
 * switch React and next-intl to their server builds). Vitest does the same with an alias
 * (vitest.config.ts). docs/architecture.md "One-way layers".
 */
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, nextResolve) {
  if (specifier !== 'server-only') return nextResolve(specifier, context);
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, 'react-server'] });
}`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
