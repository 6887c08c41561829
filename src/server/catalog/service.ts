import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import type { Locale } from '@/server/shared/locales';
import { BROWSE_PAGE_MIN_WORKS } from './counts';
import {
  kindOf,
  PAGE_SIZE,
  pluralOf,
  taxonKinds,
  type ArtistCard,
  type ArtworkCard,
  type ArtworksQuery,
  type Page,
  type TaxonCard,
  type TaxonKindPlural,
  type TaxonRef,
} from './schema';
import { commonsUrl, isSlug, textLocale } from './text';

/**
 * Reading the public catalog. Only published rows are ever read; every list is one round trip
 * for its page (plus one for its total where no stored count answers it), whatever its length.
 */

interface CardRow {
  slug: string;
  title: string;
  year: number | null;
  width_cm: number | null;
  height_cm: number | null;
  image_file: string | null;
  artist_slug: string;
  artist_name: string;
}

/** The text-joining half of an artwork card, over a subquery `w` of artworks already chosen and ordered by `ord`. */
function cards(chosen: Prisma.Sql, locale: Locale, extra: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT w.slug${extra}, w.year, w.width_cm::float8 AS width_cm, w.height_cm::float8 AS height_cm, w.image_file,
           COALESCE(tl.title, te.title,
             (SELECT x.title FROM artwork_texts x WHERE x.artwork_id = w.id AND x.title IS NOT NULL ORDER BY x.locale LIMIT 1),
             w.slug) AS title,
           a.slug AS artist_slug, COALESCE(al.name, a.name) AS artist_name
      FROM (${chosen}) w
      JOIN artists a ON a.id = w.artist_id
      LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
      LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
     ORDER BY w.ord`;
}

function toCard(row: CardRow): ArtworkCard {
  return {
    slug: row.slug,
    title: row.title,
    artist: { slug: row.artist_slug, name: row.artist_name },
    year: row.year,
    widthCm: row.width_cm,
    heightCm: row.height_cm,
    imageFile: row.image_file,
    imageUrl: commonsUrl(row.image_file),
  };
}

const offsetOf = (page: number) => (page - 1) * PAGE_SIZE;
const emptyPage = <T>(page: number): Page<T> => ({ items: [], total: 0, page, pageSize: PAGE_SIZE });

/** Escapes LIKE's wildcards so a shopper's `%` or `_` is matched as itself. */
const likeLiteral = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function listArtworks(db: Db, query: ArtworksQuery): Promise<Page<ArtworkCard>> {
  const filters: Prisma.Sql[] = [Prisma.sql`w.status = 'published'`];
  let storedTotal: Prisma.Sql | null = Prisma.sql`SELECT COALESCE(sum(artwork_count), 0)::int AS n FROM artists WHERE status = 'published'`;

  if (query.artist) {
    if (!isSlug(query.artist)) return emptyPage(query.page);
    filters.push(Prisma.sql`w.artist_id = (SELECT id FROM artists WHERE slug = ${query.artist} AND status = 'published')`);
    storedTotal = Prisma.sql`SELECT COALESCE((SELECT artwork_count FROM artists WHERE slug = ${query.artist} AND status = 'published'), 0) AS n`;
  }
  const taxonFilters = (['museum', 'movement', 'genre', 'subject'] as const).filter((kind) => query[kind]);
  if (taxonFilters.some((kind) => !isSlug(query[kind]!))) return emptyPage(query.page);
  const taxa = await Promise.all(
    taxonFilters.map((kind) => db.taxon.findUnique({ where: { kind_slug: { kind, slug: query[kind]! } }, select: { id: true, artworkCount: true } })),
  );
  if (taxa.some((taxon) => !taxon)) return emptyPage(query.page);
  // Browse-page filters are driven from the pages' links (known ids, materialized once): a small
  // museum's works are found from its few hundred links, not by walking the whole catalog.
  const linked = taxa.length
    ? Prisma.sql`WITH linked AS MATERIALIZED (${Prisma.join(
        taxa.map((taxon) => Prisma.sql`SELECT artwork_id FROM artwork_taxa WHERE taxon_id = ${taxon!.id}`),
        ' INTERSECT ',
      )}) `
    : Prisma.empty;
  if (taxa.length) filters.push(Prisma.sql`w.id IN (SELECT artwork_id FROM linked)`);
  if (taxa.length === 1) storedTotal = Prisma.sql`SELECT ${taxa[0]!.artworkCount}::int AS n`;
  if (query.featured) filters.push(Prisma.sql`w.featured`);
  const words = (query.q ?? '').split(/\s+/).filter(Boolean).slice(0, 8);
  for (const word of words) filters.push(Prisma.sql`w.search_text LIKE '%' || shop_fold(${likeLiteral(word)}) || '%'`);
  // A stored count answers the total only when one filter (or none) is in play.
  const filterCount = (query.artist ? 1 : 0) + taxonFilters.length + (query.featured ? 1 : 0) + words.length;
  if (filterCount > 1 || query.featured || words.length) storedTotal = null;

  const where = Prisma.join(filters, ' AND ');
  const q = words.join(' ');
  const window = Prisma.sql`LIMIT ${PAGE_SIZE} OFFSET ${offsetOf(query.page)}`;
  // Search ranks an exact title (in any language) first, then titles starting with the words,
  // then the best known. Both title sets come from the folded-title index, not from each match.
  const exact = Prisma.sql`SELECT x.artwork_id FROM artwork_texts x WHERE shop_fold(x.title) = shop_fold(${q})`;
  const prefix = Prisma.sql`SELECT x.artwork_id FROM artwork_texts x WHERE shop_fold(x.title) LIKE shop_fold(${likeLiteral(q)}) || '%'`;
  const chosen = words.length
    ? Prisma.sql`${linked}
        SELECT p.*, row_number() OVER (ORDER BY p.exact DESC, p.prefix DESC, p.popularity DESC, p.id) AS ord FROM (
          SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity,
                 w.id IN (${exact}) AS exact, w.id IN (${prefix}) AS prefix, count(*) OVER () AS matches
            FROM artworks w
           WHERE ${where}
           ORDER BY exact DESC, prefix DESC, w.popularity DESC, w.id ${window}) p`
    : Prisma.sql`${linked}
        SELECT p.*, row_number() OVER (ORDER BY p.popularity DESC, p.id) AS ord FROM (
          SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity
            FROM artworks w WHERE ${where}
           ORDER BY w.popularity DESC, w.id ${window}) p`;
  const countAll = Prisma.sql`${linked}SELECT count(*) AS n FROM artworks w WHERE ${where}`;
  if (words.length) {
    // A search ranks every match anyway, so the page's rows carry the number of matches.
    const rows = await db.$queryRaw<(CardRow & { matches: bigint })[]>(cards(chosen, query.locale, Prisma.sql`, w.matches`));
    const total = rows.length ? Number(rows[0]!.matches) : query.page === 1 ? 0 : await count(db, countAll);
    return { items: rows.map(toCard), total, page: query.page, pageSize: PAGE_SIZE };
  }
  const [rows, total] = await Promise.all([db.$queryRaw<CardRow[]>(cards(chosen, query.locale)), count(db, storedTotal ?? countAll)]);
  return { items: rows.map(toCard), total, page: query.page, pageSize: PAGE_SIZE };
}

async function count(db: Db, sql: Prisma.Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number | bigint }[]>(sql);
  return Number(row?.n ?? 0);
}

/** Cards for the given slugs in the order given; unknown and unpublished slugs are left out. */
export async function artworksBySlugs(db: Db, slugs: string[], locale: Locale): Promise<ArtworkCard[]> {
  const wanted = [...new Set(slugs.filter(isSlug))];
  if (!wanted.length) return [];
  const chosen = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.width_cm, w.height_cm, w.image_file, w.artist_id, array_position(${wanted}::text[], w.slug) AS ord
      FROM artworks w WHERE w.slug = ANY(${wanted}::text[]) AND w.status = 'published'`;
  return (await db.$queryRaw<CardRow[]>(cards(chosen, locale))).map(toCard);
}

interface DetailRow extends CardRow {
  id: number;
  artist_id: number;
  story: string | null;
  wikidata_id: string | null;
  featured: boolean;
  published_at: Date | null;
  taxa: { id: number; kind: keyof typeof pluralOf; slug: string; name: string }[];
}

/** An artwork with its story and browse pages in one statement, then its related works in a second. */
export async function artworkDetail(db: Db, slug: string, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<DetailRow[]>(Prisma.sql`
        SELECT c.*, w.wikidata_id, w.featured, w.published_at, COALESCE(tl.story, te.story) AS story,
               COALESCE((SELECT json_agg(json_build_object('id', t.id, 'kind', t.kind, 'slug', t.slug, 'name', COALESCE(xl.name, xe.name, t.slug)))
                           FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id
                           LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
                           LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
                          WHERE l.artwork_id = w.id), '[]') AS taxa
          FROM (${cards(Prisma.sql`SELECT w.*, 1 AS ord FROM artworks w WHERE w.slug = ${slug} AND w.status = 'published'`, locale, Prisma.sql`, w.id, w.artist_id`)}) c
          JOIN artworks w ON w.id = c.id
          LEFT JOIN artwork_texts tl ON tl.artwork_id = w.id AND tl.locale = ${lang}
          LEFT JOIN artwork_texts te ON te.artwork_id = w.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No artwork in the catalog has the slug "${slug}".`);
  const taxa: TaxonRef[] = row.taxa
    .map((taxon) => ({ kind: pluralOf[taxon.kind], slug: taxon.slug, name: taxon.name }))
    .sort((a, b) => taxonKinds.indexOf(a.kind) - taxonKinds.indexOf(b.kind) || a.name.localeCompare(b.name));
  return {
    artwork: {
      ...toCard(row),
      story: row.story,
      wikidataId: row.wikidata_id,
      featured: row.featured,
      publishedAt: row.published_at?.toISOString() ?? null,
      taxa,
    },
    related: await relatedWorks(db, row.id, row.artist_id, row.taxa.filter((t) => t.kind === 'movement').map((t) => t.id), locale),
  };
}

const RELATED = 8;

/** Up to 8 other works: the artist's best known first, then the best known of the same movements. */
async function relatedWorks(db: Db, artworkId: number, artistId: number, movementIds: number[], locale: Locale): Promise<ArtworkCard[]> {
  const chosen = Prisma.sql`
    WITH movement_works AS MATERIALIZED (
      SELECT DISTINCT l.artwork_id FROM artwork_taxa l WHERE l.taxon_id = ANY(${movementIds}::int[])
    )
    SELECT r.*, row_number() OVER (ORDER BY r.grp, r.popularity DESC, r.id) AS ord FROM (
      (SELECT w.*, 0 AS grp FROM artworks w
        WHERE w.artist_id = ${artistId} AND w.status = 'published' AND w.id <> ${artworkId}
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      (SELECT w.*, 1 AS grp FROM movement_works m JOIN artworks w ON w.id = m.artwork_id
        WHERE w.status = 'published' AND w.artist_id <> ${artistId}
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
    ) r ORDER BY r.grp, r.popularity DESC, r.id LIMIT ${RELATED}`;
  return (await db.$queryRaw<CardRow[]>(cards(chosen, locale))).map(toCard);
}

interface ArtistRow {
  id: number;
  slug: string;
  name: string;
  birth_year: number | null;
  death_year: number | null;
  artwork_count: number;
  image_file: string | null;
}

/** Artists with their cover image (kept by recountCatalog), in one statement. */
function artistCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT a.id, a.slug, COALESCE(al.name, a.name) AS name, a.birth_year, a.death_year, a.artwork_count,
           a.cover_image AS image_file
      FROM (SELECT * FROM artists a WHERE ${where} ORDER BY a.artwork_count DESC, a.name, a.id LIMIT ${limit} OFFSET ${offset}) a
      LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${textLocale(locale)}
     ORDER BY a.artwork_count DESC, a.name, a.id`;
}

const toArtistCard = (row: ArtistRow): ArtistCard => ({
  slug: row.slug,
  name: row.name,
  birthYear: row.birth_year,
  deathYear: row.death_year,
  artworkCount: row.artwork_count,
  imageFile: row.image_file,
  imageUrl: commonsUrl(row.image_file),
});

export async function listArtists(db: Db, page: number, locale: Locale): Promise<Page<ArtistCard>> {
  const published = Prisma.sql`a.status = 'published' AND a.artwork_count > 0`;
  const [rows, total] = await Promise.all([
    db.$queryRaw<ArtistRow[]>(artistCards(published, locale, PAGE_SIZE, offsetOf(page))),
    db.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM artists a WHERE ${published}`),
  ]);
  return { items: rows.map(toArtistCard), total: Number(total[0]?.n ?? 0), page, pageSize: PAGE_SIZE };
}

const MAIN_MOVEMENTS = 3;

export async function artistDetail(db: Db, slug: string, page: number, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<(ArtistRow & { bio: string | null; wikidata_id: string | null })[]>(Prisma.sql`
        SELECT c.*, a.wikidata_id, COALESCE(tl.bio, te.bio) AS bio
          FROM (${artistCards(Prisma.sql`a.slug = ${slug} AND a.status = 'published'`, locale, 1, 0)}) c
          JOIN artists a ON a.id = c.id
          LEFT JOIN artist_texts tl ON tl.artist_id = a.id AND tl.locale = ${lang}
          LEFT JOIN artist_texts te ON te.artist_id = a.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No artist in the catalog has the slug "${slug}".`);
  const [movements, works] = await Promise.all([
    db.$queryRaw<{ slug: string; name: string; n: bigint }[]>(Prisma.sql`
      SELECT t.slug, COALESCE(tl.name, te.name, t.slug) AS name, count(*) AS n
        FROM artworks w JOIN artwork_taxa l ON l.artwork_id = w.id JOIN taxa t ON t.id = l.taxon_id AND t.kind = 'movement'
        LEFT JOIN taxon_texts tl ON tl.taxon_id = t.id AND tl.locale = ${lang}
        LEFT JOIN taxon_texts te ON te.taxon_id = t.id AND te.locale = 'en'
       WHERE w.artist_id = ${row.id} AND w.status = 'published'
       GROUP BY t.id, t.slug, tl.name, te.name ORDER BY n DESC, t.slug LIMIT ${MAIN_MOVEMENTS}`),
    listArtworks(db, { artist: slug, page, locale }),
  ]);
  return {
    artist: { ...toArtistCard(row), bio: row.bio, wikidataId: row.wikidata_id },
    movements: movements.map((m) => ({ kind: 'movements' as const, slug: m.slug, name: m.name, artworkCount: Number(m.n) })),
    works,
  };
}

function pickName(texts: { locale: string; name: string }[], lang: string): string | undefined {
  return texts.find((t) => t.locale === lang)?.name ?? texts.find((t) => t.locale === 'en')?.name;
}

function kindFor(kind: string): (typeof kindOf)[TaxonKindPlural] {
  if (!(taxonKinds as readonly string[]).includes(kind)) {
    throw notFound(`There are no browse pages of the kind "${kind}"; the kinds are ${taxonKinds.join(', ')}.`);
  }
  return kindOf[kind as TaxonKindPlural];
}

interface TaxonRow {
  id: number;
  slug: string;
  name: string;
  artwork_count: number;
  image_file: string | null;
}

/** Browse pages with their cover image (kept by recountCatalog), in one statement. */
function taxonCards(where: Prisma.Sql, locale: Locale, limit: number, offset: number): Prisma.Sql {
  const lang = textLocale(locale);
  return Prisma.sql`
    SELECT t.id, t.slug, COALESCE(tl.name, te.name, t.slug) AS name, t.artwork_count, t.cover_image AS image_file
      FROM (SELECT * FROM taxa t WHERE ${where} ORDER BY t.artwork_count DESC, t.slug LIMIT ${limit} OFFSET ${offset}) t
      LEFT JOIN taxon_texts tl ON tl.taxon_id = t.id AND tl.locale = ${lang}
      LEFT JOIN taxon_texts te ON te.taxon_id = t.id AND te.locale = 'en'
     ORDER BY t.artwork_count DESC, t.slug`;
}

const toTaxonCard = (kind: TaxonKindPlural) => (row: TaxonRow): TaxonCard => ({
  kind,
  slug: row.slug,
  name: row.name,
  artworkCount: row.artwork_count,
  imageFile: row.image_file,
  imageUrl: commonsUrl(row.image_file),
});

/** The browse pages of one kind: those with at least 3 published works. */
export async function listTaxa(db: Db, kind: string, page: number, locale: Locale): Promise<Page<TaxonCard>> {
  const single = kindFor(kind);
  const exists = Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`;
  const [rows, total] = await Promise.all([
    db.$queryRaw<TaxonRow[]>(taxonCards(exists, locale, PAGE_SIZE, offsetOf(page))),
    db.$queryRaw<{ n: bigint }[]>(Prisma.sql`SELECT count(*) AS n FROM taxa t WHERE ${exists}`),
  ]);
  return { items: rows.map(toTaxonCard(kind as TaxonKindPlural)), total: Number(total[0]?.n ?? 0), page, pageSize: PAGE_SIZE };
}

export async function taxonDetail(db: Db, kind: string, slug: string, page: number, locale: Locale) {
  const single = kindFor(kind);
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await db.$queryRaw<(TaxonRow & { description: string | null })[]>(Prisma.sql`
        SELECT c.*, COALESCE(tl.description, te.description) AS description
          FROM (${taxonCards(Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.slug = ${slug} AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`, locale, 1, 0)}) c
          LEFT JOIN taxon_texts tl ON tl.taxon_id = c.id AND tl.locale = ${lang}
          LEFT JOIN taxon_texts te ON te.taxon_id = c.id AND te.locale = 'en'`)
    : [];
  if (!row) throw notFound(`No ${single} page in the catalog has the slug "${slug}".`);
  const [topArtists, works] = await Promise.all([
    // Kept by recountCatalog with the page's count, so a large page costs no aggregation here.
    db.$queryRaw<{ slug: string; name: string; n: number }[]>(Prisma.sql`
      SELECT a.slug, COALESCE(al.name, a.name) AS name, (top.entry->>'n')::int AS n
        FROM taxa t CROSS JOIN LATERAL jsonb_array_elements(t.top_artists) WITH ORDINALITY AS top(entry, place)
        JOIN artists a ON a.id = (top.entry->>'id')::int AND a.status = 'published'
        LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}
       WHERE t.id = ${row.id}
       ORDER BY top.place`),
    listArtworks(db, { [single]: slug, page, locale }),
  ]);
  return {
    taxon: { ...toTaxonCard(kind as TaxonKindPlural)(row), description: row.description },
    topArtists: topArtists.map((a) => ({ slug: a.slug, name: a.name, artworkCount: Number(a.n) })),
    works,
  };
}
