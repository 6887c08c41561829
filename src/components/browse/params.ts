import { PAGE_SIZE } from '@/server/catalog/schema';

/** What Next hands a page as `searchParams`: a key may be missing, given once, or repeated. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The first value of a query parameter, trimmed; empty counts as absent. */
export function param(params: SearchParams, key: string): string | undefined {
  const raw = params[key];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value ? value : undefined;
}

/**
 * `?page=` as the procedures take it. A hand-edited address (`page=0`, `page=abc`) shows the first
 * page instead of an error: a shopper should never meet a 400 on a catalog page.
 */
export function pageParam(params: SearchParams): number {
  const n = Number(param(params, 'page'));
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** The number of pages a list of `total` items fills (at least one). */
export const pageCount = (total: number, pageSize = PAGE_SIZE) => Math.max(1, Math.ceil(total / pageSize));
