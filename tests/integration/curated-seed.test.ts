import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { curatedArtists, curatedFiles, curatedTaxa, curatedWorks, CuratedSeedError, parseCurated, type CuratedSources } from '../../prisma/seed/curated';
import { seedCatalog } from '@/server/catalog/seed';
import type { Db } from '@/server/db/client';
import { ownDatabase } from '../support/database';

/**
 * The curated seed is JSON data (prisma/seed/curated-*.json) read through one typed loader
 * (prisma/seed/curated.ts): what it puts in the database, what it says about a broken file, and
 * that the files stay in the shape an editor keeps them in.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const sources = (): CuratedSources => ({
  artists: JSON.parse(read(curatedFiles.artists)),
  taxa: JSON.parse(read(curatedFiles.taxa)),
  works: JSON.parse(read(curatedFiles.works)),
});

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await ownDatabase('curated_seed'));
});
afterAll(() => drop());

describe('the curated seed in the database', () => {
  test('puts every curated work, painter and browse page in, with all their texts and links', async () => {
    const links = curatedWorks.reduce((n, w) => n + 3 + w.subjects.length, 0);
    expect({ works: curatedWorks.length, artists: curatedArtists.length, taxa: curatedTaxa.length, links }).toEqual({ works: 31, artists: 14, taxa: 70, links: 202 });
    expect({
      artworks: await db.artwork.count({ where: { curated: true, status: 'published' } }),
      artworkTexts: await db.artworkText.count({ where: { titleSource: 'curated', storySource: 'curated' } }),
      artists: await db.artist.count({ where: { status: 'published' } }),
      artistTexts: await db.artistText.count(),
      taxa: await db.taxon.count(),
      taxonTexts: await db.taxonText.count(),
      links: await db.artworkTaxon.count(),
      aliases: await db.taxonAlias.count(),
    }).toEqual({ artworks: 31, artworkTexts: 31 * 6, artists: 14, artistTexts: 14 * 6, taxa: 70, taxonTexts: 70 * 6, links: 202, aliases: 1 });
    const perKind = await db.taxon.groupBy({ by: ['kind'], _count: true, orderBy: { kind: 'asc' } });
    expect(Object.fromEntries(perKind.map((k) => [k.kind, k._count]))).toEqual(
      Object.fromEntries(['museum', 'movement', 'genre', 'subject'].map((kind) => [kind, curatedTaxa.filter((t) => t.kind === kind).length])),
    );
  });

  test('writes the texts and facts of the files', async () => {
    const monaLisa = await db.artwork.findUniqueOrThrow({
      where: { slug: 'mona-lisa' },
      include: { artist: true, texts: { where: { locale: { in: ['fr', 'ja'] } }, orderBy: { locale: 'asc' } }, taxa: { include: { taxon: true } } },
    });
    expect({ wikidataId: monaLisa.wikidataId, year: monaLisa.year, heightCm: Number(monaLisa.heightCm), featured: monaLisa.featured, popularity: monaLisa.popularity }).toEqual(
      {
        wikidataId: 'Q12418',
        year: 1503,
        heightCm: 79.4,
        featured: true,
        popularity: 105,
      },
    );
    expect(monaLisa.artist.slug).toBe('leonardo-da-vinci');
    expect(monaLisa.texts.map((t) => [t.locale, t.title])).toEqual([
      ['fr', 'La Joconde'],
      ['ja', 'モナ・リザ'],
    ]);
    expect(monaLisa.texts[0]!.story).toMatch(/^Léonard de Vinci commence ce portrait à Florence vers 1503/);
    expect(monaLisa.taxa.map((l) => `${l.taxon.kind}:${l.taxon.slug}`)).toEqual(expect.arrayContaining(['museum:louvre', 'movement:high-renaissance', 'genre:portrait']));

    const leonardo = await db.artistText.findFirstOrThrow({ where: { artist: { wikidataId: 'Q762' }, locale: 'fr' } });
    expect(leonardo.name).toBe('Léonard de Vinci');
    const louvre = await db.taxon.findUniqueOrThrow({ where: { kind_slug: { kind: 'museum', slug: 'louvre' } }, include: { aliases: true } });
    expect(louvre.wikidataId).toBe('Q19675');
    expect(louvre.aliases.map((a) => a.wikidataId)).toEqual(['Q3044768']);
  });

  test('seeding again changes no row', async () => {
    const rows = async () =>
      JSON.stringify([
        await db.artwork.findMany({ orderBy: { id: 'asc' }, omit: { publishedAt: true, updatedAt: true } }),
        await db.taxonText.findMany({ orderBy: [{ taxonId: 'asc' }, { locale: 'asc' }] }),
      ]);
    const before = await rows();
    await seedCatalog(db);
    expect(await rows()).toBe(before);
  });
});

describe('the loader', () => {
  test('answers exactly what the files hold', () => {
    expect(parseCurated(sources())).toEqual({ artists: curatedArtists, taxa: curatedTaxa, works: curatedWorks });
  });

  test('names the file, the entry and the field of every mistake', () => {
    const broken = sources() as { artists: Record<string, unknown>[]; taxa: Record<string, unknown>[]; works: Record<string, unknown>[] };
    delete (broken.works[3]!.titles as Record<string, unknown>).de;
    broken.works[5]!.artist = 'Q1';
    broken.works[6]!.subjects = ['no-such-subject'];
    broken.works[7]!.slug = broken.works[0]!.slug;
    broken.artists[2]!.birthYear = '1452';
    broken.taxa[0]!.nmaes = broken.taxa[0]!.names;
    let error: unknown;
    try {
      parseCurated(broken);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CuratedSeedError);
    const problems = (error as CuratedSeedError).problems;
    const work = (i: number) => `prisma/seed/curated-works.json, entry ${i} (slug "${String(broken.works[i]!.slug)}")`;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${escape(work(3))}: titles\\.de: `)),
        `${work(5)}: artist: "Q1" is no artist of prisma/seed/curated-artists.json`,
        `${work(6)}: subjects.0: "no-such-subject" is no subject of prisma/seed/curated-taxa.json`,
        `${work(7)}: slug "${String(broken.works[0]!.slug)}" is already used by entry 0`,
        expect.stringMatching(new RegExp(`^prisma/seed/curated-artists\\.json, entry 2 \\(slug "${String(broken.artists[2]!.slug)}"\\): birthYear: `)),
        expect.stringMatching(/^prisma\/seed\/curated-taxa\.json, entry 0 \(slug "louvre"\): .*nmaes/),
      ]),
    );
    expect((error as Error).message).toContain(`${work(5)}: artist:`);
  });

  test('refuses a file that is not a list of entries', () => {
    expect(() => parseCurated({ ...sources(), taxa: { louvre: {} } })).toThrow('prisma/seed/curated-taxa.json: expected a JSON array of entries');
  });
});

describe('the files', () => {
  test.each(Object.values(curatedFiles))('%s keeps two-space indentation, one field per line and the schema key order', (file) => {
    const text = read(file);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    const loaded = { [curatedFiles.artists]: curatedArtists, [curatedFiles.taxa]: curatedTaxa, [curatedFiles.works]: curatedWorks }[file]!;
    // The loader's output lists keys in the schema's order; the file must list them the same way.
    expect(text).toBe(`${JSON.stringify(loaded, null, 2)}\n`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
