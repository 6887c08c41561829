// The load: autocannon runs and one-at-a-time timings, the never-rendered pages' passes, and the
// moments the shop's memory is read at.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { percentile, summarize, type LoadStats, type Round } from '../lib/bench-compare';
import { pluralOf, type TaxonKind } from '@/shared/catalog';
import { CONNECTIONS, get, log, quick } from './common';

const require = createRequire(import.meta.url);

// ───────────────────────────── load ─────────────────────────────

type Autocannon = ((opts: Record<string, unknown>) => Promise<{ duration: number; errors: number; timeouts: number; non2xx: number }> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}) & { track?: unknown };
const autocannon = require('autocannon') as Autocannon;

/**
 * How a measurement runs: `seconds` of load at CONNECTIONS, or every address exactly once at
 * `connections` (autocannon's `amount`), so that a page nobody asked for is asked for once.
 */
type Span = { seconds: number } | { once: true; connections: number };

/** One measurement of autocannon on `base`, rotating over `paths`. */
export async function measure(base: string, paths: string[], span: Span, countCache = false): Promise<Round> {
  let i = 0;
  const times: number[] = [];
  let bytes = 0;
  let non2xx = 0;
  const cache = { hits: 0, misses: 0 };
  // The app says per answer whether its response cache answered (X-Catalog-Cache: hit | miss | off).
  const onResponse = (_status: number, _body: unknown, _context: unknown, headers: Record<string, string>) => {
    const state = headers['x-catalog-cache'] ?? headers['X-Catalog-Cache'];
    if (state === 'hit') cache.hits++;
    else if (state === 'miss') cache.misses++;
  };
  const started = performance.now();
  let lastAnswer = started;
  const run = autocannon({
    url: base,
    ...('once' in span ? { connections: span.connections, amount: paths.length, timeout: 60 } : { connections: CONNECTIONS, duration: span.seconds }),
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: paths[i++ % paths.length] }), ...(countCache ? { onResponse } : {}) }],
  });
  run.on('response', (_client, status, size, ms) => {
    lastAnswer = performance.now();
    times.push(ms);
    bytes += size;
    if (status < 200 || status >= 300) non2xx++;
  });
  const result = await run;
  // Every address once: from the start to the last answer. autocannon's own duration ends at its
  // next whole-second tick after the last answer, up to a second more: a third of a 2-second group.
  if ('once' in span)
    return {
      times,
      seconds: (lastAnswer - started) / 1000 || result.duration,
      non2xx,
      errors: result.errors + result.timeouts,
      bytes,
      cacheHits: cache.hits,
      cacheMisses: cache.misses,
    };
  // autocannon drops its connections at the end, but the server still works through what they
  // asked: wait until it answers again, so the next run does not pay for this one's backlog.
  await get(base, paths[0]!).catch(() => undefined);
  if (!times.length)
    log(
      `no response from ${base} in ${span.seconds} s: ${JSON.stringify({ errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx, total: (result as unknown as { requests: { total: number } }).requests.total })}`,
    );
  return { times, seconds: result.duration || span.seconds, non2xx, errors: result.errors + result.timeouts, bytes, cacheHits: cache.hits, cacheMisses: cache.misses };
}

export async function load(base: string, paths: string[], seconds: number, countCache = false): Promise<LoadStats> {
  return summarize([await measure(base, paths, { seconds }, countCache)]);
}

export async function sequential(base: string, paths: string[], n: number): Promise<{ median: number; max: number; mean: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let k = 0; k < n; k++) {
    const res = await get(base, paths[k % paths.length]!);
    if (res.status !== 200) throw new Error(`${paths[k % paths.length]} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    times.push(res.ms);
    bytes += res.bytes;
  }
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), max: sorted[sorted.length - 1]!, mean: times.reduce((a, b) => a + b, 0) / times.length, bytes: bytes / n };
}

// ───────────────────────────── never-rendered pages (issue 20, item 4) ─────────────────────────────

/** A kind of page, each address never requested before it is timed, beside the /v1 answer it is built from. */
interface PageKind {
  name: string;
  label: string;
  /** Page addresses, all different; the /v1 answer of `pages[i]` is `answers[i]`. */
  pages: string[];
  answers: string[];
}
export interface PageRow {
  kind: PageKind;
  page: { one: LoadStats; many: LoadStats };
  answer: { one: LoadStats; many: LoadStats };
}
/** The first PAGE_ONE_AT_A_TIME addresses of a kind one at a time, the rest PAGE_CONNECTIONS at a time. */
export const PAGE_ONE_AT_A_TIME = 30;
export const PAGE_CONNECTIONS = 8;
/**
 * With --baseline: addresses of each kind asked of both builds before the measured ones (the JIT,
 * first renders). The same build on both sides differed by up to 23 % a second after 14, by 0–9 %
 * after 42 (six per language; two runs).
 */
export const PAGE_WARM_UP = 42;

/**
 * Artwork, artist and browse pages in the seven locales, none of them among the /v1 addresses of
 * the run (other works, artists and pages), in an order that mixes locales and records.
 */
export async function pageKinds(url: string): Promise<PageKind[]> {
  const { locales } = await import('@/shared/locales');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Records of each kind; each in the seven locales is an address.
    const perKind = quick ? 40 : 80;
    const rows = async (sql: string) => (await client.query<{ slug: string; kind?: string }>(sql)).rows;
    const works = await rows(`SELECT slug FROM artworks WHERE status = 'published' AND id % 997 = 500 ORDER BY id LIMIT ${perKind}`);
    const artists = await rows(`SELECT slug FROM artists WHERE status = 'published' AND artwork_count > 0 ORDER BY (id * 7919) % 10007 OFFSET 100 LIMIT ${perKind}`);
    const taxa = await rows(`SELECT kind::text AS kind, slug FROM taxa WHERE artwork_count >= 3 ORDER BY (id * 7919) % 10007 OFFSET 100 LIMIT ${perKind}`);
    // Record k, locale (k + round) mod 7: every pair once, neighbours differ in both.
    const mixed = <T>(records: T[]) => locales.flatMap((_, round) => records.map((record, k) => ({ record, locale: locales[(k + round) % locales.length]! })));
    const kind = (name: string, label: string, pairs: { page: string; answer: string }[]): PageKind => ({
      name,
      label,
      pages: pairs.map((p) => p.page),
      answers: pairs.map((p) => p.answer),
    });
    return [
      kind(
        'artwork-page',
        '/{locale}/artworks/{slug}',
        mixed(works).map(({ record, locale }) => ({ page: `/${locale}/artworks/${record.slug}`, answer: `/v1/artworks/${record.slug}?locale=${locale}` })),
      ),
      kind(
        'artist-page',
        '/{locale}/artists/{slug}',
        mixed(artists).map(({ record, locale }) => ({ page: `/${locale}/artists/${record.slug}`, answer: `/v1/artists/${record.slug}?locale=${locale}` })),
      ),
      kind(
        'browse-page',
        '/{locale}/{museums|movements|genres|subjects}/{slug}',
        mixed(taxa).map(({ record, locale }) => {
          const plural = pluralOf[record.kind as TaxonKind];
          return { page: `/${locale}/${plural}/${record.slug}`, answer: `/v1/taxa/${plural}/${record.slug}?locale=${locale}` };
        }),
      ),
    ];
  } finally {
    await client.end();
  }
}

/** Every address exactly once, `connections` at a time: nothing is asked twice. */
async function eachOnce(base: string, paths: string[], connections: number): Promise<LoadStats> {
  return summarize([await measure(base, paths, { once: true, connections })]);
}

/** The pages and, separately, their /v1 answers: one at a time, then PAGE_CONNECTIONS at a time. */
export async function measureEachOnce(base: string, paths: string[]): Promise<{ one: LoadStats; many: LoadStats }> {
  const one = await eachOnce(base, paths.slice(0, PAGE_ONE_AT_A_TIME), 1);
  const many = await eachOnce(base, paths.slice(PAGE_ONE_AT_A_TIME), PAGE_CONNECTIONS);
  for (const [what, stats] of [
    ['one at a time', one],
    [`${PAGE_CONNECTIONS} at a time`, many],
  ] as const)
    if (stats.non2xx || stats.errors) throw new Error(`${base} ${paths[0]}…, ${what}: ${stats.non2xx} answers other than 200, ${stats.errors} errors`);
  return { one, many };
}

// ───────────────────────────── memory (issue 20, item 5: scripts/lib/memory.ts reads it) ─────────────────────────────

/** When the shop's memory is read: at rest and at its highest under each load, as deployed and cold. */
export type MemoryMoment = 'rest' | 'cached' | 'pages' | 'coldRest' | 'cold';
