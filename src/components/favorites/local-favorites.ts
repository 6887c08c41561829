'use client';

import { useSyncExternalStore } from 'react';

/**
 * The favorites of a shopper who is not signed in: slugs in this browser's localStorage, newest
 * first. At sign-in they are merged into the account and the list is cleared (see `useFavorites`).
 * Other tabs learn of a change through the `storage` event; this tab through its own listeners,
 * because the event never fires in the tab that wrote.
 */

const KEY = 'atelier-prints.favorites';
/** The server keeps at most this many in one merge; a longer local list would be cut there anyway. */
const MAX_LOCAL = 500;
const EMPTY: readonly string[] = Object.freeze([]);

const listeners = new Set<() => void>();
// useSyncExternalStore needs the same array back while nothing changed: keep it with the text it came from.
let cache: { raw: string | null; slugs: readonly string[] } = { raw: null, slugs: EMPTY };

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be switched off (privacy settings); favorites then last as long as nothing.
    return null;
  }
}

function parse(raw: string | null): readonly string[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return EMPTY;
    const slugs = value.filter((s): s is string => typeof s === 'string' && s.length > 0 && s.length <= 160);
    return Object.freeze([...new Set(slugs)]);
  } catch {
    return EMPTY;
  }
}

export function localFavorites(): readonly string[] {
  const raw = storage()?.getItem(KEY) ?? null;
  if (raw !== cache.raw) cache = { raw, slugs: parse(raw) };
  return cache.slugs;
}

function write(slugs: readonly string[]): void {
  const store = storage();
  if (!store) return;
  try {
    if (slugs.length) store.setItem(KEY, JSON.stringify(slugs.slice(0, MAX_LOCAL)));
    else store.removeItem(KEY);
  } catch {
    // A full or refused storage keeps the previous list; nothing better to do in the browser.
  }
  listeners.forEach((listener) => listener());
}

/** Puts `slug` first (the newest), or takes it out. */
export function setLocalFavorite(slug: string, favorite: boolean): void {
  const rest = localFavorites().filter((s) => s !== slug);
  write(favorite ? [slug, ...rest] : rest);
}

/** Takes the given slugs out (after they were merged into the account), keeping any added meanwhile. */
export function forgetLocalFavorites(slugs: readonly string[]): void {
  const gone = new Set(slugs);
  write(localFavorites().filter((s) => !gone.has(s)));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The local list, kept current across this tab and others; empty while server-rendering. */
export function useLocalFavorites(): readonly string[] {
  return useSyncExternalStore(subscribe, localFavorites, () => EMPTY);
}
