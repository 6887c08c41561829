import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { cachedPageRoutes, isCachedPage } from '@/server/http/cached-pages';

/** Every page of src/app as its route (`src/app/[locale]/artworks/[slug]/page.tsx` → `/[locale]/artworks/[slug]`). */
function pages(dir = 'src/app', route = ''): { route: string; source: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) {
      // Folders starting with _ are private (components), (groups) add nothing to the path.
      if (entry.name.startsWith('_')) return [];
      const segment = entry.name.startsWith('(') ? '' : `/${entry.name}`;
      return pages(path.join(dir, entry.name), route + segment);
    }
    return entry.name === 'page.tsx' ? [{ route: route || '/', source: readFileSync(path.join(dir, entry.name), 'utf8') }] : [];
  });
}

test('the cached pages the proxy knows are exactly the pages that set `revalidate`', () => {
  const all = pages();
  expect(all.length).toBeGreaterThan(15);
  const revalidated = all.filter((p) => /^export const revalidate\b/m.test(p.source)).map((p) => p.route);
  expect([...revalidated].sort()).toEqual([...cachedPageRoutes].sort());
  // A page that is neither cached nor rendered per request would be static: cached forever, with
  // the proxy giving it a nonce policy its cached HTML cannot satisfy.
  for (const p of all) {
    if (revalidated.includes(p.route)) continue;
    expect(p.source, `${p.route} sets neither revalidate nor dynamic = 'force-dynamic'`).toMatch(/^export const dynamic = 'force-dynamic'/m);
  }
});

test('paths are matched to the routes Next would answer them with', () => {
  for (const cached of ['/en', '/ja/', '/de/artworks/the-starry-night', '/fr/custom', '/xx', '/vi/terms']) expect(isCachedPage(cached), cached).toBe(true);
  for (const rendered of ['/', '/en/artworks', '/en/movements', '/en/museums/louvre', '/en/orders/AB12', '/staff', '/staff/en/orders', '/en/artworks/a/b', '/en/unknown/path'])
    expect(isCachedPage(rendered), rendered).toBe(false);
});
