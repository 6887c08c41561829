'use client';

import { useSyncExternalStore } from 'react';

/**
 * A list kept in this browser's localStorage under one key, read through React: favorites and the
 * basket of a shopper who is not signed in. Other tabs learn of a change through the `storage`
 * event; this tab through its own listeners, because the event never fires in the tab that wrote.
 * `parse` turns whatever is stored (another version of the shop wrote it, or a person) into a list.
 */
export function browserList<T>(key: string, parse: (value: unknown) => readonly T[], max: number) {
  const empty: readonly T[] = Object.freeze([]);
  const listeners = new Set<() => void>();
  // useSyncExternalStore needs the same array back while nothing changed: keep it with the text it came from.
  let cache: { raw: string | null; list: readonly T[] } = { raw: null, list: empty };

  function storage(): Storage | null {
    try {
      return typeof window === 'undefined' ? null : window.localStorage;
    } catch {
      // Storage can be switched off (privacy settings); the list then lasts as long as nothing.
      return null;
    }
  }

  function read(): readonly T[] {
    const raw = storage()?.getItem(key) ?? null;
    if (raw !== cache.raw) {
      let list = empty;
      try {
        list = raw ? Object.freeze(parse(JSON.parse(raw))) : empty;
      } catch {
        // Not JSON: start again from nothing rather than fail every page.
      }
      cache = { raw, list };
    }
    return cache.list;
  }

  function write(list: readonly T[]): void {
    const store = storage();
    if (!store) return;
    try {
      if (list.length) store.setItem(key, JSON.stringify(list.slice(0, max)));
      else store.removeItem(key);
    } catch {
      // A full or refused storage keeps the previous list; nothing better to do in the browser.
    }
    listeners.forEach((listener) => listener());
  }

  function subscribe(listener: () => void): () => void {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  }

  /** The list, kept current across this tab and others; empty while server-rendering. */
  function useList(): readonly T[] {
    return useSyncExternalStore(subscribe, read, () => empty);
  }

  return { read, write, useList };
}
