import { afterAll, beforeAll, expect, test } from 'vitest';
import { artistDetail, artworkDetail, listArtworks, listTaxa } from '@/server/catalog/service';
import { createDb, planOnce, statementName, type Db } from '@/server/db/client';
import { Prisma } from '@/generated/prisma/client';
import { ownDatabase } from '../support/database';

/**
 * Issue #20: the catalog reads whose generic plan measured faster are prepared once per pooled
 * connection (planOnce); every other statement is still sent unnamed and planned for its values.
 */
let setup: Db;
let one: Db;
let drop: () => Promise<void>;

beforeAll(async () => {
  let url: string;
  ({ db: setup, url, drop } = await ownDatabase('planonce'));
  // One connection, so that pg_prepared_statements shows what the reads prepared.
  one = createDb(url, { connections: 1 });
});
afterAll(async () => {
  await one.$disconnect();
  await drop();
});

const prepared = () =>
  one.$queryRaw<
    { name: string; statement: string; generic_plans: bigint; custom_plans: bigint }[]
  >`SELECT name, statement, generic_plans, custom_plans FROM pg_prepared_statements ORDER BY name`;

test('planOnce statements are prepared once and keep answering alike; others are not prepared', async () => {
  await listArtworks(one, { page: 1, locale: 'en' });
  await listArtworks(one, { q: 'night', page: 1, locale: 'en' });
  expect(await prepared()).toEqual([]);

  const first = await artistDetail(one, 'vincent-van-gogh', 1, 'fr');
  // Past PostgreSQL's five custom plans, with other values: the same statement, one preparation.
  for (const slug of ['sandro-botticelli', 'johannes-vermeer', 'rembrandt', 'edouard-manet', 'leonardo-da-vinci', 'vincent-van-gogh']) await artistDetail(one, slug, 1, 'fr');
  expect(await artistDetail(one, 'vincent-van-gogh', 1, 'fr')).toEqual(first);
  await listTaxa(one, 'museums', 1, 'ja');
  // The artwork page's read: what a crawler asks most; its generic plan spares 1–2 ms of planning.
  const starry = await artworkDetail(one, 'the-starry-night', 'de');
  for (const slug of ['mona-lisa', 'the-night-watch', 'girl-with-a-pearl-earring', 'the-birth-of-venus', 'wheatfield-with-crows', 'the-starry-night'])
    await artworkDetail(one, slug, 'de');
  expect(await artworkDetail(one, 'the-starry-night', 'de')).toEqual(starry);
  expect(starry.related.length).toBeGreaterThan(0);

  const statements = await prepared();
  expect(statements.map((s) => s.statement.startsWith('/* plan once */'))).toEqual([true, true, true]);
  const detail = statements.find((s) => s.statement.includes('artist_texts'))!;
  expect(detail.name).toBe(statementName(detail.statement));
  expect(Number(detail.generic_plans) + Number(detail.custom_plans)).toBe(8);
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
