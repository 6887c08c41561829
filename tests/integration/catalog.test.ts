import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recountCatalog } from '@/server/catalog/counts';
import type { Db } from '@/server/db/client';
import { taxonKinds } from '@/shared/catalog';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { rest as restOn } from '../support/rest';

let db: Db;
let drop: () => Promise<void>;
const rest = (method: string, path: string, query?: Record<string, string>, headers?: Record<string, string>) => restOn(method, path, { query, headers, db });

/** Queued rows beside the published catalog: none of them may ever be served. */
async function addQueuedRows() {
  const vanGogh = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5582' } });
  const postImpressionism = await db.taxon.findFirstOrThrow({ where: { kind: 'movement', slug: 'post-impressionism' } });
  const hiddenMuseum = await db.taxon.create({
    data: { kind: 'museum', slug: 'hidden-museum', texts: { create: { locale: 'en', name: 'Hidden Museum' } } },
  });
  const queuedArtist = await db.artist.create({
    data: { slug: 'queued-painter', name: 'Queued Painter', status: 'queued', texts: { create: { locale: 'en', name: 'Queued Painter' } } },
  });
  const secret = (slug: string, artistId: number, title: string) =>
    db.artwork.create({
      data: {
        slug,
        artistId,
        status: 'queued',
        popularity: 1000,
        featured: true,
        texts: {
          create: [
            { locale: 'en', title },
            { locale: 'fr', title: `${title} (fr)` },
          ],
        },
        taxa: { create: [{ taxonId: postImpressionism.id }, { taxonId: hiddenMuseum.id }] },
      },
    });
  for (let i = 1; i <= 4; i++) await secret(`queued-starry-${i}`, vanGogh.id, `Starry Secret ${i}`);
  for (let i = 1; i <= 3; i++) await secret(`queued-painter-work-${i}`, queuedArtist.id, `Secret Work ${i}`);
  await recountCatalog(db);
}

beforeAll(async () => {
  ({ db, drop } = await ownDatabase('catalog'));
  await addQueuedRows();
});
afterAll(() => drop());

const allSlugs = (body: unknown) => JSON.stringify(body).match(/queued-[a-z0-9-]+|hidden-museum|Secret/g) ?? [];

describe('only published rows are ever served', () => {
  test('lists, details, related, by-slugs, browse pages, counts and search leak nothing queued', async () => {
    const answers = await Promise.all([
      rest('GET', '/artworks'),
      rest('GET', '/artworks', { featured: '1' }),
      rest('GET', '/artworks', { q: 'secret' }),
      rest('GET', '/artworks', { q: 'starry' }),
      rest('GET', '/artworks', { artist: 'vincent-van-gogh' }),
      rest('GET', '/artworks', { movement: 'post-impressionism' }),
      rest('GET', '/artworks', { museum: 'hidden-museum' }),
      rest('GET', '/artworks', { artist: 'queued-painter' }),
      rest('GET', '/artworks/by-slugs', { slugs: 'queued-starry-1,the-starry-night,queued-painter-work-1' }),
      rest('GET', '/artworks/the-starry-night'),
      rest('GET', '/artists'),
      rest('GET', '/artists/vincent-van-gogh'),
      rest('GET', '/taxa/movements'),
      rest('GET', '/taxa/museums'),
      rest('GET', '/taxa/movements/post-impressionism'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(allSlugs(answer.body)).toEqual([]);
    }
    const [all, , secretSearch, , vanGogh, postImpressionism, hidden, queuedArtist, bySlugs, starry, artists, vanGoghPage, movements, , movementPage] = answers.map(
      (a) => a.body,
    );
    expect(all.total).toBe(31);
    expect(secretSearch).toEqual({ items: [], total: 0, page: 1, pageSize: 48, suggestion: null });
    expect(vanGogh.total).toBe(5);
    expect(vanGogh.items).toHaveLength(5);
    expect(postImpressionism.total).toBe(postImpressionism.items.length);
    expect(hidden.items).toEqual([]);
    expect(queuedArtist.items).toEqual([]);
    expect(bySlugs.items.map((c: { slug: string }) => c.slug)).toEqual(['the-starry-night']);
    expect(starry.related.length).toBeGreaterThan(0);
    expect(artists.items.map((a: { slug: string }) => a.slug)).not.toContain('queued-painter');
    expect(artists.items.find((a: { slug: string }) => a.slug === 'vincent-van-gogh').artworkCount).toBe(5);
    expect(vanGoghPage.artist.artworkCount).toBe(5);
    expect(movementPage.taxon.artworkCount).toBe(movementPage.works.total);
    expect(movements.items.every((t: { artworkCount: number }) => t.artworkCount >= 3)).toBe(true);
  });

  test('a queued artwork, artist or browse page is 404', async () => {
    for (const path of ['/artworks/queued-starry-1', '/artists/queued-painter', '/taxa/museums/hidden-museum']) {
      const answer = await rest('GET', path);
      expect(answer.status).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
    }
  });
});

describe('artworks', () => {
  test('a card carries what a grid needs, in the asked language with English fallback', async () => {
    const ja = await rest('GET', '/artworks/by-slugs', { slugs: 'the-starry-night', locale: 'ja' });
    expect(ja.body.items[0]).toEqual({
      slug: 'the-starry-night',
      title: '星月夜',
      artist: { slug: 'vincent-van-gogh', name: expect.stringMatching(/ゴッホ/) },
      year: 1889,
      yearPrecision: 'year',
      widthCm: expect.any(Number),
      heightCm: expect.any(Number),
      imageFile: expect.any(String),
      imageUrl: expect.stringMatching(/^https:\/\/commons\.wikimedia\.org\/wiki\/Special:FilePath\//),
    });
    const vi = await rest('GET', '/artworks/by-slugs', { slugs: 'the-starry-night', locale: 'vi' });
    expect(vi.body.items[0].title).toBe('The Starry Night');
  });

  test('a missing title falls back to English', async () => {
    // Every curated work has its six titles (curated-texts.test.ts), so one is taken away for the test.
    const row = await db.artworkText.findFirstOrThrow({ where: { artwork: { slug: 'irises' }, locale: 'de' } });
    const key = { artworkId_locale: { artworkId: row.artworkId, locale: 'de' } };
    await db.artworkText.update({ where: key, data: { title: null } });
    try {
      const irises = await rest('GET', '/artworks/irises', { locale: 'de' });
      expect(irises.status).toBe(200);
      expect(irises.body.artwork.title).toBe('Irises');
      const english = await rest('GET', '/artworks/irises');
      expect(irises.body.artwork.story).toMatch(/Van Gogh/);
      expect(irises.body.artwork.story).not.toBe(english.body.artwork.story);
    } finally {
      await db.artworkText.update({ where: key, data: { title: row.title } });
    }
    expect((await rest('GET', '/artworks/irises', { locale: 'de' })).body.artwork.title).toBe('Schwertlilien');
  });

  test('the list is best known first, 48 a page, and a page past the end is empty', async () => {
    const first = await rest('GET', '/artworks');
    expect(first.body.items[0].slug).toBe('mona-lisa');
    expect(first.body).toMatchObject({ total: 31, page: 1, pageSize: 48 });
    expect(first.body.items).toHaveLength(31);
    const second = await rest('GET', '/artworks', { page: '2' });
    expect(second.body).toEqual({ items: [], total: 31, page: 2, pageSize: 48, suggestion: null });
  });

  test('featured=1 keeps only featured works; filters by artist and browse pages combine', async () => {
    const featured = await rest('GET', '/artworks', { featured: '1' });
    expect(featured.body.total).toBe(8);
    const combined = await rest('GET', '/artworks', { artist: 'vincent-van-gogh', museum: 'van-gogh-museum' });
    expect(combined.body.items.length).toBeGreaterThan(0);
    expect(combined.body.total).toBe(combined.body.items.length);
    for (const card of combined.body.items) expect(card.artist.slug).toBe('vincent-van-gogh');
  });

  test('two browse-page filters keep only works in both', async () => {
    const both = await rest('GET', '/artworks', { museum: 'musee-d-orsay', genre: 'genre-painting' });
    const expected = await db.$queryRaw<{ slug: string }[]>`
      SELECT w.slug FROM artworks w WHERE w.status = 'published'
         AND w.id IN (SELECT l.artwork_id FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id WHERE t.kind = 'museum' AND t.slug = 'musee-d-orsay')
         AND w.id IN (SELECT l.artwork_id FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id WHERE t.kind = 'genre' AND t.slug = 'genre-painting')
       ORDER BY w.popularity DESC, w.id`;
    expect(expected.length).toBeGreaterThan(0);
    expect(both.body.items.map((c: { slug: string }) => c.slug)).toEqual(expected.map((e) => e.slug));
    expect(both.body.total).toBe(expected.length);
    expect((await rest('GET', '/artworks', { museum: 'musee-d-orsay', genre: 'no-such-genre' })).body).toMatchObject({ items: [], total: 0 });
  });

  test('detail has artist, browse pages and related works', async () => {
    const answer = await rest('GET', '/artworks/the-night-watch', { locale: 'fr' });
    expect(answer.status).toBe(200);
    const { artwork, related } = answer.body;
    expect(artwork).toMatchObject({ slug: 'the-night-watch', title: 'La Ronde de nuit', wikidataId: 'Q219831', artist: { slug: 'rembrandt' } });
    expect(artwork.story.length).toBeGreaterThan(50);
    expect(artwork.taxa.map((t: { kind: string }) => t.kind)).toEqual(expect.arrayContaining(['museums', 'movements', 'genres', 'subjects']));
    expect(related.length).toBeGreaterThan(0);
    expect(related[0].artist.slug).toBe('rembrandt');
    expect(related.map((c: { slug: string }) => c.slug)).not.toContain('the-night-watch');
  });

  test('by-slugs keeps the order given and leaves unknown slugs out', async () => {
    const answer = await rest('GET', '/artworks/by-slugs', { slugs: 'the-kiss,nope,mona-lisa,the-kiss, olympia' });
    expect(answer.body.items.map((c: { slug: string }) => c.slug)).toEqual(['the-kiss', 'mona-lisa', 'olympia']);
  });
});

describe('search', () => {
  const search = async (q: string, locale = 'en') => (await rest('GET', '/artworks', { q, locale })).body;

  test.each([['starry'], ['sternennacht'], ['nuit etoilee'], ['NUIT ÉTOILÉE'], ['noche estrellada'], ['notte stellata'], ['星月夜']])(
    '"%s" finds The Starry Night',
    async (q) => {
      const found = await search(q);
      expect(found.items[0]?.slug).toBe('the-starry-night');
    },
  );

  test('artist names find their works, in any language', async () => {
    for (const q of ['van gogh', 'VINCENT', 'ゴッホ']) {
      const found = await search(q);
      expect(found.total).toBe(5);
      for (const card of found.items) expect(card.artist.slug).toBe('vincent-van-gogh');
    }
  });

  test('an exact title comes first', async () => {
    const found = await search('the kiss');
    expect(found.items[0].slug).toBe('the-kiss');
    const olympia = await search('olympia');
    expect(olympia.items[0].slug).toBe('olympia');
  });

  test('a title of 500 characters (1,500 bytes in Japanese) is stored and still ranks as a title starting with the words', async () => {
    // Titles past 800 bytes are kept out of the covering title index (a btree entry holds at most
    // 2,704 bytes) and found through a second one; the ranking must still see them.
    const [best, second] = await db.artwork.findMany({
      where: { status: 'published' },
      orderBy: [{ popularity: 'desc' }, { id: 'asc' }],
      take: 2,
      include: { texts: { where: { locale: 'ja' } } },
    });
    const titleOf = (work: typeof best) => work!.texts[0]?.title ?? null;
    const setJa = (work: typeof best, title: string | null) =>
      db.artworkText.upsert({ where: { artworkId_locale: { artworkId: work!.id, locale: 'ja' } }, update: { title }, create: { artworkId: work!.id, locale: 'ja', title } });
    const [bestTitle, secondTitle] = [titleOf(best), titleOf(second)];
    await setJa(second, '長'.repeat(500));
    await setJa(best, '夜の長長長');
    try {
      // Both hold the words; the less known one comes first because its (long) title starts with them.
      const found = await search('長長長', 'ja');
      expect(found.items.map((c: { slug: string }) => c.slug)).toEqual([second!.slug, best!.slug]);
      const exact = await search('長'.repeat(200), 'ja');
      expect(exact.items.map((c: { slug: string }) => c.slug)).toEqual([second!.slug]);
    } finally {
      await setJa(second, secondTitle);
      await setJa(best, bestTitle);
    }
  });

  test.each([
    ['a percent sign', '%'],
    ['an underscore', '_'],
    ['SQL', "'; DROP TABLE artworks; --"],
    ['a regex', '.*'],
    ['a backslash', '\\'],
    ['brackets', '(['],
    ['a lone surrogate', '\ud800'],
    ['200 letters', 'a'.repeat(200)],
  ])('%s in q gives a correct empty result, never an error', async (_label, q) => {
    const answer = await rest('GET', '/artworks', { q });
    expect(answer.status).toBe(200);
    expect(answer.body.items).toEqual([]);
    expect(answer.body.total).toBe(0);
  });
});

describe('artists and browse pages', () => {
  test('artists: 48 a page, with total, most works first', async () => {
    const answer = await rest('GET', '/artists', { locale: 'ja' });
    expect(answer.body).toMatchObject({ total: 14, page: 1, pageSize: 48 });
    expect(answer.body.items[0]).toMatchObject({ slug: expect.any(String), name: expect.any(String), artworkCount: expect.any(Number) });
    const counts = answer.body.items.map((a: { artworkCount: number }) => a.artworkCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  test('an artist page has the artist, main movements and works', async () => {
    const answer = await rest('GET', '/artists/johannes-vermeer');
    expect(answer.body.artist).toMatchObject({ slug: 'johannes-vermeer', artworkCount: 4, deathYear: 1675, wikidataId: 'Q41264' });
    expect(answer.body.artist.bio.length).toBeGreaterThan(20);
    expect(answer.body.movements[0]).toMatchObject({ kind: 'movements', slug: 'dutch-golden-age', artworkCount: 4 });
    expect(answer.body.works.total).toBe(4);
  });

  test('each kind lists only browse pages with at least 3 works; a page has works and top artists', async () => {
    for (const kind of taxonKinds) {
      const answer = await rest('GET', `/taxa/${kind}`);
      expect(answer.status).toBe(200);
      expect(answer.body.items.length).toBeGreaterThanOrEqual(3);
      for (const taxon of answer.body.items) expect(taxon.artworkCount).toBeGreaterThanOrEqual(3);
    }
    const orsay = await rest('GET', '/taxa/museums/musee-d-orsay', { locale: 'fr' });
    expect(orsay.body.taxon).toMatchObject({ kind: 'museums', slug: 'musee-d-orsay', artworkCount: 5 });
    expect(orsay.body.works.total).toBe(5);
    const expected = await db.$queryRaw<{ slug: string; n: number }[]>`
      SELECT a.slug, count(*)::int AS n FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id AND t.slug = 'musee-d-orsay'
        JOIN artworks w ON w.id = l.artwork_id AND w.status = 'published' JOIN artists a ON a.id = w.artist_id
       GROUP BY a.id, a.slug ORDER BY n DESC, a.id`;
    expect(orsay.body.topArtists.map((a: { slug: string; artworkCount: number }) => [a.slug, a.artworkCount])).toEqual(expected.map((e) => [e.slug, e.n]));
  });

  test('a browse page appears at 3 published works and disappears below', async () => {
    const vanGogh = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5582' } });
    const taxon = await db.taxon.create({ data: { kind: 'subject', slug: 'cypresses', texts: { create: { locale: 'en', name: 'Cypresses' } } } });
    const works = await db.artwork.findMany({ where: { artistId: vanGogh.id, status: 'published' }, take: 3, orderBy: { id: 'asc' } });
    const listed = async () => ((await rest('GET', '/taxa/subjects')).body.items as { slug: string }[]).some((t) => t.slug === 'cypresses');
    await db.artworkTaxon.createMany({ data: works.slice(0, 2).map((w) => ({ artworkId: w.id, taxonId: taxon.id })) });
    await recountCatalog(db);
    expect(await listed()).toBe(false);
    expect((await rest('GET', '/taxa/subjects/cypresses')).status).toBe(404);
    await db.artworkTaxon.create({ data: { artworkId: works[2]!.id, taxonId: taxon.id } });
    await recountCatalog(db);
    expect(await listed()).toBe(true);
    expect((await rest('GET', '/taxa/subjects/cypresses')).body.works.total).toBe(3);
    await db.artworkTaxon.delete({ where: { artworkId_taxonId: { artworkId: works[2]!.id, taxonId: taxon.id } } });
    await recountCatalog(db);
    expect(await listed()).toBe(false);
  });
});

describe('bad input', () => {
  test.each([
    ['/artworks', { page: '0' }],
    ['/artworks', { page: '-1' }],
    ['/artworks', { page: 'two' }],
    ['/artworks', { page: '1.5' }],
    ['/artworks', { page: '99999999999' }],
    ['/artworks', { featured: '2' }],
    ['/artworks', { featured: 'yes' }],
    ['/artworks', { locale: 'pt' }],
    ['/artworks', { q: 'x'.repeat(201) }],
    ['/artworks', { q: 'nul\u0000byte' }],
    ['/artists', { page: '0' }],
    ['/taxa/museums', { page: 'x' }],
    ['/artworks/by-slugs', { slugs: Array.from({ length: 101 }, (_, i) => `s${i}`).join(',') }],
    ['/artworks/by-slugs', {}],
  ])('%s %# is 400 invalid_input', async (path, query) => {
    const answer = await rest('GET', path, query);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: { code: 'invalid_input', message: expect.any(String) } });
  });

  test.each([
    ['a slug of 10,000 characters', '/artworks/' + 'a'.repeat(10_000), 400],
    ['an unknown slug', '/artworks/no-such-work', 404],
    ['a NUL slug (decisions.md: U+0000 anywhere is invalid input)', '/artworks/%00', 400],
    ['a slug in capitals', '/artworks/Mona-Lisa', 404],
    ['an unknown kind', '/taxa/painters', 404],
    ['an unknown kind with a slug', '/taxa/painters/x', 404],
    ['an unknown artist', '/artists/no-one', 404],
  ])('%s is %i with the error shape', async (_label, path, status) => {
    const answer = await rest('GET', path);
    expect(answer.status).toBe(status);
    expect(Object.keys(answer.body)).toEqual(['error']);
  });

  test('a repeated query key is a list, which a single value refuses; a numeric page is coerced as before', async () => {
    const twice = await rest('GET', '/artworks?page=1&page=2');
    expect(twice.status).toBe(400);
    expect(twice.body.error.details).toEqual([{ path: 'page', message: expect.any(String) }]);
    expect(twice.body.error.message).toMatch(/^Invalid input at page: /);
    const second = await rest('GET', '/artworks', { page: '2' });
    expect(second.status).toBe(200);
    expect(second.body.page).toBe(2);
  });

  test('100 slugs are accepted', async () => {
    const answer = await rest('GET', '/artworks/by-slugs', { slugs: ['mona-lisa', ...Array.from({ length: 99 }, (_, i) => `s${i}`)].join(',') });
    expect(answer.status).toBe(200);
    expect(answer.body.items).toHaveLength(1);
  });
});

describe('HTTP caching', () => {
  test('catalog answers carry Cache-Control and an ETag, and If-None-Match gets 304', async () => {
    const first = await rest('GET', '/artworks/mona-lisa');
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+.*stale-while-revalidate=\d+/);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await rest('GET', '/artworks/mona-lisa', undefined, { 'if-none-match': etag! });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    const other = await rest('GET', '/artworks/mona-lisa', { locale: 'ja' }, { 'if-none-match': etag! });
    expect(other.status).toBe(200);
  });

  test('errors carry no ETag, and what is not a public catalog read is never stored', async () => {
    expect((await rest('GET', '/artworks/nope')).headers.get('etag')).toBeNull();
    expect((await rest('GET', '/pricing')).headers.get('cache-control')).toBe('private, no-store');
    expect((await rest('GET', '/account/me')).headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('sitemap data', () => {
  test('the index lists a chunk per type with entry counts, and chunks hold published pages in six languages', async () => {
    const index = await rest('GET', '/seo/sitemaps');
    expect(index.status).toBe(200);
    expect(index.body.chunkSize).toBe(5000);
    const byType = Object.fromEntries(index.body.sitemaps.map((s: { type: string }) => [s.type, s]));
    expect(byType.artworks).toMatchObject({ chunk: 1, entries: 31, path: '/v1/seo/sitemaps/artworks/1', lastModified: expect.stringMatching(/Z$/) });
    expect(byType.artists.entries).toBe(14);
    expect(byType.pages.entries).toBeGreaterThan(5);

    const artworks = await rest('GET', '/seo/sitemaps/artworks/1');
    expect(artworks.body.entries).toHaveLength(31);
    expect(allSlugs(artworks.body)).toEqual([]);
    const mona = artworks.body.entries.find((e: { loc: string }) => e.loc.endsWith('/en/artworks/mona-lisa'));
    expect(mona.alternates.map((a: { hreflang: string }) => a.hreflang)).toEqual([...catalogLocales]);
    expect(mona.alternates[5].href).toMatch(/\/ja\/artworks\/mona-lisa$/);

    const taxa = await rest('GET', '/seo/sitemaps/taxa/1');
    const counted = await db.taxon.count({ where: { artworkCount: { gte: 3 } } });
    expect(taxa.body.entries).toHaveLength(counted);
    expect(taxa.body.entries.map((e: { loc: string }) => e.loc)).toContainEqual(expect.stringMatching(/\/en\/museums\/musee-d-orsay$/));
    expect(byType.taxa.entries).toBe(counted);
  });

  test('an unknown type or chunk is 404; a chunk that is not a positive integer is 400', async () => {
    expect((await rest('GET', '/seo/sitemaps/paintings/1')).status).toBe(404);
    expect((await rest('GET', '/seo/sitemaps/artworks/2')).status).toBe(404);
    expect((await rest('GET', '/seo/sitemaps/artworks/0')).status).toBe(400);
    expect((await rest('GET', '/seo/sitemaps/artworks/one')).status).toBe(400);
  });
});
