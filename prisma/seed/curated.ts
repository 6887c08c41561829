/**
 * The 31 hand-curated works that seed the catalog, with their artists and taxa: the data lives in
 * curated-artists.json, curated-taxa.json and curated-works.json beside this file (edited by hand:
 * two-space indentation, one field per line, keys in the order of the schemas below), and is
 * checked here once, when this module loads. A mistake stops the seed, and every caller (the seed,
 * the tests, the benchmark), with one message naming the file, the entry and the field.
 *
 * Facts (Wikidata ids, years, dimensions, Commons file names, most titles) come from
 * shared/data/curated-works.tsv; see shared/data/README.md. Movement and genre labels are
 * editorial, so their taxa carry no Wikidata id. Every title, name, story, bio and taxon name is
 * written in all six catalog languages (the schema requires it; tests/integration/curated-texts.test.ts
 * checks that none is the English one copied unless the work is known by that name there).
 */
import { z } from 'zod';
import { TaxonKind } from '@/generated/prisma/enums';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';
import artistsFile from './curated-artists.json' with { type: 'json' };
import taxaFile from './curated-taxa.json' with { type: 'json' };
import worksFile from './curated-works.json' with { type: 'json' };

/** English is always present; other languages may be missing and fall back to English. */
export type Texts = { en: string } & Partial<Record<CatalogLocale, string>>;

const wikidataId = z.string().regex(/^Q\d+$/, 'expected a Wikidata item id such as "Q762"');
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected a slug: lowercase letters and digits joined by single hyphens');
const text = z.string().regex(/\S/, 'expected a text, not an empty one');
/** A text in every catalog language, and nothing else (a misspelt language is an error, not ignored). */
const inEveryLanguage = z.record(z.enum(catalogLocales), text);

const curatedArtist = z.strictObject({
  wikidataId,
  slug,
  birthYear: z.number().int(),
  deathYear: z.number().int(),
  names: inEveryLanguage,
  bios: inEveryLanguage,
});

const curatedTaxon = z.strictObject({
  kind: z.enum(TaxonKind),
  slug,
  wikidataId: wikidataId.nullable(),
  names: inEveryLanguage,
});

const curatedWork = z.strictObject({
  wikidataId,
  slug,
  /** The artist's Wikidata id (curated-artists.json). */
  artist: wikidataId,
  year: z.number().int(),
  heightCm: z.number().positive(),
  widthCm: z.number().positive(),
  /** The file name on Wikimedia Commons. */
  imageFile: text,
  featured: z.boolean(),
  popularity: z.number().int().nonnegative(),
  titles: inEveryLanguage,
  stories: inEveryLanguage,
  /** Slugs of taxa in curated-taxa.json, each of its kind. */
  museum: slug,
  movement: slug,
  genre: slug,
  subjects: z.array(slug).min(1),
});

export type CuratedArtist = z.infer<typeof curatedArtist>;
export type CuratedTaxon = z.infer<typeof curatedTaxon>;
export type CuratedWork = z.infer<typeof curatedWork>;

export interface CuratedSeed {
  artists: CuratedArtist[];
  taxa: CuratedTaxon[];
  works: CuratedWork[];
}

/** The files' contents as read, before any check. */
export interface CuratedSources {
  artists: unknown;
  taxa: unknown;
  works: unknown;
}

export const curatedFiles = {
  artists: 'prisma/seed/curated-artists.json',
  taxa: 'prisma/seed/curated-taxa.json',
  works: 'prisma/seed/curated-works.json',
} as const;

export class CuratedSeedError extends Error {
  constructor(readonly problems: string[]) {
    const shown = problems.slice(0, 20);
    const more = problems.length - shown.length;
    super(`The curated seed is invalid:\n${shown.map((p) => `  - ${p}`).join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`);
    this.name = 'CuratedSeedError';
  }
}

/** "entry 12 (slug "the-starry-night")": where an editor finds the entry in its file. */
function entryName(index: number, raw: unknown): string {
  const known = raw && typeof raw === 'object' && 'slug' in raw && typeof raw.slug === 'string' ? ` (slug "${raw.slug}")` : '';
  return `entry ${index}${known}`;
}

interface Checked<T> {
  /** The entry's place in its file, counted from 0. */
  index: number;
  entry: T;
}

function checkFile<T>(file: string, raw: unknown, schema: z.ZodType<T>, problems: string[]): Checked<T>[] {
  if (!Array.isArray(raw)) {
    problems.push(`${file}: expected a JSON array of entries`);
    return [];
  }
  const checked: Checked<T>[] = [];
  raw.forEach((item: unknown, index) => {
    const result = schema.safeParse(item);
    if (result.success) checked.push({ index, entry: result.data });
    else for (const issue of result.error.issues) problems.push(`${file}, ${entryName(index, item)}: ${issue.path.join('.') || '(the entry)'}: ${issue.message}`);
  });
  return checked;
}

function checkUnique<T>(file: string, checked: Checked<T>[], what: string, key: (entry: T) => string | null, problems: string[]) {
  const seen = new Map<string, number>();
  for (const { index, entry } of checked) {
    const value = key(entry);
    if (value === null) continue;
    const first = seen.get(value);
    if (first !== undefined) problems.push(`${file}, ${entryName(index, entry)}: ${what} "${value}" is already used by entry ${first}`);
    else seen.set(value, index);
  }
}

/** A string field of every entry that has one, valid or not: an artist with a mistake of its own is still there for its works. */
function stringsOf(raw: unknown, field: (entry: Record<string, unknown>) => unknown): Set<unknown> {
  return new Set(Array.isArray(raw) ? raw.filter((e): e is Record<string, unknown> => !!e && typeof e === 'object').map(field) : []);
}

/**
 * Checks the three files' contents and answers them typed: each entry against its schema, then
 * what no single entry can show (duplicates, a work naming an artist or a taxon that is not there).
 * Throws a CuratedSeedError listing every problem.
 */
export function parseCurated(sources: CuratedSources, files: Record<keyof CuratedSources, string> = curatedFiles): CuratedSeed {
  const problems: string[] = [];
  const artists = checkFile(files.artists, sources.artists, curatedArtist, problems);
  const taxa = checkFile(files.taxa, sources.taxa, curatedTaxon, problems);
  const works = checkFile(files.works, sources.works, curatedWork, problems);

  checkUnique(files.artists, artists, 'Wikidata id', (a) => a.wikidataId, problems);
  checkUnique(files.artists, artists, 'slug', (a) => a.slug, problems);
  checkUnique(files.taxa, taxa, 'kind and slug', (t) => `${t.kind}:${t.slug}`, problems);
  checkUnique(files.taxa, taxa, 'Wikidata id', (t) => t.wikidataId, problems);
  checkUnique(files.works, works, 'Wikidata id', (w) => w.wikidataId, problems);
  checkUnique(files.works, works, 'slug', (w) => w.slug, problems);

  const artistIds = stringsOf(sources.artists, (a) => a.wikidataId);
  const taxonKeys = stringsOf(sources.taxa, (t) => `${String(t.kind)}:${String(t.slug)}`);
  for (const { index, entry: work } of works) {
    const where = `${files.works}, ${entryName(index, work)}`;
    if (!artistIds.has(work.artist)) problems.push(`${where}: artist: "${work.artist}" is no artist of ${files.artists}`);
    const links: [string, TaxonKind, string][] = [
      ['museum', 'museum', work.museum],
      ['movement', 'movement', work.movement],
      ['genre', 'genre', work.genre],
      ...work.subjects.map((s, i): [string, TaxonKind, string] => [`subjects.${i}`, 'subject', s]),
    ];
    for (const [field, kind, value] of links) if (!taxonKeys.has(`${kind}:${value}`)) problems.push(`${where}: ${field}: "${value}" is no ${kind} of ${files.taxa}`);
  }

  if (problems.length) throw new CuratedSeedError(problems);
  const entries = <T>(checked: Checked<T>[]) => checked.map((c) => c.entry);
  return { artists: entries(artists), taxa: entries(taxa), works: entries(works) };
}

const curated = parseCurated({ artists: artistsFile, taxa: taxaFile, works: worksFile });

export const curatedArtists: readonly CuratedArtist[] = curated.artists;
export const curatedTaxa: readonly CuratedTaxon[] = curated.taxa;
export const curatedWorks: readonly CuratedWork[] = curated.works;
