// One checkout's benchmark (`npm run bench`): the app beside the floor, cached and cold, pages,
// memory, growth; the report at the end (report.ts).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, roundRatios, summarize, turnsOf, type LoadStats, type Round } from '../lib/bench-compare';
import { freePort } from '../lib/free-port';
import { buildImageTree, startImage } from '../lib/image-tree';
import { type Capture, capture, explainSearches } from './capture';
import {
  agent,
  APP_CACHE_MB,
  COLD_ROUND,
  CPU_PROF,
  DURATION,
  ENTRY,
  get,
  hitRatio,
  HOST,
  log,
  MEASURE_PAGES,
  OPTIONS,
  reportFile,
  ROOT,
  stopChild,
  waitForHttp,
  WARMUP,
  WORKS,
  WRITE_REPORT,
} from './common';
import { benchDatabase, stopsOnExit, versionsOf } from './database';
import { type Endpoint, endpoints } from './endpoints';
import { type FloorEntry, ONE_TRIP } from './floor';
import { type Memory, memoryOf, peakMemory } from '../lib/memory';
import { load, measure, measureEachOnce, type MemoryMoment, PAGE_CONNECTIONS, pageKinds, type PageRow, sequential } from './load';
import { type Growth, type Measured, renderReport, type Row } from './report';

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

export async function main() {
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

    // The shop as its image runs it: the tree the Dockerfile makes, started with the image's CMD.
    const imageStarted = Date.now();
    log("making the image's tree (the Dockerfile, followed: scripts/lib/image-tree.ts)");
    const image = await buildImageTree(ROOT, path.join(workDir, 'image'));
    const build = `the image's tree, made for this run in ${((Date.now() - imageStarted) / 60_000).toFixed(1)} min`;
    log(`build: ${build}`);

    // The app: first with its response cache as configured (on by default), later without it.
    // Started as the image starts it (its CMD: node dist/start.mjs --prebuilt) in its tree.
    const profDir = path.join(workDir, 'cpu-prof');
    const startApp = async (databaseUrl: string, port: number, cacheMb: string, logName: string, profile: boolean) => {
      const shop = await startImage(image, {
        databaseUrl,
        port,
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
    const floor = spawn(process.execPath, ['--import', 'tsx', ENTRY, '--floor-server'], {
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
