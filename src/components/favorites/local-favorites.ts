'use client';

import { browserList } from '@/lib/browser-list';

/**
 * The favorites of a shopper who is not signed in: slugs in this browser's localStorage, newest
 * first. At sign-in they are merged into the account and the list is cleared (see `useFavorites`).
 */

/** The server keeps at most this many in one merge; a longer local list would be cut there anyway. */
const MAX_LOCAL = 500;

const favorites = browserList<string>(
  'atelier-prints.favorites',
  (value) => {
    if (!Array.isArray(value)) return [];
    return [...new Set(value.filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= 160))];
  },
  MAX_LOCAL,
);

export const localFavorites = favorites.read;

/** Puts `slug` first (the newest), or takes it out. */
export function setLocalFavorite(slug: string, favorite: boolean): void {
  const rest = localFavorites().filter((s) => s !== slug);
  favorites.write(favorite ? [slug, ...rest] : rest);
}

/** Takes the given slugs out (after they were merged into the account), keeping any added meanwhile. */
export function forgetLocalFavorites(slugs: readonly string[]): void {
  const gone = new Set(slugs);
  favorites.write(localFavorites().filter((s) => !gone.has(s)));
}

/** The local list, kept current across this tab and others; empty while server-rendering. */
export const useLocalFavorites = favorites.useList;
