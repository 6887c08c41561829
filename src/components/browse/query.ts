/** The artworks grid's query: search words and filters, as the address and `catalog.artworks` name them. */
import { param, type SearchParams } from './params';

/** The grid's filters, in the order the form shows them; the names are the procedure's query keys. */
export const filterKeys = ['artist', 'movement', 'museum', 'genre', 'subject'] as const;
export type FilterKey = (typeof filterKeys)[number];

export type GridQuery = { q?: string } & Partial<Record<FilterKey, string>>;

export interface ActiveFilter {
  key: FilterKey;
  slug: string;
  /** The shop's name for it in this language; the slug when the catalog does not know it. */
  name: string;
}

/** The query without some keys (and without the page: a changed search starts on its first page). */
export function without(query: GridQuery, ...keys: (keyof GridQuery)[]): Record<string, string> {
  return Object.fromEntries(Object.entries(query).filter(([key, value]) => value && !keys.includes(key as keyof GridQuery))) as Record<string, string>;
}

/** Longer than any slug the catalog makes: names nothing (the procedure would refuse it with a 400). */
export const MAX_SLUG = 160;

/** The query as the address gives it, made safe for the procedure: whatever a shopper types gives a page, never an error. */
export function gridQuery(params: SearchParams): GridQuery {
  const q = param(params, 'q')
    ?.replace(/\u0000/g, '')
    .slice(0, 200)
    .trim();
  const query: GridQuery = q ? { q } : {};
  for (const key of filterKeys) {
    const value = param(params, key);
    if (value) query[key] = value.toLowerCase();
  }
  return query;
}
