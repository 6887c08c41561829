import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { locales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { rest as restOn } from '../support/rest';

/** Search that forgives (issue #17 item 4, docs/decisions.md "Search that forgives"), on the seeded catalog. */
let db: Db;
let drop: () => Promise<void>;
const rest = (path: string, query?: Record<string, string>) => restOn('GET', path, { query, db });

beforeAll(async () => {
  ({ db, drop } = await ownDatabase('forgives'));
});
afterAll(() => drop());

const search = async (q: string, locale = 'en') => {
  const answer = await rest('/artworks', { q, locale });
  expect(answer.status).toBe(200);
  return answer.body;
};
const slugs = (body: { items: { slug: string }[] }) => body.items.map((item) => item.slug);

describe('did you mean', () => {
  test.each([
    ['Sternenacht', 'de', 'the-starry-night', 'Die Sternennacht'],
    ['starry nigth', 'en', 'the-starry-night', 'The Starry Night'],
    ['monalisa', 'en', 'mona-lisa', 'Mona Lisa'],
    ['nuit etoillee', 'fr', 'the-starry-night', 'La Nuit étoilée'],
    // A title typed in another language is corrected into the page's own.
    ['Sternenacht', 'en', 'the-starry-night', 'The Starry Night'],
    ['nuit etoillee', 'ja', 'the-starry-night', '星月夜'],
  ])('"%s" (one typo) on a %s page finds %s and suggests "%s"', async (q, locale, slug, suggested) => {
    const found = await search(q, locale);
    expect(found.suggestion).toEqual({ q: suggested, shown: true });
    expect(found.items[0]?.slug).toBe(slug);
    expect(found.total).toBe(found.items.length);
  });

  test('"Vermer" finds Vermeer\'s works through his name, named as the page names him', async () => {
    const found = await search('Vermer');
    expect(found.suggestion?.shown).toBe(true);
    const named = async (locale: string) => (await db.artistText.findFirst({ where: { artist: { slug: 'johannes-vermeer' }, locale } }))?.name;
    const english = (await named('en')) ?? (await db.artist.findUniqueOrThrow({ where: { slug: 'johannes-vermeer' } })).name;
    expect(found.suggestion?.q).toBe(english);
    expect((await search('Vermer', 'ja')).suggestion?.q).toBe((await named('ja')) ?? english);
    expect(found.total).toBe(4);
    for (const card of found.items) expect(card.artist.slug).toBe('johannes-vermeer');
  });

  test('a typo in one of several words is mended word by word when no title or name is close to the whole', async () => {
    // No title or name is close to "vermer delft" as a whole; its words are near "vermeer" and "delft".
    const delft = await search('vermer delft');
    expect(delft.suggestion).toEqual({ q: 'vermeer delft', shown: true });
    expect(slugs(delft)).toEqual(['view-of-delft', 'the-little-street']);
    // An Italian shopper: "Nascita di Venere" by Botticelli.
    const venus = await search('botticeli venere', 'it');
    expect(venus.suggestion).toEqual({ q: 'botticelli venere', shown: true });
    expect(slugs(venus)).toEqual(['the-birth-of-venus']);
    // A title close to the whole still comes first ("Die Nachtwache", not "rembrandt nachtwache").
    expect((await search('rembrant nachtwache', 'de')).suggestion).toEqual({ q: 'Die Nachtwache', shown: true });
  });

  test('words typed run together are found as the words of the list they are made of', async () => {
    const watch = await search('nightwatch');
    expect(watch.suggestion).toEqual({ q: 'The Night Watch', shown: true });
    expect(watch.items[0]?.slug).toBe('the-night-watch');
    const gogh = await search('vangogh');
    expect(gogh.suggestion?.q).toMatch(/van Gogh/);
    expect(gogh.total).toBeGreaterThan(1);
    for (const card of gogh.items) expect(card.artist.slug).toBe('vincent-van-gogh');
  });

  test('a misspelt word no word is near by trigrams gets a word guessed by edits: "ksis" is "kiss"', async () => {
    // "ksis" shares one trigram of nine with "kiss" (under pg_trgm's 0.3), and no word of the
    // list is near it: without the guess nothing is offered. Two letters swapped count as one edit.
    const kiss = await search('ksis');
    expect(kiss.suggestion).toEqual({ q: 'The Kiss', shown: true });
    expect(slugs(kiss)).toEqual(['the-kiss']);
    // Two words guessed ("klimt" for "klmit"), compared as the text they guess ("kiss klimt").
    const klimt = await search('ksis klmit');
    expect(klimt.suggestion?.shown).toBe(true);
    expect(slugs(klimt)).toContain('the-kiss');
  });

  test('an exact hit has no suggestion, and the answer keeps every field it had', async () => {
    for (const q of ['starry', 'sternennacht', 'van gogh', 'olympia']) {
      const found = await search(q);
      expect(found.suggestion).toBeNull();
      expect(Object.keys(found).sort()).toEqual(['items', 'page', 'pageSize', 'suggestion', 'total']);
    }
    expect((await rest('/artworks')).body.suggestion).toBeNull();
  });

  test('a search with one or two results keeps them and only offers the suggestion', async () => {
    const found = await search('kartofelesser', 'de');
    expect(found.suggestion).toEqual({ q: 'Die Kartoffelesser', shown: true });
    expect((await search('kartofelesser')).suggestion).toEqual({ q: 'The Potato Eaters', shown: true });
    // "Olympia" finds exactly one work: nothing close finds more, so nothing is offered.
    const one = await search('olympia');
    expect(one.total).toBe(1);
    expect(one.suggestion).toBeNull();
  });

  test('nonsense finds nothing and suggests nothing; page 2 never guesses', async () => {
    expect(await search('qqqqxxxzzz')).toEqual({ items: [], total: 0, page: 1, pageSize: 48, suggestion: null });
    const second = (await rest('/artworks', { q: 'monalisa', page: '2' })).body;
    expect(second).toEqual({ items: [], total: 0, page: 2, pageSize: 48, suggestion: null });
  });

  test('Japanese one- and two-character words work as before, with no guess', async () => {
    const night = await search('夜', 'ja');
    expect(slugs(night)).toEqual(expect.arrayContaining(['the-night-watch', 'cafe-terrace-at-night']));
    expect(night.suggestion).toBeNull();
    const starry = await search('星月夜', 'ja');
    expect(starry.items[0].slug).toBe('the-starry-night');
    expect(starry.suggestion).toBeNull();
    const kiss = await search('接吻', 'ja');
    expect(slugs(kiss)).toEqual(['the-kiss']);
    expect(kiss.suggestion).toBeNull();
  });

  test('Japanese is found as Japanese shoppers type it: without the middle dot, in half-width katakana, with a dash for the long vowel', async () => {
    for (const q of ['モナリザ', 'モナ・リザ', 'ﾓﾅﾘｻﾞ', 'モナ･リザ']) {
      const found = await search(q, 'ja');
      expect(slugs(found), q).toContain('mona-lisa');
    }
    // The catalog's own dot-less and dotted names meet the other spelling too: ゴッホ's works by his full name.
    const gogh = await search('フィンセントファンゴッホ', 'ja');
    expect(gogh.total).toBeGreaterThan(1);
    for (const card of gogh.items) expect(card.artist.slug).toBe('vincent-van-gogh');
    // A middle dot alone is no word: it finds nothing, not the whole catalog.
    for (const q of ['・', '・ ･']) expect((await search(q, 'ja')).total, q).toBe(0);
    // Suggestions while typing fold the same way.
    const typed = (await rest('/search/suggestions', { q: 'モナリ', locale: 'ja' })).body as { items: { slug: string }[] };
    expect(typed.items.map((item) => item.slug)).toContain('mona-lisa');
  });

  test("filters stay applied to the suggestion's results", async () => {
    const found = (await rest('/artworks', { q: 'monalisa', artist: 'vincent-van-gogh' })).body;
    expect(found.items).toEqual([]);
    expect(found.suggestion).toBeNull();
  });
});

describe('GET /v1/search/suggestions', () => {
  const suggest = async (q: string, locale = 'en') => {
    const answer = await rest('/search/suggestions', { q, locale });
    expect(answer.status).toBe(200);
    return answer.body.items as { kind: string; slug: string; label: string; sublabel: string | null }[];
  };

  test('a prefix suggests the works and artists it starts, in the asked language', async () => {
    const items = await suggest('star');
    expect(items[0]).toEqual({ kind: 'artwork', slug: 'the-starry-night', label: 'The Starry Night', sublabel: 'Vincent van Gogh' });
    const de = await suggest('sternen', 'de');
    expect(de[0]).toEqual({ kind: 'artwork', slug: 'the-starry-night', label: 'Die Sternennacht', sublabel: 'Vincent van Gogh' });
    const fr = await suggest('nuit', 'fr');
    expect(fr.map((i) => i.slug)).toContain('the-starry-night');
    expect(fr.find((i) => i.slug === 'the-starry-night')?.label).toBe('La Nuit étoilée');
    const ja = await suggest('star', 'ja');
    expect(ja[0]?.label).toBe('星月夜');
  });

  test('titles in another language than the asked one are found, labelled in the asked one', async () => {
    const items = await suggest('gioconda', 'en');
    expect(items[0]).toMatchObject({ kind: 'artwork', slug: 'mona-lisa', label: 'Mona Lisa' });
    const vi = await suggest('sternennacht', 'vi');
    expect(vi[0]).toMatchObject({ slug: 'the-starry-night', label: 'The Starry Night' });
  });

  test('artists by name, with their years', async () => {
    const items = await suggest('verme');
    expect(items[0]).toEqual({ kind: 'artist', slug: 'johannes-vermeer', label: 'Johannes Vermeer', sublabel: '1632–1675' });
    const ja = await suggest('ゴッホ', 'ja');
    expect(ja.find((i) => i.kind === 'artist')).toMatchObject({ slug: 'vincent-van-gogh', label: 'フィンセント・ファン・ゴッホ' });
  });

  test('typos are forgiven', async () => {
    expect((await suggest('sternenacht', 'de'))[0]?.slug).toBe('the-starry-night');
    expect((await suggest('monalisa'))[0]?.slug).toBe('mona-lisa');
    expect((await suggest('vermer'))[0]?.slug).toBe('johannes-vermeer');
    expect((await suggest('rembrant'))[0]?.slug).toBe('rembrandt');
  });

  test('short Japanese input', async () => {
    const one = await suggest('夜', 'ja');
    expect(one.map((i) => i.slug)).toEqual(expect.arrayContaining(['the-starry-night', 'the-night-watch']));
    const two = await suggest('接吻', 'ja');
    expect(two[0]).toMatchObject({ slug: 'the-kiss', label: '接吻' });
  });

  test('at most 8, nothing unpublished, accents and case ignored', async () => {
    const items = await suggest('the');
    expect(items.length).toBe(8);
    expect((await suggest('ÉDOUARD'))[0]).toMatchObject({ kind: 'artist', slug: 'edouard-manet' });
    await db.artwork.create({
      data: {
        slug: 'queued-starry',
        artistId: (await db.artist.findFirstOrThrow()).id,
        status: 'queued',
        popularity: 10_000,
        texts: { create: { locale: 'en', title: 'Starry Secret' } },
      },
    });
    expect((await suggest('starry')).map((i) => i.slug)).not.toContain('queued-starry');
    expect(await suggest('zzzzqqqq')).toEqual([]);
  });

  test('two words, accents either way, two Japanese characters, a word found inside a longer one', async () => {
    expect((await suggest('starry ni'))[0]).toMatchObject({ kind: 'artwork', slug: 'the-starry-night' });
    expect(await suggest('cafe', 'fr')).toEqual(await suggest('café', 'fr'));
    expect((await suggest('星月', 'ja'))[0]).toMatchObject({ slug: 'the-starry-night', label: '星月夜' });
    // No word starts with "sternnacht" or "ennacht": the typo branch finds the word near it or holding it.
    expect((await suggest('ennacht', 'de'))[0]).toMatchObject({ slug: 'the-starry-night', label: 'Die Sternennacht' });
  });

  test('a title that starts with the typed text comes before one with a later word starting with it', async () => {
    const items = await suggest('the');
    const starts = items.map((i) => i.kind === 'artwork' && /^the/i.test(i.label));
    // Every "The …" title first, then the rest (a title or name with a later word "the").
    expect(starts.indexOf(false) === -1 || starts.slice(starts.indexOf(false)).every((s) => !s)).toBe(true);
    expect(starts[0]).toBe(true);
  });

  test('a renamed title or painter is suggested by the new text at once: the stored folded copies follow it', async () => {
    // Suggestions rank on title_folded and name_folded, generated columns (migration 20261124190000_folded_names).
    const work = await db.artwork.findUniqueOrThrow({ where: { slug: 'the-starry-night' }, select: { id: true, artistId: true } });
    const title = { artworkId_locale: { artworkId: work.id, locale: 'de' } };
    const name = { artistId_locale: { artistId: work.artistId, locale: 'de' } };
    const [oldTitle, oldName] = await Promise.all([db.artworkText.findUniqueOrThrow({ where: title }), db.artistText.findUniqueOrThrow({ where: name })]);
    await db.artworkText.update({ where: title, data: { title: 'Dämmerungsgärtchen' } });
    await db.artistText.update({ where: name, data: { name: 'Vinzenz Öhrlein' } });
    try {
      const [folded] = await db.$queryRaw<{ title: string; name: string }[]>`
        SELECT x.title_folded AS title, n.name_folded AS name FROM artwork_texts x, artist_texts n
         WHERE x.artwork_id = ${work.id} AND x.locale = 'de' AND n.artist_id = ${work.artistId} AND n.locale = 'de'`;
      expect(folded).toEqual({ title: 'dammerungsgartchen', name: 'vinzenz ohrlein' });
      expect((await suggest('DAMMERUNGS', 'de'))[0]).toEqual({ kind: 'artwork', slug: 'the-starry-night', label: 'Dämmerungsgärtchen', sublabel: 'Vinzenz Öhrlein' });
      expect((await suggest('ohrle', 'de')).find((i) => i.kind === 'artist')).toMatchObject({ slug: 'vincent-van-gogh', label: 'Vinzenz Öhrlein' });
      // The database computes them: a value written to one is refused.
      await expect(db.$executeRaw`UPDATE artwork_texts SET title_folded = 'x' WHERE artwork_id = ${work.id}`).rejects.toThrow(/can only be updated to DEFAULT/);
    } finally {
      await db.artworkText.update({ where: title, data: { title: oldTitle.title } });
      await db.artistText.update({ where: name, data: { name: oldName.name } });
    }
  });

  test('is public and cacheable like the other catalog reads', async () => {
    const answer = await rest('/search/suggestions', { q: 'star' });
    expect(answer.headers.get('cache-control')).toMatch(/public/);
    expect(answer.headers.get('etag')).toBeTruthy();
  });

  test.each([[{ q: 'star', locale: 'pt' }], [{ q: '' }], [{ q: '   ' }], [{}], [{ q: 'x'.repeat(101) }], [{ q: 'x'.repeat(201) }], [{ q: 'nul\u0000byte' }]])(
    '%j is 400 invalid_input',
    async (query) => {
      const answer = await rest('/search/suggestions', query as Record<string, string>);
      expect(answer.status).toBe(400);
      expect(Object.keys(answer.body)).toEqual(['error']);
      expect(answer.body.error.code).toBe('invalid_input');
    },
  );
});

describe("each language's search hint", () => {
  test.each([...locales])('%s: every example in the hint finds works exactly, in that language', async (locale) => {
    const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'));
    const examples = [...(messages.Home.searchHint as string).matchAll(/[“«„「]\s?([^”»“」]+?)\s?[”»“」]/g)].map((m) => m[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      const found = await search(example, locale);
      expect(found.total, `${locale}: ${example}`).toBeGreaterThan(0);
      expect(found.suggestion, `${locale}: ${example}`).toBeNull();
    }
  });
});

describe('the OpenAPI document', () => {
  test('describes the suggestion field of the artworks list and the suggestions operation', async () => {
    const doc = (await rest('/openapi.json')).body;
    const text = JSON.stringify(doc);
    const list = JSON.stringify(doc.paths['/artworks'].get.responses['200']);
    expect(list + text).toMatch(/ArtworkSearchPage/);
    expect(JSON.stringify(doc.components?.schemas?.ArtworkSearchPage ?? doc.paths['/artworks'].get.responses['200'])).toMatch(/"suggestion"/);
    const suggestions = doc.paths['/search/suggestions'].get;
    expect(suggestions.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['locale', 'q']);
    expect(JSON.stringify(suggestions.responses['200'])).toMatch(/Suggestions|"items"/);
  });
});
