/**
 * The catalog's fixed lists: the kinds of browse page and who starts a pipeline run. Addresses,
 * sitemaps, the catalog contracts and the staff pages read these; the database's enums are held to
 * them (tests/integration/shared-lists.test.ts).
 */

/** The kinds of browse page, as addresses name them (`/museums/louvre`). */
export const taxonKinds = ['museums', 'movements', 'subjects', 'genres'] as const;
export type TaxonKindPlural = (typeof taxonKinds)[number];
/** A browse page's kind as addresses name it (plural), and as the database does (singular). */
export const kindOf = { museums: 'museum', movements: 'movement', subjects: 'subject', genres: 'genre' } as const satisfies Record<TaxonKindPlural, string>;
export const pluralOf = { museum: 'museums', movement: 'movements', subject: 'subjects', genre: 'genres' } as const;
export type TaxonKind = keyof typeof pluralOf;

/** What started a publish or ingest run: the daily schedule, staff on the dashboard, or `npm run catalog`. */
export const publishTriggers = ['schedule', 'staff', 'cli'] as const;
export type PublishTrigger = (typeof publishTriggers)[number];
/** How exactly a work's date is known: 1650, c. 1650, the 1650s, the 17th century (docs/pipeline.md). */
export const datePrecisions = ['year', 'circa', 'decade', 'century'] as const;
export type DatePrecision = (typeof datePrecisions)[number];
