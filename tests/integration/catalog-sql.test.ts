import { PrismaPg } from '@prisma/adapter-pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { recountCatalog } from '@/server/catalog/counts';
import { artistDetail, artworkDetail, listArtists, listArtworks, listTaxa, taxonDetail } from '@/server/catalog/service';
import type { Db } from '@/server/db/client';
import { ownDatabase } from '../support/database';

/**
 * Issue #20: each catalog read is one round trip, and a search is answered from the search index
 * (artwork_terms, search_terms), which triggers keep in step with the works.
 */
let db: Db;
let url: string;
let drop: () => Promise<void>;
let logging: PrismaClient;
let statements: { sql: string; params: unknown[] }[] = [];

beforeAll(async () => {
  ({ db, url, drop } = await ownDatabase('sql'));
  logging = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: 'event', level: 'query' }] });
  (logging as unknown as { $on(e: 'query', cb: (event: { query: string; params: string }) => void): void }).$on('query', (event) =>
    statements.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }),
  );
});
afterAll(async () => {
  await logging.$disconnect();
  await drop();
});

/** The statements one read sends to the database. */
async function statementsOf(read: (client: Db) => Promise<unknown>): Promise<{ sql: string; params: unknown[] }[]> {
  statements = [];
  await read(logging);
  return statements;
}

describe('one statement per catalog read', () => {
  test.each([
    ['artwork detail', (c: Db) => artworkDetail(c, 'the-starry-night', 'fr')],
    ['artist detail', (c: Db) => artistDetail(c, 'vincent-van-gogh', 1, 'ja')],
    ['artist detail, a page past the end', (c: Db) => artistDetail(c, 'vincent-van-gogh', 9, 'en')],
    ['browse page', (c: Db) => taxonDetail(c, 'movements', 'post-impressionism', 1, 'de')],
    ['artworks, page 1', (c: Db) => listArtworks(c, { page: 1, locale: 'en' })],
    ['artworks, a page past the end', (c: Db) => listArtworks(c, { page: 50, locale: 'en' })],
    ['artworks of an artist', (c: Db) => listArtworks(c, { page: 1, locale: 'en', artist: 'vincent-van-gogh' })],
    ['artists', (c: Db) => listArtists(c, 1, 'it')],
    ['browse pages', (c: Db) => listTaxa(c, 'museums', 1, 'es')],
    ['a search of one word', (c: Db) => listArtworks(c, { q: 'night', page: 1, locale: 'en' })],
    ['a search of two words, page 2 past the end', (c: Db) => listArtworks(c, { q: 'starry night', page: 2, locale: 'en' })],
  ])('%s', async (_, read) => {
    const sent = await statementsOf(read);
    expect(sent, sent.map((s) => s.sql).join('\n---\n')).toHaveLength(1);
  });

  test('details and lists keep their totals and pages in that one statement', async () => {
    const artist = await artistDetail(db, 'vincent-van-gogh', 9, 'en');
    expect(artist.works.items).toEqual([]);
    expect(artist.works.total).toBe(artist.artist.artworkCount);
    expect(artist.works.total).toBeGreaterThan(0);
    const past = await listArtworks(db, { page: 50, locale: 'en' });
    expect(past.items).toEqual([]);
    expect(past.total).toBe((await listArtworks(db, { page: 1, locale: 'en' })).total);
    const searchPast = await listArtworks(db, { q: 'night', page: 5, locale: 'en' });
    expect(searchPast.items).toEqual([]);
    expect(searchPast.total).toBe((await listArtworks(db, { q: 'night', page: 1, locale: 'en' })).total);
    expect(searchPast.total).toBeGreaterThan(1);
  });
});

describe('the search index', () => {
  const slugs = async (q: string, locale: 'en' | 'ja' | 'fr' = 'en') => (await listArtworks(db, { q, page: 1, locale })).items.map((c) => c.slug);

  test('a search alone decides its matches from the search index, never from the works', async () => {
    for (const q of ['night', 'starry night', '夜', '星月']) {
      const [first] = await statementsOf((c) => listArtworks(c, { q, page: 1, locale: 'en' }));
      const plan = (await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${first!.sql}`, ...first!.params)).map((r) => r['QUERY PLAN']).join('\n');
      expect(plan, plan).toMatch(/artwork_terms/);
      // No match is decided on a work's row (a table this small may still be scanned for the page's cards).
      expect(plan, plan).not.toMatch(/search_text|artworks_search_cjk_grams/);
    }
  });

  test('one- and two-character Japanese words, accents and case find what they found before', async () => {
    expect(await slugs('夜', 'ja')).toEqual(expect.arrayContaining(['the-night-watch', 'cafe-terrace-at-night', 'the-starry-night']));
    expect(await slugs('接吻', 'ja')).toEqual(['the-kiss']);
    expect(await slugs('夜警', 'ja')).toEqual(['the-night-watch']);
    expect(await slugs('NUIT ÉTOILÉE', 'fr')).toEqual(['the-starry-night']);
    expect(await slugs('nuit etoilee', 'fr')).toEqual(['the-starry-night']);
    // A word inside another word is still found (a term's substring, as it was the text's).
    expect(await slugs('ernennach')).toEqual(['the-starry-night']);
    // LIKE's wildcards are the characters themselves.
    expect(await slugs('%')).toEqual([]);
    // "n_ght" matches nothing as typed; what the grid then shows is labelled as another search, the
    // nearest words of the list (did you mean, shown because the search found nothing).
    expect((await listArtworks(db, { q: 'n_ght', page: 1, locale: 'en' })).suggestion).toEqual({ q: 'night', shown: true });
  });

  test('a one- or two-letter word among longer ones finds exactly the works whose text holds every word', async () => {
    for (const q of ['nuit la', 'the of', 'night a watch', 'starry y', 'à paris']) {
      const words = q.split(' ');
      const holding = words.map((_, i) => `search_text LIKE '%' || shop_fold($${i + 1}) || '%'`).join(' AND ');
      const expected = await db.$queryRawUnsafe<{ slug: string }[]>(`SELECT slug FROM artworks WHERE status = 'published' AND ${holding} ORDER BY slug`, ...words);
      const found = await listArtworks(db, { q, page: 1, locale: 'en' });
      expect(found.total, q).toBe(expected.length);
      expect(found.items.map((c) => c.slug).sort(), q).toEqual(expected.map((r) => r.slug));
    }
    expect((await listArtworks(db, { q: 'night a watch', page: 1, locale: 'en' })).total).toBeGreaterThan(0);
  });

  test('ranking: the exact title first, then titles starting with the words, then the best known', async () => {
    const artist = await db.artist.findFirstOrThrow({ where: { status: 'published' } });
    const work = (slug: string, title: string, popularity: number) =>
      db.artwork.create({
        data: { slug, artistId: artist.id, status: 'published', popularity, publishedAt: new Date(), texts: { create: { locale: 'en', title } } },
      });
    await work('zyx-famous', 'A Study with Zyxwv', 900);
    await work('zyx-starts', 'Zyxwv at Dusk', 10);
    await work('zyx-exact', 'Zyxwv', 1);
    await work('zyx-known', 'Another Zyxwv Study', 500);
    // Starts with the word too, followed by a character of three bytes (the range of titles
    // starting with the words ends at the word followed by the last code point).
    await work('zyx-harbour', 'Zyxwv港', 0);
    expect(await slugs('zyxwv')).toEqual(['zyx-exact', 'zyx-starts', 'zyx-harbour', 'zyx-famous', 'zyx-known']);
    expect(await slugs('ZYXWV')).toEqual(['zyx-exact', 'zyx-starts', 'zyx-harbour', 'zyx-famous', 'zyx-known']);
  });

  test('one word ranks from its entries as it did from the titles: on the curated catalog, in six languages', async () => {
    // The ranking as it was computed before artwork_terms.lead: from the titles themselves.
    const fromTitles = async (q: string) =>
      (
        await db.$queryRaw<{ slug: string }[]>`
          SELECT w.slug FROM artworks w
           WHERE w.status = 'published' AND w.search_text LIKE '%' || shop_fold(${q}) || '%'
           ORDER BY EXISTS (SELECT 1 FROM artwork_texts x WHERE x.artwork_id = w.id AND shop_fold(x.title) = shop_fold(${q})) DESC,
                    EXISTS (SELECT 1 FROM artwork_texts x WHERE x.artwork_id = w.id AND starts_with(shop_fold(x.title), shop_fold(${q}))) DESC,
                    w.popularity DESC, w.id
           LIMIT 48`
      ).map((r) => r.slug);
    const words = [
      'the',
      'night',
      'nuit',
      'nacht',
      'starry',
      'la',
      'mona',
      'wheat',
      'gogh',
      'sterne',
      'noche',
      'notte',
      'girl',
      'woman',
      'femme',
      'pearl',
      'ひまわり',
      '星月夜',
      'van',
    ];
    let ranked = 0;
    for (const q of words) {
      const expected = await fromTitles(q);
      expect(await slugs(q), q).toEqual(expected);
      ranked += expected.length;
    }
    expect(ranked).toBeGreaterThan(60);
  });

  test('a title renamed moves its work in a one-word search: the title itself, starting with the word, holding it', async () => {
    const artist = await db.artist.findFirstOrThrow({ where: { status: 'published' } });
    const work = (slug: string, title: string, popularity: number) =>
      db.artwork.create({
        data: { slug, artistId: artist.id, status: 'published', popularity, publishedAt: new Date(), texts: { create: { locale: 'en', title } } },
      });
    const alone = await work('pluvr-alone', 'Pluvr', 1);
    await work('pluvr-first', 'Pluvr at Sea', 2);
    const within = await work('pluvr-within', 'Sea with Pluvr', 900);
    expect(await slugs('pluvr')).toEqual(['pluvr-alone', 'pluvr-first', 'pluvr-within']);
    expect(await slugs('pluv')).toEqual(['pluvr-first', 'pluvr-alone', 'pluvr-within']);
    // The title that was the word now only holds it; a French title makes the best-known work's the word.
    await db.artworkText.update({ where: { artworkId_locale: { artworkId: alone.id, locale: 'en' } }, data: { title: 'Grey Pluvr' } });
    expect(await slugs('pluvr')).toEqual(['pluvr-first', 'pluvr-within', 'pluvr-alone']);
    await db.artworkText.create({ data: { artworkId: within.id, locale: 'fr', title: 'Pluvr' } });
    expect(await slugs('pluvr')).toEqual(['pluvr-within', 'pluvr-first', 'pluvr-alone']);
    const leads = await db.artworkTerm.findMany({ where: { term: 'pluvr' }, select: { artwork: { select: { slug: true } }, lead: true } });
    expect(Object.fromEntries(leads.map((l) => [l.artwork.slug, l.lead]))).toEqual({ 'pluvr-alone': 0, 'pluvr-first': 1, 'pluvr-within': 2 });
  });

  test('the triggers keep the index in step: a new title, a rename, unpublishing, popularity', async () => {
    const artist = await db.artist.findFirstOrThrow({ where: { status: 'published' } });
    const made = await db.artwork.create({
      data: { slug: 'qwrtp-work', artistId: artist.id, status: 'queued', popularity: 5, texts: { create: { locale: 'en', title: 'Qwrtp Harbour' } } },
    });
    expect(await slugs('qwrtp')).toEqual([]); // queued: not searchable
    await db.artwork.update({ where: { id: made.id }, data: { status: 'published', publishedAt: new Date() } });
    expect(await slugs('qwrtp')).toEqual(['qwrtp-work']);
    await db.artworkText.create({ data: { artworkId: made.id, locale: 'ja', title: '霧港' } });
    expect(await slugs('霧', 'ja')).toEqual(['qwrtp-work']);
    await db.artworkText.update({ where: { artworkId_locale: { artworkId: made.id, locale: 'en' } }, data: { title: 'Plmkj Harbour' } });
    expect(await slugs('qwrtp')).toEqual([]);
    expect(await slugs('plmkj')).toEqual(['qwrtp-work']);
    const entries = () => db.artworkTerm.findMany({ where: { artworkId: made.id }, select: { term: true, popularity: true }, orderBy: { term: 'asc' } });
    await db.artwork.update({ where: { id: made.id }, data: { popularity: 77 } });
    expect(new Set((await entries()).map((e) => e.popularity))).toEqual(new Set([77]));
    expect((await entries()).map((e) => e.term)).toEqual(expect.arrayContaining(['plmkj', 'harbour', '霧港']));
    await db.artwork.update({ where: { id: made.id }, data: { status: 'queued' } });
    expect(await entries()).toEqual([]);
    expect(await slugs('plmkj')).toEqual([]);
    await db.artwork.delete({ where: { id: made.id } });
  });

  test('an artist renamed is found by the new name in every work', async () => {
    const artist = await db.artist.create({ data: { slug: 'vbnmq-painter', name: 'Vbnmq Painter', status: 'published' } });
    await db.artwork.create({
      data: { slug: 'vbnmq-work', artistId: artist.id, status: 'published', publishedAt: new Date(), texts: { create: { locale: 'en', title: 'Quiet Pond' } } },
    });
    await recountCatalog(db);
    expect(await slugs('vbnmq')).toEqual(['vbnmq-work']);
    await db.artist.update({ where: { id: artist.id }, data: { name: 'Zxcvq Painter' } });
    expect(await slugs('vbnmq')).toEqual([]);
    expect(await slugs('zxcvq painter')).toEqual(['vbnmq-work']);
  });
});
