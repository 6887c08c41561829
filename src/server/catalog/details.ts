import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { planOnce, readRows, type Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import { pluralOf, taxonKinds, type TaxonKindPlural } from '@/shared/catalog';
import { textLocale, type Locale } from '@/shared/locales';
import {
  artistCards,
  cards,
  cardsJson,
  kindFor,
  literalCount,
  offsetOf,
  taxonCards,
  toArtistCard,
  toCard,
  toTaxonCard,
  worksByPopularity,
  type ArtistRow,
  type CardRow,
  type TaxonRow,
} from './cards';
import { BROWSE_PAGE_MIN_WORKS } from './counts';
import { PAGE_SIZE, type TaxonRef } from './schema';
import { isSlug } from './text';

/** The catalog's detail pages: an artwork, an artist, a browse page, each in one statement. */

interface DetailRow extends CardRow {
  story: string | null;
  wikidata_id: string | null;
  featured: boolean;
  published_at: Date | null;
  taxa: { kind: keyof typeof pluralOf; slug: string; name: string; works: number; via_painter: boolean }[];
  related: CardRow[];
}

const RELATED = 8;

/** Past this many published works a movement's best known works are found by walking the popularity index. */
const LARGE_MOVEMENT = 1_000;

/**
 * An artwork with its story, browse pages and related works, in one statement. Related: up to 8
 * other works, the artist's best known first, then the best known of the same movements.
 */
export async function artworkDetail(db: Db, slug: string, locale: Locale) {
  const lang = textLocale(locale);
  // (The walk's EXISTS keeps OFFSET 0: a probe per work, as the planner would choose anyway; as a
  // semi-join the planner weighs merge and hash joins over all links first, 5 ms of planning.)
  // Related works of the same movements, two ways, of which the statement runs one: each branch's
  // condition on the movements' stored size (mv.works) names only the outer row, so PostgreSQL
  // evaluates it once (a One-Time Filter) and skips the other branch unread. A large movement
  // (thousands of works): walk the best-known published works and probe each one's links by
  // primary key until eight turn up (a few hundred probes, ~2 ms), instead of collecting and
  // sorting the movement's works (50 ms). A small one: collect its few works from its links,
  // since walking the whole catalog for them would find nothing for 100,000 probes.
  const related = Prisma.sql`
    SELECT r.id, r.slug, r.year, r.year_precision, r.width_cm, r.height_cm, r.image_file, r.artist_id,
           row_number() OVER (ORDER BY r.grp, r.popularity DESC, r.id) AS ord FROM (
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 0 AS grp FROM artworks w
        WHERE w.artist_id = aw.artist_id AND w.status = 'published' AND w.id <> aw.id
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 1 AS grp FROM artworks w
        WHERE mv.works >= ${LARGE_MOVEMENT} AND w.status = 'published' AND w.artist_id <> aw.artist_id
          AND EXISTS (SELECT 1 FROM artwork_taxa l WHERE l.artwork_id = w.id AND l.taxon_id = ANY(mv.ids) OFFSET 0)
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
      UNION ALL
      (SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, w.popularity, 1 AS grp
         FROM (SELECT DISTINCT l.artwork_id FROM artwork_taxa l WHERE mv.works < ${LARGE_MOVEMENT} AND l.taxon_id = ANY(mv.ids)) l
         -- Each linked work by primary key (OFFSET 0: not knowing which movements, the planner would
         -- rather scan artworks or walk the whole popularity index).
         CROSS JOIN LATERAL (SELECT w.* FROM artworks w WHERE w.id = l.artwork_id AND w.status = 'published' AND w.artist_id <> aw.artist_id OFFSET 0) w
        ORDER BY w.popularity DESC, w.id LIMIT ${RELATED})
    ) r ORDER BY r.grp, r.popularity DESC, r.id LIMIT ${RELATED}`;
  // The card's own statement (OFFSET 0: planned on its own) brings the story from the texts it
  // joins anyway; one pass over the work's browse pages gives both their list and its movements.
  // Planned once (planOnce): planning it took 1.5 ms against 1 ms of execution, and the generic
  // plan measured as fast or faster for every work tried (the Mona Lisa: 12 → 4 ms).
  const [row] = isSlug(slug)
    ? await readRows<DetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT aw.*, mv.taxa, ${cardsJson(related, locale)} AS related
          FROM (${cards(
            Prisma.sql`SELECT w.*, 1 AS ord FROM artworks w WHERE w.slug = ${slug} AND w.status = 'published'`,
            locale,
            Prisma.sql`, w.id, w.artist_id, w.wikidata_id, w.featured, w.published_at, COALESCE(tl.story, te.story) AS story`,
          )} OFFSET 0) aw
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('kind', t.kind, 'slug', t.slug, 'name', COALESCE(xl.name, xe.name, t.slug), 'works', t.artwork_count, 'via_painter', l.via_painter)), '[]') AS taxa,
                   COALESCE(array_agg(t.id) FILTER (WHERE t.kind = 'movement'), '{}') AS ids,
                   COALESCE(sum(t.artwork_count) FILTER (WHERE t.kind = 'movement'), 0) AS works
              FROM artwork_taxa l JOIN taxa t ON t.id = l.taxon_id
              LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
              LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
             WHERE l.artwork_id = aw.id) mv`),
      )
    : [];
  if (!row) throw notFound(`No artwork in the catalog has the slug "${slug}".`);
  const taxa: (TaxonRef & { viaPainter: boolean })[] = row.taxa
    .map((taxon) => ({
      kind: pluralOf[taxon.kind],
      slug: taxon.slug,
      name: taxon.name,
      hasPage: taxon.works >= BROWSE_PAGE_MIN_WORKS,
      viaPainter: taxon.via_painter,
    }))
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
    related: row.related.map(toCard),
  };
}

const MAIN_MOVEMENTS = 3;

interface ArtistDetailRow extends ArtistRow {
  bio: string | null;
  wikidata_id: string | null;
  movements: { slug: string; name: string; n: number; works: number }[];
  works: CardRow[];
}

/** An artist with their main movements and a page of their works (total: their stored count), in one statement. */
export async function artistDetail(db: Db, slug: string, page: number, locale: Locale) {
  const lang = textLocale(locale);
  const [row] = isSlug(slug)
    ? await readRows<ArtistDetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT c.*, ar.wikidata_id, COALESCE(tl.bio, te.bio) AS bio, mv.movements,
               ${cardsJson(worksByPopularity(Prisma.sql`w.status = 'published' AND w.artist_id = ar.id`, page), locale)} AS works
          FROM (${artistCards(Prisma.sql`a.slug = ${slug} AND a.status = 'published'`, locale, 1, 0)}) c
          JOIN artists ar ON ar.id = c.id
          LEFT JOIN artist_texts tl ON tl.artist_id = ar.id AND tl.locale = ${lang}
          -- A join, not a second subquery in the select list (see taxonDetail: planning time).
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('slug', m.slug, 'name', m.name, 'n', m.n, 'works', m.works) ORDER BY m.n DESC, m.slug), '[]') AS movements
              FROM (SELECT t.slug, COALESCE(xl.name, xe.name, t.slug) AS name, count(*) AS n, t.artwork_count AS works
                      FROM artworks w JOIN artwork_taxa l ON l.artwork_id = w.id JOIN taxa t ON t.id = l.taxon_id AND t.kind = 'movement'
                      LEFT JOIN taxon_texts xl ON xl.taxon_id = t.id AND xl.locale = ${lang}
                      LEFT JOIN taxon_texts xe ON xe.taxon_id = t.id AND xe.locale = 'en'
                     WHERE w.artist_id = ar.id AND w.status = 'published'
                     GROUP BY t.id, t.slug, t.artwork_count, xl.name, xe.name ORDER BY n DESC, t.slug LIMIT ${MAIN_MOVEMENTS}) m) mv
          LEFT JOIN artist_texts te ON te.artist_id = ar.id AND te.locale = 'en'`),
      )
    : [];
  if (!row) throw notFound(`No artist in the catalog has the slug "${slug}".`);
  return {
    artist: { ...toArtistCard(row), bio: row.bio, wikidataId: row.wikidata_id },
    movements: row.movements.map((m) => ({
      kind: 'movements' as const,
      slug: m.slug,
      name: m.name,
      artworkCount: m.n,
      hasPage: m.works >= BROWSE_PAGE_MIN_WORKS,
    })),
    works: { items: row.works.map(toCard), total: row.artwork_count, page, pageSize: PAGE_SIZE },
  };
}

interface TaxonDetailRow extends TaxonRow {
  description: string | null;
  top_artists: { slug: string; name: string; n: number }[];
  works: CardRow[];
}

/**
 * A browse page with its top artists and a page of its works (total: its stored count), in one
 * statement. Its works are a range of its stored order (taxon_positions, kept by recountCatalog
 * like the grid's): 48 places by primary key, each work by its own. Before, a small page (a
 * museum's few hundred works) collected and sorted all its links, and a page of thousands walked
 * the best-known works probing each one's links until a page was full.
 */
export async function taxonDetail(db: Db, kind: string, slug: string, page: number, locale: Locale) {
  const single = kindFor(kind);
  const lang = textLocale(locale);
  const works = Prisma.sql`
    SELECT w.id, w.slug, w.year, w.year_precision, w.width_cm, w.height_cm, w.image_file, w.artist_id, p.position AS ord
      FROM (SELECT p.position, p.artwork_id FROM taxon_positions p
             WHERE p.taxon_id = tx.id AND p.position > ${offsetOf(page)} ORDER BY p.position LIMIT ${literalCount(PAGE_SIZE)}) p
      JOIN artworks w ON w.id = p.artwork_id AND w.status = 'published'`;
  const [row] = isSlug(slug)
    ? await readRows<TaxonDetailRow>(
        db,
        planOnce(Prisma.sql`
        SELECT c.*, COALESCE(tl.description, te.description) AS description, top.top_artists, ${cardsJson(works, locale)} AS works
          FROM (${taxonCards(Prisma.sql`t.kind = ${single}::"TaxonKind" AND t.slug = ${slug} AND t.artwork_count >= ${BROWSE_PAGE_MIN_WORKS}`, locale, 1, 0)}) c
          JOIN taxa tx ON tx.id = c.id
          LEFT JOIN taxon_texts tl ON tl.taxon_id = c.id AND tl.locale = ${lang}
          -- A join, not a second subquery in the select list: two correlated subqueries there took
          -- the planner longer (7 ms) than running the whole statement (2.6 ms).
          -- Top artists: kept by recountCatalog with the page's count, so a large page costs no aggregation here.
          CROSS JOIN LATERAL (
            SELECT COALESCE(json_agg(json_build_object('slug', a.slug, 'name', COALESCE(al.name, a.name), 'n', (e.entry->>'n')::int) ORDER BY e.place), '[]') AS top_artists
              FROM jsonb_array_elements(tx.top_artists) WITH ORDINALITY AS e(entry, place)
              CROSS JOIN LATERAL (SELECT a.id, a.slug, a.name FROM artists a WHERE a.id = (e.entry->>'id')::int AND a.status = 'published' OFFSET 0) a
              LEFT JOIN artist_texts al ON al.artist_id = a.id AND al.locale = ${lang}) top
          LEFT JOIN taxon_texts te ON te.taxon_id = c.id AND te.locale = 'en'`),
      )
    : [];
  if (!row) throw notFound(`No ${single} page in the catalog has the slug "${slug}".`);
  return {
    taxon: { ...toTaxonCard(kind as TaxonKindPlural)(row), description: row.description },
    topArtists: row.top_artists.map((a) => ({ slug: a.slug, name: a.name, artworkCount: a.n })),
    works: { items: row.works.map(toCard), total: row.artwork_count, page, pageSize: PAGE_SIZE },
  };
}
