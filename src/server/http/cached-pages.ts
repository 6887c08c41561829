import 'server-only';
/**
 * The pages Next keeps in its page cache (route segment config `revalidate`), as their routes in
 * src/app. src/proxy.ts gives every other page a per-request nonce policy; a cached page gets its
 * policy from the page cache (src/page-cache/page-cache.mjs), and must not get a nonce policy as well (a
 * browser enforces both, and the cached HTML carries no current nonce).
 * tests/unit/cached-pages.test.ts reads every page of src/app and fails when this list and the
 * pages' `revalidate` disagree.
 */
export const cachedPageRoutes = [
  '/[locale]',
  '/[locale]/about',
  '/[locale]/artworks/[slug]',
  '/[locale]/basket',
  '/[locale]/custom',
  '/[locale]/favorites',
  '/[locale]/imprint',
  '/[locale]/privacy',
  '/[locale]/returns',
  '/[locale]/shipping',
  '/[locale]/showcase',
  '/[locale]/sign-in',
  '/[locale]/terms',
] as const;

/** First path segments that are routes of their own, never a language. */
const topLevelRoutes = new Set(['api', 'images', 'sitemaps', 'sitemap.xml', 'staff', 'v1', '_next']);

const patterns = cachedPageRoutes.map((route) => route.split('/').slice(1));

/**
 * Whether Next answers this path from its page cache. `[locale]` stands for any first segment that
 * is not a route of its own (an unknown language is the locale layout's 404, cached like the page).
 */
export function isCachedPage(pathname: string): boolean {
  const segments = pathname.replace(/\/+$/, '').split('/').slice(1);
  if (segments.length === 0 || (segments.length === 1 && segments[0] === '')) return false;
  return patterns.some(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every((part, i) => {
        const segment = segments[i]!;
        if (part === '[locale]') return segment !== '' && !topLevelRoutes.has(segment);
        if (part.startsWith('[')) return segment !== '';
        return part === segment;
      }),
  );
}
