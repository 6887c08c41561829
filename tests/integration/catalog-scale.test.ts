import { afterAll, beforeAll, expect, test } from 'vitest';
import { recountCatalog } from '@/server/catalog/counts';
import { listArtworks, searchSuggestions } from '@/server/catalog/service';
import type { Db } from '@/server/db/client';
import { ownDatabase } from '../support/database';

let db: Db;
let drop: () => Promise<void>;

/** 20,000 published works by one synthetic painter: enough for the planner to show its hand. */
beforeAll(async () => {
  ({ db, drop } = await ownDatabase('scale'));
  const artist = await db.artist.create({ data: { slug: 'synthetic-painter', name: 'Synthetic Painter', status: 'published' } });
  await db.$executeRaw`
    INSERT INTO artworks (slug, artist_id, year, popularity, status, published_at, updated_at)
    SELECT 'synthetic-' || n, ${artist.id}, 1800 + n % 120, n % 97, 'published', now(), now() FROM generate_series(1, 20000) n`;
  await db.$executeRaw`
    INSERT INTO artwork_texts (artwork_id, locale, title)
    SELECT id, 'en', 'Study of ' || (ARRAY['light', 'water', 'harbour', 'orchard', 'winter'])[1 + n % 5] || ' number ' || n
      FROM (SELECT id, split_part(slug, '-', 2)::int AS n FROM artworks WHERE slug LIKE 'synthetic-%') s`;
  await recountCatalog(db);
  // VACUUM, not only ANALYZE: rows just inserted sit in the GIN indexes' pending lists, which only
  // VACUUM (or autovacuum, whenever it comes by) merges; until then the planner prices the index
  // scan high and may choose a scan of artworks. A live catalog is vacuumed all along.
  await db.$executeRawUnsafe('VACUUM ANALYZE');
}, 120_000);
afterAll(() => drop());

test('search at scale is served by the trigram index, never a scan of artworks', async () => {
  const plan = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`
    EXPLAIN SELECT w.id FROM artworks w
     WHERE w.status = 'published' AND w.search_text LIKE '%' || shop_fold('sternennacht') || '%'`;
  const text = plan.map((row) => row['QUERY PLAN']).join('\n');
  expect(text, text).toMatch(/Bitmap Index Scan on artworks_search_text_trgm/);
  expect(text, text).not.toMatch(/Seq Scan on artworks/);
});

test('one- and two-character Japanese words are served by the CJK index, never a scan of artworks', async () => {
  // Japanese titles for a fifth of the synthetic works: 川 (river) in some, 庭園 (garden) in others.
  await db.$executeRaw`
    INSERT INTO artwork_texts (artwork_id, locale, title)
    SELECT id, 'ja', (ARRAY['川の習作', '庭園の習作', '冬の光', '港の朝', '果樹園'])[1 + n % 5] || ' ' || n
      FROM (SELECT id, split_part(slug, '-', 2)::int AS n FROM artworks WHERE slug LIKE 'synthetic-%') s
     WHERE n % 4 = 0`;
  await db.$executeRawUnsafe('VACUUM ANALYZE artworks');
  for (const word of ['川', '庭園']) {
    const plan = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`
      EXPLAIN SELECT w.id FROM artworks w
       WHERE w.status = 'published' AND cjk_grams(w.search_text) @> cjk_grams(shop_fold(${word}))`;
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text, text).toMatch(/Bitmap Index Scan on artworks_search_cjk_grams/);
    expect(text, text).not.toMatch(/Seq Scan on artworks/);
  }
  // n % 4 = 0 and n % 5 = 0 (川) or 1 (庭園): 1,000 works each among 1..20000.
  const river = await listArtworks(db, { q: '川', page: 1, locale: 'ja' });
  expect(river.total).toBe(1000);
  expect(river.items[0]?.title).toMatch(/^川の習作 /);
  const garden = await listArtworks(db, { q: '庭園 習作', page: 1, locale: 'ja' });
  expect(garden.total).toBe(1000);
  // A one-character word is a substring like any other: 冬 finds 冬の光 but not 川.
  const winter = await listArtworks(db, { q: '冬', page: 1, locale: 'ja' });
  expect(winter.total).toBe(1000);
  expect(winter.items.every((c) => c.title.startsWith('冬の光'))).toBe(true);
});

test('search still finds the curated work among 20,000 others, and the synthetic ones by their words', async () => {
  const starry = await listArtworks(db, { q: 'Sternennacht', page: 1, locale: 'en' });
  expect(starry.items.map((c) => c.slug)).toEqual(['the-starry-night']);
  // 1234 % 5 = 4: "winter"; the exact title ranks first among the titles holding these words.
  const winter = await listArtworks(db, { q: 'study of winter number 1234', page: 1, locale: 'en' });
  expect(winter.items[0]?.slug).toBe('synthetic-1234');
  expect(winter.items.map((c) => c.slug)).toEqual(expect.arrayContaining(['synthetic-12349']));
  const lists = await listArtworks(db, { page: 2, locale: 'en' });
  expect(lists.total).toBe(20031);
  expect(lists.items).toHaveLength(48);
});

/** Runs `read` on a client whose raw reads are also EXPLAINed; returns each statement's plan. */
async function plansOf(read: (db: Db) => Promise<unknown>): Promise<string[]> {
  const plans: string[] = [];
  const explaining = new Proxy(db, {
    get(target, prop) {
      if (prop !== '$queryRaw') return Reflect.get(target, prop);
      return async (sql: { text: string; values: unknown[] }) => {
        const rows = await target.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql.text}`, ...sql.values);
        plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
        return target.$queryRaw(sql as never);
      };
    },
  });
  await read(explaining);
  return plans;
}

test('search that forgives at scale: the closest title and the suggestions come from the folded-title trigram index', async () => {
  const typo = await listArtworks(db, { q: 'Sternenacht', page: 1, locale: 'en' });
  expect(typo.suggestion).toEqual({ q: 'Die Sternennacht', shown: true });
  expect(typo.items.map((c) => c.slug)).toEqual(['the-starry-night']);
  const [, closest] = await plansOf((explaining) => listArtworks(explaining, { q: 'Sternenacht', page: 1, locale: 'en' }));
  expect(closest, closest).toMatch(/Bitmap Index Scan on artwork_texts_title_trgm/);
  expect(closest, closest).not.toMatch(/Seq Scan on artwork_texts/);
  for (const [q, locale] of [
    ['sternen', 'de'],
    ['monalisa', 'en'],
    ['harbr', 'en'],
  ] as const) {
    const [plan] = await plansOf((explaining) => searchSuggestions(explaining, q, locale));
    expect(plan, plan).toMatch(/Bitmap Index Scan on artwork_texts_title_trgm/);
    expect(plan, plan).not.toMatch(/Seq Scan on artwork_texts/);
  }
  expect((await searchSuggestions(db, 'harbr', 'en')).items).toHaveLength(8);
});

test('sitemap chunks hold at most 5,000 pages each', async () => {
  const { sitemapChunk, sitemapIndex } = await import('@/server/seo/sitemaps');
  const index = await sitemapIndex(db);
  const artworkChunks = index.sitemaps.filter((s) => s.type === 'artworks');
  expect(artworkChunks.map((s) => s.entries)).toEqual([5000, 5000, 5000, 5000, 31]);
  const last = await sitemapChunk(db, 'https://shop.example', 'artworks', 5);
  expect(last.entries).toHaveLength(31);
  const first = await sitemapChunk(db, 'https://shop.example', 'artworks', 1);
  expect(first.entries).toHaveLength(5000);
  expect(new Set(first.entries.map((e) => e.loc)).size).toBe(5000);
});
