import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { notFound } from '@/server/errors';
import { kindOf, taxonKinds, type DatePrecision, type TaxonKindPlural } from '@/shared/catalog';
import { textLocale, type Locale } from '@/shared/locales';
import { PAGE_SIZE, type ArtistCard, type ArtworkCard, type Page, type TaxonCard } from './schema';
import { commonsUrl } from './text';

/**
 * What every catalog read shares: the cards it shows (artworks, artists, browse pages) as SQL and
 * as answers, and the small SQL helpers the lists, the details and the search all use.
 */

export interface CardRow {
  slug: string;
  title: string;
  year: number | null;
  year_precision: DatePrecision;
  width_cm: number | null;
  height_cm: number | null;
  image_file: string | null;
  artist_slug: string;
  artist_name: string;
}

/** The text-joining half of an artwork card, over a subquery `w` of artworks already chosen and ordered by `ord`. */
export function cards(chosen: Prisma.Sql, locale: Locale, extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT w.slug${extra}, w.year, w.year_precision::text AS year_precision, w.width_cm::float8 AS width_cm, w.height_cm::float8 AS height_cm, w.image_file,
           COALESCE(tl.title, te.title,
             (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1),
             w.slug) AS title,
           a.slug AS artist_slug, COALESCE(al.name, a.name) AS artist_name
      FROM (${chosen}) w
      -- By primary key, one probe per card (OFFSET 0 keeps the planner from turning it into a hash
      -- join that reads every artist for a page of 48).
      CROSS JOIN LATERAL (SELECT a.id, a.slug, a.name FROM artists a WHERE a.id = w.artist_id OFFSET 0) a
      LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
      LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
     ORDER BY w.ord`;
}

export function toCard(row: CardRow): ArtworkCard {
  return {
    slug: row.slug,
    title: row.title,
    artist: { slug: row.artist_slug, name: row.artist_name },
    year: row.year,
    yearPrecision: row.year_precision,
    widthCm: row.width_cm,
    heightCm: row.height_cm,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  };
}

/**
 * Cards as one JSON array in their order, for a detail read that carries a list of works in its
 * own statement; `chosen` is what `cards` takes. Card values keep their types in JSON (float8
 * sizes print as the driver would read them), so toCard maps them as it maps rows.
 */
export function cardsJson(chosen: Prisma.Sql, locale: Locale): Prisma.Sql {
  return Prisma.sql`(SELECT COALESCE(json_agg(json_build_object(
      'slug', c.slug, 'title', c.title, 'year', c.year, 'year_precision', c.year_precision, 'width_cm', c.width_cm, 'height_cm', c.height_cm,
      'image_file', c.image_file, 'artist_slug', c.artist_slug, 'artist_name', c.artist_name) ORDER BY c.ord), '[]')
    FROM (${cards(chosen, locale, Prisma.sql`, w.ord`)}) c)`;
}

/** A page of the best-known works `where` admits (which may name the outer statement's row): what `cards` takes. */
export function worksByPopularity(where: Prisma.Sql, page: number): Prisma.Sql {
  return Prisma.sql`
    SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id,
           row_number() OVER (ORDER BY w.popularity DESC, w.id) AS ord
      FROM artworks w
     WHERE w.id IN (SELECT w.id FROM artworks w WHERE ${where} ORDER BY w.popularity DESC, w.id LIMIT ${literalCount(PAGE_SIZE)} OFFSET ${offsetOf(page)})`;
}

export interface ArtistRow {
  id: number;
  slug: string;
  name: string;
  birth_year: number | null;
  death_year: number | null;
  artwork_count: number;
  image_file: string | null;
}

/** Artists with their cover image (kept by recountCatalog), in one statement; `ord` is their place. */
export function artistCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT a.id, a.slug, COALESCE(al.name, a.name) AS name, a.birth_year, a.death_year, a.artwork_count,
           a.cover_image AS image_file, row_number() OVER (ORDER BY a.artwork_count DESC, a.name, a.id) AS ord
      FROM (SELECT * FROM artists a WHERE ${where} ORDER BY a.artwork_count DESC, a.name, a.id LIMIT ${literalCount(limit)} OFFSET ${offset}) a
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${textLocale(locale)}
     ORDER BY a.artwork_count DESC, a.name, a.id`;
}

export const toArtistCard = (row: ArtistRow): ArtistCard => ({
  slug: row.slug,
  name: row.name,
  birthYear: row.birth_year,
  deathYear: row.death_year,
  artworkCount: row.artwork_count,
  imageFile: row.image_file,
  imageUrl: commonsUrl(row.image_file),
});

export function kindFor(kind: string): (typeof kindOf)[TaxonKindPlural] {
  if (!(taxonKinds as readonly string[]).includes(kind)) {
    throw notFound(`There are no browse pages of the kind "${kind}"; the kinds are ${taxonKinds.join(', ')}.`);
  }
  return kindOf[kind as TaxonKindPlural];
}

export interface TaxonRow {
  id: number;
  slug: string;
  name: string;
  artwork_count: number;
  image_file: string | null;
}

/**
 * Browse pages with their cover image (kept by recountCatalog), in one statement. (Their LIMIT
 * stays a parameter: a few hundred pages in all, and the list's generic plan measured slower
 * with the number written in, 0.35 → 0.57 ms for the movements.)
 */
export function taxonCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT t.id, t.slug, COALESCE(tl.name, te.name, t.slug) AS name, t.artwork_count, t.cover_image AS image_file
      FROM (SELECT * FROM taxa t WHERE ${where} ORDER BY t.artwork_count DESC, t.slug LIMIT ${limit} OFFSET ${offset}) t
      LEFT JOIN taxon_texts tl ON tl.taxon_id = t.id AND tl.locale = ${lang}
      LEFT JOIN taxon_texts te ON te.taxon_id = t.id AND te.locale = 'en'
     ORDER BY t.artwork_count DESC, t.slug`;
}

export const toTaxonCard =
  (kind: TaxonKindPlural) =>
  (row: TaxonRow): TaxonCard => ({
    kind,
    slug: row.slug,
    name: row.name,
    artworkCount: row.artwork_count,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  });

/** The longest title (in bytes) the covering folded-title index holds (migration 20261122160000). */
export const SHORT_TITLE_BYTES = Prisma.raw('800');

export const offsetOf = (page: number) => (page - 1) * PAGE_SIZE;

/**
 * A number of rows the code fixes (a page's size), written into the statement rather than sent as
 * a parameter: a plan made without the values (planOnce) takes a LIMIT from a parameter for a
 * tenth of its input (5,000 of a browse page's 50,000 works) and joins every title by hash, 60 ms;
 * with the number written in, it probes the page's 48.
 */
export const literalCount = (n: number) => Prisma.raw(String(Math.trunc(n)));

export const emptyPage = <T>(page: number): Page<T> => ({ items: [], total: 0, page, pageSize: PAGE_SIZE });

/** Escapes LIKE's wildcards so a shopper's `%` or `_` is matched as itself. */
export const likeLiteral = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Chinese, Japanese and Korean characters, as `cjk_grams()` in the database collects them. */
export const CJK = /^[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+$/;

/** A word of one or two CJK characters: it has no trigram, so the CJK character index finds it. */
export const isShortCjk = (word: string) => [...word].length <= 2 && CJK.test(word);

/** Any CJK character: trigrams of one- and two-character words say nothing, so those are never guessed at. */
export const HAS_CJK = /[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

/**
 * A search word folded once per execution (an InitPlan). Written as `shop_fold($n)` in a filter,
 * a plan made without the word (planOnce) folds it again for every row the index returns: 203
 * times for 庭, a fifth of a one-character search's or suggestion's database time. Only where an
 * index already chose the rows: hidden from the planner, a word cannot steer a plan made for it.
 */
export const foldedOnce = (word: string) => Prisma.sql`(SELECT shop_fold(${word}))`;
