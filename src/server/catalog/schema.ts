import 'server-only';
import { z } from 'zod';
import { datePrecisions, taxonKinds } from '@/shared/catalog';
import { commonsWidths } from '@/shared/images';
import { locales } from '@/shared/locales';

/**
 * The catalog contracts (interface.md §4 "Catalog", decisions.md "Catalog responses"). Every text
 * field comes in the asked language with English fallback.
 */
export const PAGE_SIZE = 48;
export const MAX_SLUGS = 100;

/** A slug as it appears in an address: anything longer than any slug we make is refused outright. */
const slug = z.string().min(1).max(160);
const locale = z.enum(locales).default('en').describe('Language of text fields; English fills what a language lacks');
const page = z.coerce.number<string | number>().int().min(1).max(1_000_000).default(1).describe('Pages count from 1; past the end, items is empty');
/** Free text a shopper typed; the NUL character cannot be stored or searched by PostgreSQL. */
const searchText = z
  .string()
  .max(200)
  .refine((q) => !q.includes('\u0000'), 'must not contain NUL characters');

export const Localized = z.object({ locale });
export const Paged = z.object({ locale, page });

export const ArtworksQuery = z.object({
  locale,
  page,
  q: searchText.optional().describe('Words to find in titles (any of six languages) and artist names; case and accents do not matter'),
  artist: slug.optional().describe("The artist's slug"),
  featured: z.literal('1').optional().describe('1: only featured works'),
  museum: slug.optional().describe("A museum's slug"),
  movement: slug.optional().describe("A movement's slug"),
  genre: slug.optional().describe("A genre's slug"),
  subject: slug.optional().describe("A subject's slug"),
});
export type ArtworksQuery = z.output<typeof ArtworksQuery>;

export const BySlugsQuery = z.object({
  locale,
  slugs: z
    .string()
    .max(MAX_SLUGS * 161)
    .transform((list) =>
      list
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(slug).max(MAX_SLUGS, `at most ${MAX_SLUGS} slugs`))
    .describe(`Comma-separated artwork slugs, at most ${MAX_SLUGS}; order is kept, unknown ones are left out`),
});

export const SlugQuery = z.object({ locale, slug });
export const SlugPageQuery = z.object({ locale, page, slug });
export const TaxaQuery = z.object({ locale, page, kind: z.string().max(40) });
export const TaxonQuery = z.object({ locale, page, kind: z.string().max(40), slug });

const Image = {
  imageFile: z.string().nullable().describe('Wikimedia Commons file name'),
  imageUrl: z
    .string()
    .nullable()
    .describe(`Address of the image on Wikimedia Commons (add ?width= for a thumbnail; Commons serves only ${commonsWidths.join(', ')} px)`),
};

export const ArtistRef = z.object({ slug: z.string(), name: z.string() });

export const ArtworkCard = z
  .object({
    slug: z.string(),
    title: z.string(),
    artist: ArtistRef,
    year: z.int().nullable(),
    yearPrecision: z
      .enum(datePrecisions)
      .describe('How exactly year is known: year (1650), circa (c. 1650), decade (the 1650s: year is its first), century (year is its first: 1601 is the 17th century)'),
    widthCm: z.number().nullable(),
    heightCm: z.number().nullable(),
    ...Image,
  })
  .meta({ id: 'ArtworkCard' });
export type ArtworkCard = z.output<typeof ArtworkCard>;

export const page$ = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.int(), page: z.int(), pageSize: z.int() });
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };

export const ArtworkPage = page$(ArtworkCard).meta({ id: 'ArtworkPage' });

/** The artworks list with what a search that found little offers instead (docs/decisions.md "Search that forgives"). */
export const ArtworkSearchPage = ArtworkPage.extend({
  suggestion: z
    .object({
      q: z.string().describe('A title or artist name close to what was typed; searching it finds more'),
      shown: z.boolean().describe('true: the search found nothing, so items and total are the results for this q instead'),
    })
    .nullable()
    .describe('"Did you mean": null unless q found fewer than 3 works and a close title or artist name finds more'),
}).meta({ id: 'ArtworkSearchPage' });
export type ArtworkSearchPage = z.output<typeof ArtworkSearchPage>;

export const SUGGESTIONS_MAX = 8;

/** The longest text suggestions are asked for. */
export const SUGGESTIONS_QUERY_MAX = 100;

export const SuggestionsQuery = z.object({
  locale,
  q: searchText
    .pipe(z.string().trim().min(1, 'must not be empty').max(SUGGESTIONS_QUERY_MAX))
    .describe('What the shopper has typed so far (1 to 100 characters): a prefix or a misspelling of a title in any language or an artist name'),
});

export const Suggestion = z
  .object({
    kind: z.enum(['artwork', 'artist']),
    slug: z.string(),
    label: z.string().describe('The title or name in the asked language (English fallback)'),
    sublabel: z.string().nullable().describe("An artwork's artist; an artist's years"),
  })
  .meta({ id: 'Suggestion' });
export type Suggestion = z.output<typeof Suggestion>;
export const Suggestions = z.object({ items: z.array(Suggestion).max(SUGGESTIONS_MAX) }).meta({ id: 'Suggestions' });

export const ArtistCard = z
  .object({
    slug: z.string(),
    name: z.string(),
    birthYear: z.int().nullable(),
    deathYear: z.int().nullable(),
    artworkCount: z.int(),
    ...Image,
  })
  .meta({ id: 'ArtistCard' });
export type ArtistCard = z.output<typeof ArtistCard>;

export const TaxonRef = z.object({
  kind: z.enum(taxonKinds),
  slug: z.string(),
  name: z.string(),
  hasPage: z.boolean().describe('Whether the browse page /{kind}/{slug} exists (it has at least 3 published works); when false, show the name without a link'),
});
export type TaxonRef = z.output<typeof TaxonRef>;

export const TaxonCard = z.object({ kind: z.enum(taxonKinds), slug: z.string(), name: z.string(), artworkCount: z.int(), ...Image }).meta({ id: 'TaxonCard' });
export type TaxonCard = z.output<typeof TaxonCard>;

export const ArtistDetail = z
  .object({
    artist: ArtistCard.extend({ bio: z.string().nullable(), wikidataId: z.string().nullable() }),
    movements: z.array(TaxonRef.extend({ artworkCount: z.int() })).describe("The artist's main movements, most works first"),
    works: ArtworkPage,
  })
  .meta({ id: 'ArtistDetail' });

export const ArtworkDetail = z
  .object({
    artwork: ArtworkCard.extend({
      story: z.string().nullable(),
      wikidataId: z.string().nullable(),
      featured: z.boolean(),
      publishedAt: z.iso.datetime().nullable(),
      taxa: z
        .array(TaxonRef.extend({ viaPainter: z.boolean().describe("A movement the painting has from its painter's statements, not its own: show it as the painter's") }))
        .describe('Museum, movement, genre and subjects'),
    }),
    related: z.array(ArtworkCard).describe('Other works by the artist or of the same movement'),
  })
  .meta({ id: 'ArtworkDetail' });

export const TaxonDetail = z
  .object({
    taxon: TaxonCard.extend({ description: z.string().nullable() }),
    topArtists: z.array(ArtistRef.extend({ artworkCount: z.int() })),
    works: ArtworkPage,
  })
  .meta({ id: 'TaxonDetail' });

export const TaxonPage = page$(TaxonCard).meta({ id: 'TaxonPage' });
export const ArtistPage = page$(ArtistCard).meta({ id: 'ArtistPage' });
