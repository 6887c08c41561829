import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { curatedArtists, curatedTaxa, curatedWorks } from '../../prisma/seed/curated';
import { seedCatalog } from '@/server/catalog/seed';
import type { Db } from '@/server/db/client';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { rest as restOn } from '../support/rest';

/**
 * Complete curated text (#17 item 3): each of the 31 curated works, its 14 painters and the curated
 * browse pages have their title, name and story in the six catalog languages, in the seeded
 * database, so no German page shows "Irises" or "The Angelus".
 */
let db: Db;
let drop: () => Promise<void>;
const rest = (path: string, query?: Record<string, string>) => restOn('GET', path, { query, db });
const others = catalogLocales.filter((locale) => locale !== 'en');

/**
 * Titles that are rightly the English one in another language: the work is known by that name there.
 * Anything else equal to the English title is an untranslated title and fails.
 */
const sameTitle = new Set([
  'mona-lisa:de', // German calls it "Mona Lisa" (also "La Gioconda")
  'primavera:de', // Botticelli's Italian title, used as such in German
  'primavera:it', // the Italian original
  'olympia:es',
  'olympia:fr',
  'olympia:de',
  'olympia:it', // Manet's title, the same in every language
  'le-dejeuner-sur-l-herbe:fr', // the French original, which English uses too
  'bal-du-moulin-de-la-galette:fr', // the French original, which English uses too
]);

/** Browse-page names that are proper names (or the same word) in another language. */
const sameTaxonName = new Set([
  'museum:museum-of-modern-art:de',
  'museum:van-gogh-museum:de',
  'museum:kroller-muller-museum:de',
  'museum:j-paul-getty-museum:de',
  'museum:j-paul-getty-museum:it',
  'museum:rijksmuseum:es',
  'museum:rijksmuseum:fr',
  'museum:rijksmuseum:de',
  'museum:rijksmuseum:it',
  'museum:mauritshuis:es',
  'museum:mauritshuis:fr',
  'museum:mauritshuis:de',
  'museum:mauritshuis:it',
  'museum:musee-d-orsay:fr',
  'museum:musee-d-orsay:de',
  'museum:art-institute-of-chicago:fr',
  'museum:art-institute-of-chicago:de',
  'museum:art-institute-of-chicago:it',
  'museum:belvedere:de',
  'museum:kunsthistorisches-museum:de',
  'movement:art-nouveau:it', // Italian uses the French term (beside "Liberty")
  'genre:portrait:fr',
  'subject:couples:fr',
  'subject:villages:fr',
  'subject:trains:fr', // the same French words
]);

beforeAll(async () => {
  ({ db, drop } = await ownDatabase('curated_texts'));
});
afterAll(() => drop());

const filled = (value: string | null | undefined) => typeof value === 'string' && value.trim().length > 0;

describe('curated texts in six languages', () => {
  test('the seed data lists 31 works, 14 painters and their browse pages', () => {
    expect(curatedWorks).toHaveLength(31);
    expect(curatedArtists).toHaveLength(14);
  });

  test('every curated work has a title and a story in each language, translated unless allow-listed', async () => {
    const rows = await db.artwork.findMany({
      where: { slug: { in: curatedWorks.map((w) => w.slug) } },
      select: { slug: true, texts: { select: { locale: true, title: true, story: true } } },
    });
    expect(rows).toHaveLength(31);
    const problems: string[] = [];
    for (const row of rows) {
      const text = Object.fromEntries(row.texts.map((t) => [t.locale, t]));
      for (const locale of catalogLocales) {
        if (!filled(text[locale]?.title)) problems.push(`${row.slug}:${locale} has no title`);
        if (!filled(text[locale]?.story)) problems.push(`${row.slug}:${locale} has no story`);
      }
      for (const locale of others) {
        if (text[locale]?.title === text.en?.title && !sameTitle.has(`${row.slug}:${locale}`)) problems.push(`${row.slug}:${locale} title is the English one`);
        if (text[locale]?.story === text.en?.story) problems.push(`${row.slug}:${locale} story is the English one`);
      }
      // Japanese is never written in the Latin alphabet alone.
      if (/^[\x20-\x7e]+$/.test(text.ja?.title ?? '')) problems.push(`${row.slug}:ja title is in Latin letters`);
    }
    expect(problems).toEqual([]);
    // The allow-list names only titles that really are the English one (no stale entries).
    for (const entry of sameTitle) {
      const [slug, locale] = entry.split(':') as [string, (typeof others)[number]];
      const work = curatedWorks.find((w) => w.slug === slug)!;
      expect(work.titles[locale], entry).toBe(work.titles.en);
    }
  });

  test('every curated painter has a name and a biography in each language', async () => {
    const rows = await db.artist.findMany({
      where: { wikidataId: { in: curatedArtists.map((a) => a.wikidataId) } },
      select: { slug: true, texts: { select: { locale: true, name: true, bio: true } } },
    });
    expect(rows).toHaveLength(14);
    const problems: string[] = [];
    for (const row of rows) {
      const text = Object.fromEntries(row.texts.map((t) => [t.locale, t]));
      for (const locale of catalogLocales) {
        if (!filled(text[locale]?.name)) problems.push(`${row.slug}:${locale} has no name`);
        if (!filled(text[locale]?.bio)) problems.push(`${row.slug}:${locale} has no biography`);
      }
      // Names in the Latin alphabet are rightly the same in es/fr/de/it ("Rembrandt"); Japanese writes them in katakana.
      if (text.ja?.name === text.en?.name) problems.push(`${row.slug}:ja name is the English one`);
      for (const locale of others) if (text[locale]?.bio === text.en?.bio) problems.push(`${row.slug}:${locale} biography is the English one`);
    }
    expect(problems).toEqual([]);
  });

  test('every curated browse page has its name in each language, translated unless allow-listed', async () => {
    const problems: string[] = [];
    for (const taxon of curatedTaxa) {
      const row = await db.taxon.findUniqueOrThrow({ where: { kind_slug: { kind: taxon.kind, slug: taxon.slug } }, select: { texts: true } });
      const name = Object.fromEntries(row.texts.map((t) => [t.locale, t.name]));
      for (const locale of catalogLocales) if (!filled(name[locale])) problems.push(`${taxon.kind}:${taxon.slug}:${locale} has no name`);
      for (const locale of others) {
        const key = `${taxon.kind}:${taxon.slug}:${locale}`;
        if (name[locale] === name.en && !sameTaxonName.has(key)) problems.push(`${key} is the English name`);
      }
    }
    expect(problems).toEqual([]);
  });

  test('the pages read the translated titles: no English on a German or Japanese page', async () => {
    const expected: [string, string, string][] = [
      ['irises', 'de', 'Schwertlilien'],
      ['the-angelus', 'de', 'Das Angelusläuten'],
      ['the-little-street', 'de', 'Die kleine Straße'],
      ['the-little-street', 'it', 'Stradina di Delft'],
      ['bal-du-moulin-de-la-galette', 'de', 'Tanz im Moulin de la Galette'],
      ['irises', 'ja', 'アイリス'],
      ['the-angelus', 'ja', '晩鐘'],
      ['the-little-street', 'ja', '小路'],
    ];
    for (const [slug, locale, title] of expected) {
      const { body } = await rest(`/artworks/${slug}`, { locale });
      expect({ slug, locale, title: body.artwork.title }).toEqual({ slug, locale, title });
    }
  });

  test('seeding again changes nothing and brings an older database its missing texts', async () => {
    const snapshot = async () =>
      JSON.stringify(
        await db.artworkText.findMany({ select: { artworkId: true, locale: true, title: true, story: true }, orderBy: [{ artworkId: 'asc' }, { locale: 'asc' }] }),
      );
    const before = await snapshot();
    // As a database seeded before the German title existed: no title in German, and the
    // fingerprint of those older curated files.
    const irises = await db.artwork.findUniqueOrThrow({ where: { slug: 'irises' } });
    await db.artworkText.update({ where: { artworkId_locale: { artworkId: irises.id, locale: 'de' } }, data: { title: null } });
    await db.catalogSeed.update({ where: { id: 1 }, data: { fingerprint: '0'.repeat(64) } });
    await seedCatalog(db);
    expect(await snapshot()).toBe(before);
    expect((await rest('/artworks/irises', { locale: 'de' })).body.artwork.title).toBe('Schwertlilien');
  });
});
