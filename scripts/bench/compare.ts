// `npm run bench -- --baseline <commit>`: this checkout against another commit's build, side by side
// in one run (scripts/lib/baseline.ts builds it; scripts/lib/bench-compare.ts renders the report).
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { prepareBaseline, resolveCommit } from '../lib/baseline';
import { fmt, renderComparison, summarize, type ComparisonReport, type Round, type SideBySide } from '../lib/bench-compare';
import { buildImageTree, startImage } from '../lib/image-tree';
import { agent, APP_CACHE_MB, ARTISTS, CONNECTIONS, DURATION, get, log, MEASURE_PAGES, OPTIONS, reportFile, ROOT, WARMUP, WORKS, WRITE_REPORT } from './common';
import { benchDatabase, stopsOnExit, versionsOf } from './database';
import { endpoints } from './endpoints';
import { load, measure, PAGE_CONNECTIONS, PAGE_WARM_UP, pageKinds } from './load';

// ───────────────────────────── against another commit's build ─────────────────────────────

/**
 * `--baseline <commit>`: that commit's build (old) and this checkout's (new) measured in one run on
 * the same data. Each gets a copy of the filled database on the same PostgreSQL server (same rows,
 * statistics and memory; one's start, which migrates and seeds, and its job worker never touch the
 * other's catalog version, so never its response cache). Both shops run during a whole pass; per
 * endpoint each gets a warm-up, then the rounds alternate old, new, old, new, so the machine's noise
 * falls on both. Two passes: with the response cache as deployed, then both restarted without it.
 */
export async function compare(baselineRef: string) {
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
    // Both builds first, without the database: a production build with DATABASE_URL but no
    // NEXTAUTH_SECRET is refused (every instance must sign with one secret), and a build needs none.
    // Each side as its image runs it: the tree its own Dockerfile makes (the same install, build
    // and prune), started with the image's CMD (scripts/lib/image-tree.ts).
    const newTree = await imageOf(ROOT, path.join(workDir, 'image-new'), 'this checkout');
    const baseline = await prepareBaseline(ROOT, baselineRef, { keep: OPTIONS.keepBaseline, log, buildEnv: process.env, build: false });
    stops.push({ name: `the baseline worktree ${baseline.dir}`, stop: baseline.remove });
    const oldTree = await imageOf(baseline.dir, path.join(workDir, 'image-old'), `baseline ${baseline.commit.slice(0, 10)}`);
    stops.push({
      name: 'the two image trees',
      stop: async () => ['image-new', 'image-old'].forEach((tree) => rmSync(path.join(workDir, tree), { recursive: true, force: true })),
    });
    process.env.DATABASE_URL = database.url;
    const head = (await runGit('rev-parse', 'HEAD')).trim();
    const newSide = {
      commit: head,
      subject: (await runGit('log', '-1', '--format=%s', head)).trim(),
      dirty: (await runGit('status', '--porcelain', '--untracked-files=no')).trim() !== '',
      build: newTree.made,
    };

    const list = await endpoints(database.url);
    const urls = [...new Set(list.flatMap((e) => e.paths))];
    const copies = await databaseCopies(database.url, ['bench_old', 'bench_new']);
    stops.push({ name: 'the two database copies', stop: copies.drop });
    const sides = [
      { key: 'old' as const, tree: oldTree.tree, databaseUrl: copies.urls[0]! },
      { key: 'new' as const, tree: newTree.tree, databaseUrl: copies.urls[1]! },
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
        log(`${pass.name}: starting the ${side.key} build (${side.tree.root})`);
        const shop = await startImage(side.tree, {
          databaseUrl: side.databaseUrl,
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
      old: { commit: baseline.commit, subject: baseline.subject, build: oldTree.made },
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

/** The image tree of `checkout`, and how it was made (for the report). */
async function imageOf(checkout: string, out: string, name: string) {
  log(`${name}: making the image's tree (its Dockerfile, followed in ${out})`);
  const startedAt = Date.now();
  const tree = await buildImageTree(checkout, out);
  return { tree, made: `its image's tree (its Dockerfile followed: scripts/lib/image-tree.ts), made for this run in ${((Date.now() - startedAt) / 60_000).toFixed(1)} min` };
}
