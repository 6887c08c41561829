import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { artistDetail, artworkDetail, artworksBySlugs, listArtists, listArtworks, listTaxa, taxonDetail } from '@/server/catalog/service';
import { createDb, planOnce, readRows, statementName, type Db } from '@/server/db/client';
import { Prisma } from '@/generated/prisma/client';
import { ownDatabase } from '../support/database';

/**
 * Issue #20: the catalog reads whose generic plan measured faster are prepared once per pooled
 * connection (planOnce), on the pool of planned statements, where each gets its generic plan at
 * once; every other statement is still sent unnamed and planned for its values.
 */
let setup: Db;
let one: Db;
let drop: () => Promise<void>;
let setupUrl: string;

beforeAll(async () => {
  let url: string;
  ({ db: setup, url, drop } = await ownDatabase('planonce'));
  setupUrl = url;
  // One connection, so that pg_prepared_statements shows what the reads prepared.
  one = createDb(url, { connections: 1 });
});
afterAll(async () => {
  await one.$disconnect();
  await drop();
});

/** What the one connection of the planned statements' pool has prepared (this question left out). */
const prepared = async () =>
  (
    await readRows<{ name: string; statement: string; generic_plans: bigint; custom_plans: bigint }>(
      one,
      planOnce(Prisma.sql`SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name`),
    )
  ).filter((s) => !s.statement.includes('pg_prepared_statements'));

test('planOnce statements are prepared once, planned generically, and keep answering alike; others are not prepared', async () => {
  // The grid filtered by a browse page, and a search inside it: planned for their values (the
  // page's size chooses the plan). (Page 2: a page 1 finding little would look for a "did you
  // mean", which is planned once.)
  await listArtworks(one, { museum: 'museum-of-modern-art', page: 1, locale: 'en' });
  await listArtworks(one, { q: 'night', museum: 'museum-of-modern-art', page: 2, locale: 'en' });
  // Nor a search of five words or more: their shapes are too many to prepare on every connection.
  await listArtworks(one, { q: 'the starry night over the rhone', page: 2, locale: 'en' });
  expect(await prepared()).toEqual([]);
  // The search box: one generic plan, whatever the words. (Page 2 again: no "did you mean".)
  const night = await listArtworks(one, { q: 'night', page: 2, locale: 'en' });
  for (const q of ['water', 'sunflowers', 'girl', 'venus', 'night']) await listArtworks(one, { q, page: 2, locale: 'en' });
  expect(await listArtworks(one, { q: 'night', page: 2, locale: 'en' })).toEqual(night);
  expect(night.total).toBeGreaterThan(0);
  const search = await prepared();
  expect(search).toHaveLength(1);
  expect(search[0]).toMatchObject({ generic_plans: 7n, custom_plans: 0n });

  const first = await artistDetail(one, 'vincent-van-gogh', 1, 'fr');
  // Past PostgreSQL's five custom plans, with other values: the same statement, one preparation.
  for (const slug of ['sandro-botticelli', 'johannes-vermeer', 'rembrandt', 'edouard-manet', 'leonardo-da-vinci', 'vincent-van-gogh']) await artistDetail(one, slug, 1, 'fr');
  expect(await artistDetail(one, 'vincent-van-gogh', 1, 'fr')).toEqual(first);
  await listTaxa(one, 'museums', 1, 'ja');
  // The grid, the artists, a browse page: their page's size is written into the statement, so
  // their generic plan probes the page's rows (a LIMIT parameter read as a tenth of the table).
  await listArtworks(one, { page: 1, locale: 'en' });
  await listArtists(one, 1, 'en');
  expect((await artworksBySlugs(one, ['mona-lisa', 'no-such-work', 'the-starry-night'], 'ja')).map((c) => c.slug)).toEqual(['mona-lisa', 'the-starry-night']);
  const movement = await taxonDetail(one, 'movements', 'post-impressionism', 1, 'en');
  expect(movement.works.items.length).toBeGreaterThan(0);
  // The artwork page's read: what a crawler asks most; its generic plan spares 1–2 ms of planning.
  const starry = await artworkDetail(one, 'the-starry-night', 'de');
  for (const slug of ['mona-lisa', 'the-night-watch', 'girl-with-a-pearl-earring', 'the-birth-of-venus', 'wheatfield-with-crows', 'the-starry-night'])
    await artworkDetail(one, slug, 'de');
  expect(await artworkDetail(one, 'the-starry-night', 'de')).toEqual(starry);
  expect(starry.related.length).toBeGreaterThan(0);

  const statements = await prepared();
  expect(statements.map((s) => s.statement.startsWith('/* plan once */'))).toEqual(Array(8).fill(true));
  for (const statement of statements) expect(statement.name).toBe(statementName(statement.statement));
  // Never planned for its values: PostgreSQL's own choice kept planning the artwork page's read
  // for every request (its generic plan's estimate is the higher one), 1.3 ms of 1.9.
  expect(statements.every((s) => s.custom_plans === 0n)).toBe(true);
  // The artist's and the artwork's page, each read eight times with other values.
  expect(statements.filter((s) => s.generic_plans === 8n)).toHaveLength(2);
});

test('searches of up to four words are planned once, one shape for the same kinds of words in any order', async () => {
  const fresh = createDb(setupUrl, { connections: 1 });
  try {
    const names = async () =>
      (await readRows<{ name: string }>(fresh, planOnce(Prisma.sql`SELECT name FROM pg_prepared_statements WHERE statement NOT LIKE '%pg_prepared_statements%'`))).map(
        (s) => s.name,
      );
    // The words are intersected by kind, not in the order typed: a Japanese and a Latin word make
    // one statement whichever comes first, and answer the same. (Page 2: no "did you mean".)
    const mixed = await listArtworks(fresh, { q: '川 river', page: 2, locale: 'ja' });
    expect(await listArtworks(fresh, { q: 'river 川', page: 2, locale: 'ja' })).toEqual(mixed);
    expect(await names()).toHaveLength(1);
    // Four words, one of them of two letters (checked on the matches, not intersected).
    const ermine = await listArtworks(fresh, { q: 'lady with an ermine', page: 2, locale: 'en' });
    expect(ermine.total).toBeGreaterThan(0);
    expect(await names()).toHaveLength(2);
  } finally {
    await fresh.$disconnect();
  }
});

test('a new connection of the planned pool is set up before its first read, never beside it (pg deprecates two queries at once, pg 9 refuses them)', async () => {
  // A fresh process, so that pg's once-per-process deprecation warning is not already spent, and
  // --throw-deprecation turns that warning into a failure. Several reads at once open several
  // connections, each of whose first read comes right after its setup.
  const script = `import('./src/server/db/client.ts').then(async ({ createDb, planOnce, readRows }) => {
    const { Prisma } = await import('./src/generated/prisma/client.ts');
    const db = createDb(process.env.DATABASE_URL);
    const modes = await Promise.all([1, 2, 3].map((n) => readRows(db, planOnce(Prisma.sql\`SELECT current_setting('plan_cache_mode') AS mode, \${n}::int AS n\`))));
    console.log(JSON.stringify(modes.flat().map((row) => row.mode)));
    await db.$disconnect();
  })`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--throw-deprecation', '--import', 'tsx', '--import', './scripts/server-process.mjs', '-e', script], {
    cwd: path.resolve(__dirname, '../..'),
    env: { ...process.env, VITEST: '', DATABASE_URL: setupUrl },
  });
  expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual(['force_generic_plan', 'force_generic_plan', 'force_generic_plan']);
});

test('a prepared read answers what the unprepared statement answers', async () => {
  const query = Prisma.sql`SELECT slug FROM artists WHERE status = 'published' AND slug LIKE ${'v%'} ORDER BY slug`;
  const plain = await setup.$queryRaw<{ slug: string }[]>(query);
  expect(plain.length).toBeGreaterThan(0);
  for (let i = 0; i < 7; i++) expect(await one.$queryRaw(planOnce(query))).toEqual(plain);
});

test('only planOnce texts get a name, the same for the same text', () => {
  expect(statementName('SELECT 1')).toBeUndefined();
  const text = '/* plan once */ SELECT 2';
  expect(statementName(text)).toMatch(/^s[\w-]{22}$/);
  expect(statementName(text)).toBe(statementName(text));
  expect(statementName(`${text} `)).not.toBe(statementName(text));
});

test('only the pool of planned statements plans generically: Prisma and unnamed reads are planned for their values', async () => {
  const mode = Prisma.sql`SELECT current_setting('plan_cache_mode') AS mode`;
  expect(await readRows(one, planOnce(mode))).toEqual([{ mode: 'force_generic_plan' }]);
  expect(await readRows(one, mode)).toEqual([{ mode: 'auto' }]);
  expect(await one.$queryRaw(mode)).toEqual([{ mode: 'auto' }]);
});
