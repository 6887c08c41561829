/**
 * `npm run lighthouse`: Lighthouse (npm) in Debian's Chromium against the production image (its
 * tree made by following the Dockerfile, scripts/lib/image-tree.ts, started with its CMD on an
 * embedded PostgreSQL of this checkout's), on the home page, the artworks
 * grid and an artwork page, with mobile and desktop settings. It also measures how fast a cached
 * artwork page is served (autocannon, 32 connections). The report goes to
 * docs/benchmarks/lighthouse.md, over the last one (the date is inside; git keeps the earlier ones).
 *
 *   npm run lighthouse                    # all pages, both form factors
 *   npm run lighthouse -- --base http://127.0.0.1:3000   # against a server already running
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { autocannon } from './lib/autocannon';
import { CHROMIUM_FLAGS } from './lib/chromium';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { freePort } from './lib/free-port';
import { buildImageTree, startImage } from './lib/image-tree';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];
const log = (line: string) => console.log(`[lighthouse] ${line}`);

const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof categories)[number];
const targets: Record<'mobile' | 'desktop', Record<Category, number>> = {
  desktop: { performance: 95, accessibility: 95, 'best-practices': 95, seo: 100 },
  // Issue 17: performance ≥ 90, accessibility 100 and SEO 100 on a phone.
  mobile: { performance: 90, accessibility: 100, 'best-practices': 95, seo: 100 },
};

interface Run {
  page: string;
  url: string;
  formFactor: 'mobile' | 'desktop';
  scores: Record<Category, number>;
  metrics: Record<string, string>;
  failing: string[];
  /**
   * Lighthouse's measure of this host's CPU at the time of the run (its own short benchmark).
   * The 4× slowdown is relative to it, so the mobile score moves with it: on these shared cores
   * it moved 1,250–2,740 within one sitting (the lighthouse report of 2026-11-24, in git's history).
   */
  benchmarkIndex: number;
  /**
   * What the run itself observed, unthrottled, in ms: the first contentful paint and the load
   * event. Lantern simulates FCP and LCP from every request and task before the observed paint, so
   * a paint the browser held back (observed after the page had loaded) makes both simulated metrics
   * carry all the page's JavaScript (see `heldPaint`).
   */
  observed: { firstPaint: number; load: number };
}

/**
 * Headless Chromium sometimes holds a page's first paint until the next whole second after the
 * navigation (about 1.2 or 2.2 s here), while the page has long loaded and the main thread is idle:
 * its compositor stops sending frames to a renderer it finds unresponsive during the load
 * (GoogleChrome/lighthouse#17148, "ThrottleUnresponsiveClient"). Such a run is marked, so a
 * comparison of builds can tell the browser's hold from the page's own cost.
 */
const heldPaint = (run: Run) => run.observed.firstPaint > run.observed.load;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The image's tree on a free port, with an embedded PostgreSQL of its own in a temporary folder (the image has none). */
async function startShop(): Promise<{ base: string; stop: () => Promise<void> }> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'art-prints-lighthouse-'));
  // As root the embedded PostgreSQL runs as user postgres, which must enter the folder.
  chmodSync(work, 0o755);
  log("making the image's tree (the Dockerfile, followed)");
  const tree = await buildImageTree(ROOT, path.join(work, 'image'));
  const database = await startEmbeddedPostgres({ dir: path.join(work, 'postgres'), password: 'lighthouse', port: await freePort() });
  const shop = await startImage(tree, { databaseUrl: database.url, output: 'inherit' });
  return {
    base: shop.url,
    stop: async () => {
      await shop.stop();
      await database.stop();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

async function audit(chrome: chromeLauncher.LaunchedChrome, page: string, url: string, formFactor: 'mobile' | 'desktop'): Promise<Run> {
  const result = await lighthouse(
    url,
    { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...categories] },
    formFactor === 'desktop' ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const lhr = result.lhr;
  const scores = Object.fromEntries(categories.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
  const metric = (id: string) => lhr.audits[id]?.displayValue ?? '–';
  const failing = Object.values(lhr.categories)
    .flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]!))
    .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
    .map((a) => `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
  return {
    page,
    url,
    formFactor,
    scores,
    metrics: {
      FCP: metric('first-contentful-paint'),
      LCP: metric('largest-contentful-paint'),
      TBT: metric('total-blocking-time'),
      CLS: metric('cumulative-layout-shift'),
      SI: metric('speed-index'),
    },
    failing: [...new Set(failing)],
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    observed: observedTimes(lhr.audits.metrics?.details),
  };
}

/** The `metrics` audit's observed first paint and load event (its details are typed loosely by Lighthouse). */
function observedTimes(details: unknown): Run['observed'] {
  const items = (details as { items?: { observedFirstContentfulPaint?: number; observedLoad?: number }[] } | undefined)?.items;
  return { firstPaint: Math.round(items?.[0]?.observedFirstContentfulPaint ?? NaN), load: Math.round(items?.[0]?.observedLoad ?? NaN) };
}

interface Speed {
  connections: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  non2xx: number;
  bytes: number;
}

/** The cached artwork page under load: p50/p95/p99 from every response, and requests per second. */
async function cachedPageSpeed(url: string, connections: number): Promise<Speed> {
  let bytes = 0;
  for (let i = 0; i < 5; i++) bytes = (await fetch(url).then((r) => r.arrayBuffer())).byteLength;
  const times: number[] = [];
  let non2xx = 0;
  const run = autocannon({ url, connections, duration: 10 });
  run.on('response', (_client, status, _size, ms) => {
    times.push(ms);
    if (status < 200 || status >= 300) non2xx++;
  });
  const result = await run;
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]! * 10) / 10;
  return { connections, p50: at(50), p95: at(95), p99: at(99), rps: Math.round(times.length / (result.duration || 10)), non2xx, bytes };
}

async function main() {
  const given = arg('base');
  const shop = given ? { base: given.replace(/\/$/, ''), stop: async () => {} } : await startShop();
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
  const runs: Run[] = [];
  const speeds: Speed[] = [];
  try {
    const featured = (await (await fetch(`${shop.base}/v1/artworks?featured=1`)).json()) as { items: { slug: string }[] };
    const slug = featured.items[0]?.slug;
    if (!slug) throw new Error('no featured artwork to audit');
    const pages = [
      { page: 'home', url: `${shop.base}/en` },
      { page: 'artworks grid', url: `${shop.base}/en/artworks` },
      { page: 'artwork page', url: `${shop.base}/en/artworks/${slug}` },
    ];
    // Warm Next's cache first: a shopper almost always gets an already rendered page.
    for (const p of pages) await fetch(p.url).then((r) => r.text());
    for (const formFactor of ['desktop', 'mobile'] as const) {
      for (const p of pages) {
        log(`${p.page} (${formFactor})`);
        runs.push(await audit(chrome, p.page, p.url, formFactor));
      }
    }
    for (const connections of [1, 8, 32]) {
      log(`cached artwork page under load, ${connections} connection(s)`);
      speeds.push(await cachedPageSpeed(pages[2]!.url, connections));
    }
  } finally {
    chrome.kill();
    await shop.stop();
  }
  const report = render(runs, speeds);
  const folder = path.join(ROOT, 'docs', 'benchmarks');
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'lighthouse.md');
  writeFileSync(file, report);
  console.log(report);
  log(`report written to ${path.relative(ROOT, file)}`);
}

function render(runs: Run[], speeds: Speed[]): string {
  const mark = (run: Run, c: Category) => `${run.scores[c]}${run.scores[c] >= targets[run.formFactor][c] ? '' : ' ❌'}`;
  const lines = [
    `# Lighthouse: home, artworks grid, artwork page (${new Date().toISOString().slice(0, 10)})`,
    '',
    '`npm run lighthouse`: Lighthouse ' + '12.8 (npm) in Debian Chromium, headless, against the production build on the embedded default,',
    "pages warmed once (served from Next's cache, as shoppers get them). Mobile is Lighthouse's default (Moto G power,",
    'slow 4G, 4× CPU slowdown); desktop is its desktop preset. These machines have 2 cores; no network beyond loopback,',
    'so Commons images are the drawn placeholders our `/images` route answers.',
    '',
    `Targets: ${(['mobile', 'desktop'] as const).map((f) => `${f} ${categories.map((c) => `${c} ≥ ${targets[f][c]}`).join(', ')}`).join('; ')}. ❌ marks a miss.`,
    '',
    "CPU is Lighthouse's benchmark index of this host during the run: it calibrates its 4× slowdown for a",
    'host of about 1,000 or more, and the mobile score moves with it (a slower moment, a lower score), so',
    'compare builds measured in one sitting, several runs each.',
    '',
    '*Paint / load* is what the run observed before any simulation (ms): its first contentful paint and',
    'its load event. ⏸ marks a paint the browser held until after the page had loaded (headless',
    "Chromium's compositor, GoogleChrome/lighthouse#17148): Lantern then counts all the page's JavaScript",
    'into the simulated FCP and LCP, so such a run scores lower for a reason outside the page.',
    '',
    '| page | form factor | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | CPU | paint / load |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...runs.map(
      (r) =>
        `| ${r.page} | ${r.formFactor} | ${mark(r, 'performance')} | ${mark(r, 'accessibility')} | ${mark(r, 'best-practices')} | ${mark(r, 'seo')} | ${r.metrics.FCP} | ${r.metrics.LCP} | ${r.metrics.TBT} | ${r.metrics.CLS} | ${r.benchmarkIndex} | ${r.observed.firstPaint} / ${r.observed.load}${heldPaint(r) ? ' ⏸' : ''} |`,
    ),
    '',
    '## Audits below 90 (per run)',
    '',
    ...runs.map((r) => `- **${r.page}, ${r.formFactor}:** ${r.failing.length ? r.failing.join('; ') : 'none'}`),
    '',
    '## The artwork page served from cache',
    '',
    `autocannon, 10 s per row, one artwork page already rendered and kept by Next (${Math.round((speeds[0]?.bytes ?? 0) / 1024)} KiB of HTML, no compression asked). Target: p95 ≤ 30 ms.`,
    '',
    '| connections | p50 | p95 | p99 | requests/s | non-2xx | p95 ≤ 30 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...speeds.map((s) => `| ${s.connections} | ${s.p50} ms | ${s.p95} ms | ${s.p99} ms | ${s.rps} | ${s.non2xx} | ${s.p95 <= 30 ? 'met' : 'MISSED'} |`),
    '',
  ];
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
