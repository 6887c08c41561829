import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { MENDS, mend, nextFiles } from '../../scripts/patch-next.mjs';

/**
 * scripts/patch-next.mjs (run by postinstall): Next's page cache measures a stored entry's JSON
 * size only for the fetch cache that uses it, not for every rendered page.
 */
describe('patch-next', () => {
  test('every installed copy of IncrementalCache.set is mended', () => {
    // A file left 'missing' after a Next upgrade: look at scripts/patch-next.mjs again.
    const states = Object.fromEntries(nextFiles().map((file) => [file.slice(file.indexOf('next/dist/')), mend(readFileSync(file, 'utf8')).state]));
    expect(Object.keys(states).length).toBeGreaterThanOrEqual(5);
    expect(states).toEqual(Object.fromEntries(Object.keys(states).map((file) => [file, 'already'])));
  });

  test('mends each form once, and leaves a Next without it alone', () => {
    for (const { from, to } of MENDS) {
      const mended = mend(`a;${from}b`);
      expect(mended).toEqual({ state: 'mended', text: `a;${to}b` });
      expect(mend(mended.text)).toEqual({ state: 'already', text: mended.text });
    }
    expect(mend('let size=measure(entry);')).toEqual({ state: 'missing', text: 'let size=measure(entry);' });
  });

  test('a page is stored without being written as JSON; a fetch entry is still measured', async () => {
    const require = createRequire(import.meta.url);
    const { IncrementalCache } = require('next/dist/server/lib/incremental-cache') as {
      IncrementalCache: new (options: Record<string, unknown>) => { set(key: string, data: unknown, ctx: Record<string, unknown>): Promise<void> };
    };
    const stored: string[] = [];
    class Handler {
      async get() {
        return null;
      }
      async set(key: string) {
        stored.push(key);
      }
      async revalidateTag() {}
      resetRequestCache() {}
    }
    const cache = new IncrementalCache({
      dev: false,
      requestHeaders: {},
      previewProps: { previewModeId: 'test', previewModeEncryptionKey: '', previewModeSigningKey: '' },
      prerenderManifest: { version: 4, routes: {}, dynamicRoutes: {}, notFoundRoutes: [], preview: {} },
      CurCacheHandler: Handler,
      locales: [],
    });
    let written = 0;
    const payload = {
      toJSON() {
        written++;
        return [];
      },
    };
    await cache.set(
      '/en/artworks/mona-lisa',
      { kind: 'APP_PAGE', html: '<html></html>', rscData: payload, headers: {}, status: 200 },
      { route: { kind: 'APP_PAGE', sourceRoute: '/[locale]/artworks/[slug]' } },
    );
    expect(stored).toHaveLength(1);
    expect(written).toBe(0);
    await cache.set('fetch-key', { kind: 'FETCH', data: { body: payload }, revalidate: 60 }, { fetchCache: true, fetchUrl: 'https://example.test' });
    expect(written).toBe(1);
  });
});
