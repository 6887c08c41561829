// ESLint: Next's rules (core web vitals, React, hooks, accessibility) and typescript-eslint's,
// with the type-aware rules that find real bugs here (lost promises, `any` leaking into the shop's
// code, detached methods, switches that miss a status). `npm run lint`; `.ci/run` runs it.
import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

const typeChecked = Object.assign({}, ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => config.rules ?? {}));

export default defineConfig([
  globalIgnores([
    'src/generated/**', // Prisma's client, written by `npm run db:generate`
    '.next/**',
    'dist/**', // the front, the launcher and the database commands, built by esbuild (scripts/lib/site-build.ts)
    'next-env.d.ts',
    '.data/**',
    'test-results/**',
    'playwright-report/**',
    'tests/e2e/screenshots/**',
  ]),
  ...nextVitals,
  ...nextTs,
  {
    name: 'shop/type-checked',
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...typeChecked,
      // React ignores what an event handler returns; the async form and button handlers catch their own errors.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Promise.all over a mix of values already known and queries still to run is deliberate (catalog filters).
      '@typescript-eslint/await-thenable': ['error', { allowMixedPromiseArrays: true }],
      // Its finds here were all String(x) on caught or JSON values, which is how they are meant to print;
      // restrict-template-expressions still catches an object pasted into a message.
      '@typescript-eslint/no-base-to-string': 'off',
      // Redundant casts (54 here) and `async` without `await` (18) are style: none of their finds was a bug.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      // `unknown | X` (a test's table, the front's header values) is noise, not a bug.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // A new order status or locale must be handled by every switch over it (a `default` counts).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // [10, 5, 100].sort() is [10, 100, 5]: numbers need a compare function (strings sort fine without).
      '@typescript-eslint/require-array-sort-compare': ['error', { ignoreStringArrays: true }],
      // `_name` marks a parameter or binding kept for its position or shape.
      '@typescript-eslint/no-unused-vars': [
        'warn',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    name: 'shop/one-way-imports',
    files: ['src/**/*.{ts,tsx,mts,cts}', 'scripts/**/*.{ts,mts,cts,mjs}'],
    rules: {
      // No module imports itself back through others (issue 40, item 5): a circle decides, by which
      // file loads first, whether a value is still undefined when it is read, and it ties rooms
      // together so none can be understood alone. What two modules of a circle both need goes into
      // a leaf (src/server/orders/lock.ts, src/server/api/route-types.ts). Type-only imports are
      // erased when compiled and load nothing, so the rule ignores them (the plugin's default).
      // eslint-plugin-import rather than its fork eslint-plugin-import-x: Next's config already
      // registers it as `import` with the TypeScript resolver, so `@/…` resolves through
      // tsconfig.json's paths with no second plugin or resolver to keep in step.
      'import/no-cycle': 'error',
    },
  },
  {
    name: 'shop/one-way-layers',
    files: ['src/server/**'],
    rules: {
      // The layers point one way (issue 40, item 5; docs/architecture.md "One-way layers"):
      // src/app and the storefront's components use src/server, never the other way round.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@/(app|components|trpc|i18n)(/|$)',
              message: 'src/server never imports the pages, their components or clients: put what both need in src/server (or src/shared when the browser needs it too).',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'shop/zod-in-browser',
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/**', 'src/shared/zod.ts'],
    rules: {
      // A schema the browser builds before Zod is told to run jitless probes `new Function`, which
      // the page policy reports as a violation (src/shared/zod.ts); one way in keeps the order right.
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Take z from '@/shared/zod' outside src/server.", allowTypeImports: true }] }],
    },
  },
  {
    name: 'shop/tests',
    files: ['tests/**'],
    rules: {
      // Tests read HTTP answers as `any` on purpose: the expectations that follow are the check.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Sorting a list of answers only to compare it with a literal written the same way.
      '@typescript-eslint/require-array-sort-compare': 'off',
      // createElement's types want a provider's required `children` among its props.
      'react/no-children-prop': 'off',
    },
  },
  {
    name: 'shop/scripts',
    files: ['scripts/**'],
    rules: {
      // Tooling: pg rows and JSON reports are `any` by nature, and the scripts' results are read by people.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    name: 'shop/no-react-here',
    files: ['scripts/**', 'tests/**'],
    rules: {
      // No components here: `useLocalIssuer`, `useResponseCache` are test and bench helpers, not hooks.
      'react-hooks/rules-of-hooks': 'off',
    },
  },
  {
    name: 'shop/root-not-found',
    files: ['src/app/not-found.tsx'],
    rules: {
      // The page for paths outside every locale is its own document: its plain link to `/` is a full
      // load on purpose, so the proxy sends the visitor to their language.
      '@next/next/no-html-link-for-pages': 'off',
    },
  },
]);
