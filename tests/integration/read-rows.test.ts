import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Prisma, PrismaClient } from '@/generated/prisma/client';
import { artistDetail, artworkDetail, listArtists, listArtworks, listTaxa, searchSuggestions, taxonDetail } from '@/server/catalog/service';
import { createDb, readRows, type Db } from '@/server/db/client';

/**
 * The hot catalog reads go to the pool directly (readRows) instead of through Prisma: they must
 * give the very rows `$queryRaw` gives, value types included, and refuse a column type the two
 * read differently rather than hand a service a string where it expects a Decimal or a Date.
 */
let db: Db;
/** A client readRows knows no pool of: it reads through $queryRaw. */
let viaPrisma: Db;

beforeAll(() => {
  db = createDb(process.env.DATABASE_URL!, { connections: 2 });
  viaPrisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: process.env.DATABASE_URL! }) });
});
afterAll(async () => {
  await Promise.all([db.$disconnect(), viaPrisma.$disconnect()]);
});

test('a statement of every type the catalog reads gives the same values as $queryRaw', async () => {
  const statement = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.width_cm::float8 AS width_cm, w.featured, w.published_at,
           count(*) OVER () AS total, ARRAY[w.id, w.artist_id] AS ids, ARRAY[w.slug] AS slugs,
           json_build_object('slug', w.slug, 'height', w.height_cm, 'at', w.published_at) AS card,
           NULL::text AS nothing, w.popularity::float4 AS popularity
      FROM artworks w WHERE w.status = 'published' AND w.slug = ANY(${['the-starry-night', 'mona-lisa']})
     ORDER BY w.id`;
  const direct = await readRows<Record<string, unknown>>(db, statement);
  expect(direct).toHaveLength(2);
  expect(direct).toEqual(await viaPrisma.$queryRaw(statement));
  expect(typeof direct[0]!.total).toBe('bigint');
  expect(direct[0]!.published_at).toBeInstanceOf(Date);
});

test('the catalog services answer alike through readRows and through Prisma', async () => {
  for (const read of [
    (client: Db) => artworkDetail(client, 'the-starry-night', 'de'),
    (client: Db) => artistDetail(client, 'vincent-van-gogh', 1, 'ja'),
    (client: Db) => taxonDetail(client, 'movements', 'post-impressionism', 1, 'fr'),
    (client: Db) => listArtworks(client, { page: 1, locale: 'es' }),
    (client: Db) => listArtworks(client, { q: 'nacht', page: 1, locale: 'de' }),
    (client: Db) => listArtists(client, 1, 'ja'),
    (client: Db) => listTaxa(client, 'museums', 1, 'fr'),
    (client: Db) => searchSuggestions(client, 'mon', 'en'),
  ]) {
    expect(await read(db)).toEqual(await read(viaPrisma));
  }
});

test('a column pg and Prisma read differently is refused, not handed on', async () => {
  await expect(readRows(db, Prisma.sql`SELECT width_cm FROM artworks LIMIT 1`)).rejects.toThrow(/"width_cm" has type oid 1700/);
  await expect(readRows(db, Prisma.sql`SELECT current_date AS today`)).rejects.toThrow(/"today" has type oid 1082/);
});

test('inside a transaction it reads through the transaction', async () => {
  const seen = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SET LOCAL application_name = 'read-rows-test'`;
    return readRows<{ name: string }>(tx, Prisma.sql`SELECT current_setting('application_name') AS name`);
  });
  expect(seen).toEqual([{ name: 'read-rows-test' }]);
});

test('an idle connection the server closes is replaced, not a crash', async () => {
  const own = createDb(process.env.DATABASE_URL!, { connections: 1 });
  try {
    const [before] = await readRows<{ pid: number }>(own, Prisma.sql`SELECT pg_backend_pid() AS pid`);
    const pid = before!.pid;
    // As a restart or an idle timeout on the server would: the pool's idle connection is cut.
    await db.$executeRaw`SELECT pg_terminate_backend(${pid}::int)`;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [after] = await readRows<{ pid: number }>(own, Prisma.sql`SELECT pg_backend_pid() AS pid`);
    expect(after!.pid).not.toBe(pid);
  } finally {
    await own.$disconnect();
  }
});
