'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useLocale } from 'next-intl';
import type { Locale } from '@/shared/locales';
import { trpc } from '@/trpc/react';
import { forgetLocalFavorites, setLocalFavorite, useLocalFavorites } from './local-favorites';

/**
 * Who is signed in, read in the browser (`account.me`), so the pages and the layout around them
 * stay the same for everyone and can be served from cache.
 */
export function useAccount() {
  // Asked again when the tab comes back into view: the shopper may have signed in or out in another tab.
  const me = trpc.account.me.useQuery({}, { staleTime: 5 * 60_000, retry: 1, refetchOnWindowFocus: true });
  const user = me.data?.user ?? null;
  const status: 'loading' | 'signedOut' | 'signedIn' = me.isPending ? 'loading' : user ? 'signedIn' : 'signedOut';
  return { status, user };
}

/*
 * Changes sent to the server and not yet confirmed, slug → wanted state. Every heart and the
 * favorites page read them, so a click shows at once everywhere and a failed write falls back to
 * what the server has (the rollback) by simply dropping the entry.
 */
const pending = new Map<string, boolean>();
let pendingSnapshot: ReadonlyMap<string, boolean> = new Map();
const pendingListeners = new Set<() => void>();

function setPending(slug: string, favorite: boolean | null): void {
  if (favorite === null) pending.delete(slug);
  else pending.set(slug, favorite);
  pendingSnapshot = new Map(pending);
  pendingListeners.forEach((listener) => listener());
}

const subscribePending = (listener: () => void) => {
  pendingListeners.add(listener);
  return () => pendingListeners.delete(listener);
};
const emptyPending: ReadonlyMap<string, boolean> = new Map();

/**
 * The shopper's favorites wherever they live: this browser's list while signed out, the account
 * while signed in (with the local list merged in once, at sign-in: see `useMergeLocalFavorites`).
 * Worked out once for the page by FavoritesProvider, not by every heart: a grid's 48 hearts each
 * set up the same two queries and two mutations, on the server's render and again in the phone's
 * hydration.
 */
function useFavoritesOfTheShopper() {
  const locale = useLocale() as Locale;
  const account = useAccount();
  const signedIn = account.status === 'signedIn';
  const local = useLocalFavorites();
  const changes = useSyncExternalStore(
    subscribePending,
    () => pendingSnapshot,
    () => emptyPending,
  );
  const utils = trpc.useUtils();
  // Refreshed when the tab comes back into view, so another tab's or device's changes show.
  const stored = trpc.account.favorites.useQuery({ locale }, { enabled: signedIn, staleTime: 60_000, refetchOnWindowFocus: true });
  const add = trpc.account.addFavorite.useMutation();
  const remove = trpc.account.removeFavorite.useMutation();

  const slugs = useMemo(() => {
    if (account.status === 'signedOut') return local;
    const onServer = (stored.data?.items ?? []).map((card) => card.slug);
    // Until the merge has answered, the local list still counts, so nothing blinks off at sign-in.
    const all = [...new Set([...local, ...onServer])];
    const added = [...changes].filter(([slug, on]) => on && !all.includes(slug)).map(([slug]) => slug);
    return [...added, ...all.filter((slug) => changes.get(slug) !== false)];
  }, [account.status, local, stored.data, changes]);

  const isFavorite = useCallback((slug: string) => slugs.includes(slug), [slugs]);

  /** Sets one favorite; resolves false when the server refused or could not be reached (the heart is then back as it was). */
  const setFavorite = useCallback(
    async (slug: string, favorite: boolean): Promise<boolean> => {
      if (account.status === 'loading') return false;
      if (account.status === 'signedOut') {
        setLocalFavorite(slug, favorite);
        return true;
      }
      setPending(slug, favorite);
      try {
        await (favorite ? add : remove).mutateAsync({ slug });
        // A read of the list sent before the write answers without it. Invalidating alone would
        // wait for that read when the list has no data yet (TanStack Query reuses the fetch in
        // flight), so the heart would fall back: the read is dropped and the list read again.
        await utils.account.favorites.cancel();
        await utils.account.favorites.invalidate();
        return true;
      } catch {
        return false;
      } finally {
        setPending(slug, null);
      }
    },
    [account.status, add, remove, utils],
  );

  const storedCards = stored.data?.items;
  const storedLoading = signedIn && stored.isPending;
  return useMemo(
    () => ({
      status: account.status,
      /** Newest first. */
      slugs,
      /** The account's cards (signed in only; the favorites page asks the catalog for the local ones). */
      storedCards,
      storedLoading,
      isFavorite,
      setFavorite,
    }),
    [account.status, slugs, storedCards, storedLoading, isFavorite, setFavorite],
  );
}

const FavoritesContext = createContext<ReturnType<typeof useFavoritesOfTheShopper> | null>(null);

/** Holds the shopper's favorites for everything below it: the shop's layout wraps every page in one. */
export function FavoritesProvider({ children }: { children: ReactNode }) {
  return <FavoritesContext.Provider value={useFavoritesOfTheShopper()}>{children}</FavoritesContext.Provider>;
}

/** The shopper's favorites (see useFavoritesOfTheShopper), from the page's FavoritesProvider. */
export function useFavorites() {
  const favorites = useContext(FavoritesContext);
  if (!favorites) throw new Error('useFavorites: no FavoritesProvider above (the shop layout holds one)');
  return favorites;
}

// One merge at a time per tab: several components may run the effect at once.
let merging = false;

/**
 * At sign-in, the favorites kept in this browser join the account (the server's `mergeFavorites`:
 * union, duplicates and unknown works ignored), then leave the browser: signed out again, the local
 * list starts empty while the account keeps them. A failed merge keeps the list for the next page.
 */
export function useMergeLocalFavorites(): void {
  const locale = useLocale() as Locale;
  const account = useAccount();
  const local = useLocalFavorites();
  const utils = trpc.useUtils();
  const merge = trpc.account.mergeFavorites.useMutation();
  const { mutateAsync } = merge;

  useEffect(() => {
    if (account.status !== 'signedIn' || local.length === 0 || merging) return;
    merging = true;
    const slugs = [...local];
    mutateAsync({ slugs, locale })
      .then((merged) => {
        utils.account.favorites.setData({ locale }, merged);
        // Only what was sent leaves: anything added meanwhile (another tab) waits for the next merge.
        forgetLocalFavorites(slugs);
      })
      .catch(() => {
        // Kept locally; the next page load tries again.
      })
      .finally(() => {
        merging = false;
      });
  }, [account.status, local, locale, mutateAsync, utils]);
}
