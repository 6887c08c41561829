import { existsSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { catalogLocales, locales } from '../../src/shared/locales';

/**
 * No dead ends (#17 item 1, docs/storefront.md "Addresses"): a crawl of the server-rendered HTML,
 * as a search engine would walk it, from `/` and from each locale's home. Every internal link must
 * answer 200 (no 404 for a browse page that does not exist yet, no redirect, no error), and every
 * page must carry a non-empty <title>, a canonical link and hreflang alternates for the six catalog
 * languages plus x-default. No browser: Playwright's `request` fixture fetches the HTML.
 *
 * Bounds, so it stays near a minute on a small machine: at most MAX_PAGES pages (about 1,000 are
 * reachable from the 31 curated works in seven languages), 4 requests at a time. A listing's
 * `?page=` beyond 2 is not fetched, and a page whose address has a query (a filtered listing, a
 * language switch that keeps the query) is checked but its links are not followed, except plain
 * `?page=2`: the same pages are reached without the query.
 */

const chromium = '/usr/bin/chromium';
// The shop is only started when Chromium is there (playwright.config.ts), like every other spec.
test.skip(!existsSync(chromium), `${chromium} not found: install it with apt-get install -y chromium`);

/** What every page's <head> lists as hreflang alternates (src/i18n/routing.ts `alternatesFor`). */
const hreflangs = [...catalogLocales, 'x-default'].sort();
const MAX_PAGES = 1_500;
const CONCURRENCY = 4;
/** Not pages: the API, pictures, Next's assets, staff (behind a token). */
const skippedPrefixes = ['/v1', '/images', '/api', '/staff', '/_next'];

const entities: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'", '#x27': "'", '#x2F': '/' };
const decode = (value: string) => value.replace(/&(amp|quot|apos|lt|gt|#39|#x27|#x2F);/gi, (m, name: string) => entities[name] ?? entities[name.toLowerCase()] ?? m);

/** The attributes of each tag `name` in the document, names lower-cased (React writes `hrefLang`). */
function tags(html: string, name: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const tag of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const attr of tag[1]!.matchAll(/([^\s=/>]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
      attributes[attr[1]!.toLowerCase()] = decode(attr[3] ?? attr[4] ?? attr[5] ?? '');
    }
    found.push(attributes);
  }
  return found;
}

/** Whether an address is one of our pages the crawl should fetch, and its canonical key (no fragment). */
function pageKey(href: string, from: URL): string | null {
  if (/^(mailto|tel|javascript|data):/i.test(href.trim())) return null;
  let url: URL;
  try {
    url = new URL(href, from);
  } catch {
    return null;
  }
  if (url.origin !== from.origin) return null;
  if (skippedPrefixes.some((prefix) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))) return null;
  if (/\.(xml|txt|svg|png|jpe?g|webp|ico|json)$/i.test(url.pathname)) return null;
  const page = Number(url.searchParams.get('page') ?? '1');
  if (page > 2) return null;
  url.hash = '';
  return `${url.pathname}${url.search}`;
}

/** A page whose links the crawl follows: no query, or only `?page=2`. */
const followable = (key: string) => {
  const query = key.split('?')[1];
  return !query || /^page=[12]$/.test(query);
};

interface Problem {
  page: string;
  from: string;
  problem: string;
}

async function crawl(request: APIRequestContext, starts: string[]) {
  const queue: { key: string; from: string }[] = starts.map((key) => ({ key, from: '(start)' }));
  const seen = new Set(starts);
  const problems: Problem[] = [];
  let fetched = 0;
  let capped = false;

  async function visit({ key, from }: { key: string; from: string }) {
    fetched++;
    const response = await request.get(key, { maxRedirects: 0, timeout: 30_000 });
    const status = response.status();
    if (status !== 200) {
      problems.push({ page: key, from, problem: `answers ${status}${response.headers()['location'] ? ` → ${response.headers()['location']}` : ''}` });
      return;
    }
    if (!(response.headers()['content-type'] ?? '').includes('text/html')) return;
    const html = await response.text();
    const here = new URL(key, 'http://shop.test');

    const titles = [...html.matchAll(/<title\b[^>]*>([\s\S]*?)<\/title>/gi)].map((m) => decode(m[1]!).trim());
    if (!titles.some(Boolean)) problems.push({ page: key, from, problem: 'no <title> with text' });

    const links = tags(html, 'link');
    const canonical = links.filter((l) => (l.rel ?? '').toLowerCase() === 'canonical');
    const locale = here.pathname.split('/')[1];
    if (canonical.length !== 1 || !canonical[0]!.href) {
      problems.push({ page: key, from, problem: `${canonical.length} canonical links` });
    } else if (new URL(canonical[0]!.href, here).pathname.split('/')[1] !== locale) {
      problems.push({ page: key, from, problem: `canonical ${canonical[0]!.href} is not in /${locale}` });
    }
    const alternates = links.filter((l) => (l.rel ?? '').toLowerCase() === 'alternate' && l.hreflang);
    const langs = alternates.map((l) => l.hreflang!).sort();
    if (JSON.stringify(langs) !== JSON.stringify(hreflangs)) {
      problems.push({ page: key, from, problem: `hreflang alternates ${langs.join(',') || 'missing'} (expected ${hreflangs.join(',')})` });
    }

    // Vietnamese pages are for shoppers, not for search engines: the catalog they show is English (src/lib/seo.ts).
    const robots = tags(html, 'meta').find((m) => (m.name ?? '').toLowerCase() === 'robots')?.content ?? '';
    if (locale === 'vi' && !/noindex/.test(robots)) problems.push({ page: key, from, problem: `a vi page without noindex (robots "${robots}")` });

    if (!followable(key)) return;
    for (const anchor of tags(html, 'a')) {
      if (anchor.href === undefined) continue;
      const next = pageKey(anchor.href, here);
      if (!next || seen.has(next)) continue;
      if (seen.size >= MAX_PAGES) {
        capped = true;
        continue;
      }
      seen.add(next);
      queue.push({ key: next, from: key });
    }
  }

  // A small pool: CONCURRENCY fetches in flight, each worker taking the next address when done.
  let busy = 0;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    for (;;) {
      const item = queue.shift();
      if (!item) {
        // Nothing queued now; a page still being read may add more.
        if (busy === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      busy++;
      try {
        await visit(item);
      } catch (error) {
        problems.push({ page: item.key, from: item.from, problem: `request failed: ${(error as Error).message}` });
      } finally {
        busy--;
      }
    }
  });
  await Promise.all(workers);
  return { fetched, problems, capped, seen };
}

test.describe('crawl', () => {
  test('/ redirects to a language home', async ({ request }) => {
    const response = await request.get('/', { maxRedirects: 0, headers: { 'accept-language': 'en' } });
    expect(response.status()).toBe(302);
    expect(new URL(response.headers()['location']!, 'http://x').pathname).toBe('/en');
  });

  test('every page reachable from the language homes answers 200, with a title, a canonical and hreflang alternates', async ({ request }) => {
    test.setTimeout(240_000);
    const started = Date.now();
    // `/` itself is a redirect (checked above); the crawl starts where it leads and at every home.
    const { fetched, problems, capped, seen } = await crawl(
      request,
      locales.map((l) => `/${l}`),
    );
    const seconds = Math.round((Date.now() - started) / 1000);
    console.log(`crawl: ${fetched} pages fetched in ${seconds} s${capped ? ` (stopped adding at ${MAX_PAGES})` : ''}`);
    test.info().annotations.push({ type: 'crawl', description: `${fetched} pages in ${seconds} s${capped ? `, capped at ${MAX_PAGES}` : ''}` });

    // Reached the catalog in every language: artworks, artists, browse pages and information pages.
    for (const locale of locales) {
      for (const path of ['/artworks', '/artists', '/museums', '/movements', '/artworks/mona-lisa', '/artists/vincent-van-gogh', '/movements/post-impressionism', '/about']) {
        expect(seen.has(`/${locale}${path}`), `/${locale}${path} reached`).toBe(true);
      }
    }
    // A browse page with fewer than 3 published works is not linked (there is none to link to).
    for (const dead of ['/museums/museum-of-modern-art', '/subjects/night-sky', '/museums/van-gogh-museum', '/movements/impressionism']) {
      for (const locale of locales) expect(seen.has(`/${locale}${dead}`), `/${locale}${dead} linked`).toBe(false);
    }
    expect(problems.map((p) => `${p.page} (linked from ${p.from}): ${p.problem}`)).toEqual([]);
  });

  test('a wrong address is the localized 404, which is the only 404 a visitor meets', async ({ page }) => {
    // Next answers a 404 with its error shell and draws the page in the browser, so look at it there.
    const response = await page.goto('/de/no-such-page-here');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diese Seite gibt es nicht');
  });
});
