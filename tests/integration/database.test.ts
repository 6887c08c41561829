import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seedCatalog } from '@/server/catalog/seed';
import { createDb, type Db } from '@/server/db/client';
import { listMigrations, migrate } from '@/server/db/migrate';
import { catalogLocales } from '@/shared/locales';
import { adminQuery, withDatabase } from '../support/global-setup';

const serverUrl = process.env.DATABASE_URL!;
const name = `artprints_fresh_${process.pid}_${Date.now()}`;
const url = withDatabase(serverUrl, name);
let db: Db;

/** The whole catalog as rows, hashed: equal hashes mean an equal catalog. */
async function catalogSnapshot(): Promise<Record<string, string>> {
  const tables = {
    artists: 'SELECT id, slug, wikidata_id, name, status, published_at, artwork_count FROM artists ORDER BY id',
    artist_texts: 'SELECT * FROM artist_texts ORDER BY artist_id, locale',
    artworks: 'SELECT id, slug, wikidata_id, artist_id, year, height_cm, width_cm, image_file, featured, status, published_at FROM artworks ORDER BY id',
    artwork_texts: 'SELECT * FROM artwork_texts ORDER BY artwork_id, locale',
    taxa: 'SELECT id, kind, slug, wikidata_id, artwork_count FROM taxa ORDER BY id',
    taxon_texts: 'SELECT * FROM taxon_texts ORDER BY taxon_id, locale',
    artwork_taxa: 'SELECT * FROM artwork_taxa ORDER BY artwork_id, taxon_id',
    taxon_aliases: 'SELECT * FROM taxon_aliases ORDER BY wikidata_id',
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const snapshot: Record<string, string> = {};
    for (const [table, sql] of Object.entries(tables)) {
      const { rows } = await client.query(sql);
      snapshot[table] = `${rows.length}:${createHash('sha256').update(JSON.stringify(rows)).digest('hex')}`;
    }
    return snapshot;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
  db = createDb(url);
});

afterAll(async () => {
  await db.$disconnect();
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('a fresh database', () => {
  test('migrate + seed twice gives the same catalog', async () => {
    expect(await migrate(url)).toEqual(listMigrations().map((m) => m.name));
    await seedCatalog(db);
    const first = await catalogSnapshot();
    expect(await migrate(url)).toEqual([]);
    await seedCatalog(db);
    expect(await catalogSnapshot()).toEqual(first);
    expect(first.artworks).toMatch(/^31:/);
  });

  test('a start with the same curated files writes nothing: no row, no catalog version, so no cache is emptied', async () => {
    const state = async () =>
      (
        await db.$queryRaw<{ version: bigint; changed: Date; updated: Date }[]>`
          SELECT v.version, v.changed_at AS changed, (SELECT max(updated_at) FROM artworks) AS updated FROM catalog_version v`
      )[0]!;
    await seedCatalog(db);
    const before = await state();
    const seeded = await db.catalogSeed.findUniqueOrThrow({ where: { id: 1 } });
    expect(await seedCatalog(db)).toMatchObject({ artworks: 31, written: false });
    expect(await state()).toEqual(before);
    expect(await db.catalogSeed.findUniqueOrThrow({ where: { id: 1 } })).toEqual(seeded);
    // Seeded from other curated files (an older release): written again, and recorded.
    await db.catalogSeed.update({ where: { id: 1 }, data: { fingerprint: 'f'.repeat(64) } });
    const snapshot = await catalogSnapshot();
    expect(await seedCatalog(db)).toMatchObject({ written: true });
    expect((await state()).version).toBeGreaterThan(before.version);
    expect(await catalogSnapshot()).toEqual(snapshot);
    expect((await db.catalogSeed.findUniqueOrThrow({ where: { id: 1 } })).fingerprint).toBe(seeded.fingerprint);
  });

  test('instances starting together seed once', async () => {
    await db.catalogSeed.deleteMany();
    const others = Array.from({ length: 3 }, () => createDb(url));
    try {
      const runs = await Promise.all(others.map((other) => seedCatalog(other)));
      expect(runs.filter((run) => run.written)).toHaveLength(1);
    } finally {
      await Promise.all(others.map((other) => other.$disconnect()));
    }
  });

  test('migrations are recorded the way Prisma records them', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query('SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name');
    await client.end();
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(listMigrations().map((m) => [m.name, m.checksum]));
    for (const row of rows) {
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test('two migrate steps at once apply each migration once', async () => {
    const other = `${name}_race`;
    await adminQuery(serverUrl, `CREATE DATABASE ${other}`);
    try {
      const results = await Promise.all([migrate(withDatabase(serverUrl, other)), migrate(withDatabase(serverUrl, other))]);
      expect(results.flat().sort()).toEqual(listMigrations().map((m) => m.name));
    } finally {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${other} WITH (FORCE)`);
    }
  });

  test('a catalog text in another locale than the six catalog languages is refused (shared-lists.test.ts holds the list)', async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: number }>(`SELECT id FROM artworks ORDER BY id LIMIT 1`);
      for (const locale of ['vi', 'EN', 'en-US']) {
        await expect(client.query(`INSERT INTO artwork_texts (artwork_id, locale, title) VALUES ($1, $2, 'x')`, [rows[0]!.id, locale])).rejects.toThrow(
          /artwork_texts_locale_check/,
        );
      }
    } finally {
      await client.end();
    }
  });

  test('the seeded catalog has at least three movements, museums and genres with 3 works, all published', async () => {
    for (const kind of ['movement', 'museum', 'genre', 'subject'] as const) {
      expect(await db.taxon.count({ where: { kind, artworkCount: { gte: 3 } } })).toBeGreaterThanOrEqual(3);
    }
    expect(await db.artwork.count({ where: { status: { not: 'published' } } })).toBe(0);
    const starry = await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q45585' }, include: { texts: true, artist: true } });
    expect(starry.artist.wikidataId).toBe('Q5582');
    expect(starry.texts.map((t) => t.locale).sort()).toEqual([...catalogLocales].sort());
    expect(starry.texts.every((t) => (t.story ?? '').length > 50)).toBe(true);
  });
});
