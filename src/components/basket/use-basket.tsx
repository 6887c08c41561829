'use client';

import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAccount } from '@/components/favorites/use-favorites';
import type { BasketEntry } from '@/shared/basket-schema';
import type { CheckoutItem } from '@/shared/checkout-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';
import { trpc } from '@/trpc/react';
import { checkedEntries, checkedEntriesNow, forgetLocalEntries, localBasket, setLocalBasket, useLocalBasket, type StoredEntry } from './local-basket';

/** What putting a work in the basket came to. */
export type AddOutcome = 'added' | 'full' | 'failed';

/** A custom item's photo as the basket keeps it beside the item. */
export interface PhotoKept {
  uploadedAt: string;
  thumbnail: string | null;
}

const sameWork = (a: CheckoutItem, b: CheckoutItem) => a.kind === 'custom' && b.kind === 'custom' && a.uploadId === b.uploadId;

const NOTHING: readonly BasketEntry[] = Object.freeze([]);

/**
 * This browser's entries, checked (`checkedEntries`); null only while the schema loads for the
 * first check. An empty basket needs no check, so no schema library is loaded for it; once loaded,
 * every change is checked at once, so the basket never blinks into "loading" as it changes.
 */
function useCheckedLocalBasket(): readonly BasketEntry[] | null {
  const stored = useLocalBasket();
  const now = useMemo(() => checkedEntriesNow(stored), [stored]);
  // The first check, once the schema has arrived.
  const [first, setFirst] = useState<{ from: readonly StoredEntry[]; entries: readonly BasketEntry[] } | null>(null);
  useEffect(() => {
    if (now !== null) return;
    let current = true;
    void checkedEntries(stored).then((entries) => {
      if (current) setFirst({ from: stored, entries });
    });
    return () => {
      current = false;
    };
  }, [now, stored]);
  return now ?? (first?.from === stored ? first.entries : null);
}

/**
 * The shopper's basket wherever it lives: this browser's list while signed out, the account's
 * (`account.basket`) while signed in, with the local list merged in once at sign-in (see
 * `useMergeLocalBasket`). Every change writes the whole list, as the account's store takes it;
 * signed in, the list changes on screen at once and falls back to the account's if the write fails.
 */
function useBasketOfTheShopper() {
  const account = useAccount();
  const signedIn = account.status === 'signedIn';
  const checking = useCheckedLocalBasket();
  const local = checking ?? NOTHING;
  const utils = trpc.useUtils();
  const stored = trpc.account.basket.useQuery({}, { enabled: signedIn, staleTime: 60_000, refetchOnWindowFocus: true });
  const { mutateAsync: save } = trpc.account.saveBasket.useMutation();

  const entries = useMemo<readonly BasketEntry[]>(() => {
    if (!signedIn) return local;
    const onAccount = stored.data?.entries ?? [];
    // Until the merge has answered, the local entries still show, so nothing blinks off at sign-in.
    const ids = new Set(onAccount.map((entry) => entry.id));
    return [...onAccount, ...local.filter((entry) => !ids.has(entry.id))];
  }, [signedIn, local, stored.data]);

  const write = useCallback(
    async (next: BasketEntry[]): Promise<boolean> => {
      if (account.status === 'loading') return false;
      if (account.status === 'signedOut') {
        setLocalBasket(next);
        return true;
      }
      const before = utils.account.basket.getData({});
      await utils.account.basket.cancel();
      utils.account.basket.setData({}, { entries: next });
      try {
        utils.account.basket.setData({}, await save({ entries: next }));
        return true;
      } catch {
        utils.account.basket.setData({}, before);
        await utils.account.basket.invalidate();
        return false;
      }
    },
    [account.status, save, utils],
  );

  // What a change starts from: signed in, the account's list as read (asked for first if it has not
  // arrived, so a change can never write over entries it has not seen); null when it cannot be read.
  const current = useCallback(async (): Promise<readonly BasketEntry[] | null> => {
    if (account.status !== 'signedIn') return checkedEntries(localBasket());
    try {
      return (await utils.account.basket.ensureData({})).entries;
    } catch {
      return null;
    }
  }, [account.status, utils]);

  /** Puts a work in the basket; the same photo twice is the same work, already there. */
  const add = useCallback(
    async (item: CheckoutItem, photo?: PhotoKept): Promise<AddOutcome> => {
      const now = await current();
      if (!now) return 'failed';
      if (now.some((entry) => sameWork(entry.item, item))) return 'added';
      if (now.length >= MAX_CHECKOUT_ITEMS) return 'full';
      const entry: BasketEntry = {
        id: crypto.randomUUID(),
        item,
        addedAt: new Date().toISOString(),
        uploadedAt: photo?.uploadedAt ?? null,
        thumbnail: photo?.thumbnail ?? null,
      };
      return (await write([...now, entry])) ? 'added' : 'failed';
    },
    [current, write],
  );

  /** Changes one entry's choices (size, frame, fit…), keeping its place. */
  const change = useCallback(
    async (id: string, item: CheckoutItem) => {
      const now = await current();
      return now ? write(now.map((entry) => (entry.id === id ? { ...entry, item } : entry))) : false;
    },
    [current, write],
  );

  /** Takes entries out: one the shopper removed, or all those just ordered. */
  const remove = useCallback(
    async (ids: readonly string[]) => {
      // Ordered while signed in with entries not merged yet: they leave the browser too.
      forgetLocalEntries(ids);
      const gone = new Set(ids);
      const now = await current();
      return now ? write(now.filter((entry) => !gone.has(entry.id))) : false;
    },
    [current, write],
  );

  const loading = account.status === 'loading' || checking === null || (signedIn && stored.isPending);
  return useMemo(() => ({ status: account.status, loading, entries, add, change, remove }), [account.status, loading, entries, add, change, remove]);
}

const BasketContext = createContext<ReturnType<typeof useBasketOfTheShopper> | null>(null);

/** Holds the shopper's basket for everything below it: the shop's layout wraps every page in one. */
export function BasketProvider({ children }: { children: ReactNode }) {
  return <BasketContext.Provider value={useBasketOfTheShopper()}>{children}</BasketContext.Provider>;
}

/** The shopper's basket (see useBasketOfTheShopper), from the page's BasketProvider. */
export function useBasket() {
  const basket = useContext(BasketContext);
  if (!basket) throw new Error('useBasket: no BasketProvider above (the shop layout holds one)');
  return basket;
}

// One merge at a time per tab: several components may run the effect at once.
let merging = false;

/**
 * At sign-in, the entries kept in this browser join the account's basket (the server's
 * `mergeBasket`: the account's first, the same entry or photo once, at most ten), then leave the
 * browser. A failed merge keeps them for the next page.
 */
export function useMergeLocalBasket(): void {
  const account = useAccount();
  const local = useLocalBasket();
  const utils = trpc.useUtils();
  const { mutateAsync: merge } = trpc.account.mergeBasket.useMutation();

  useEffect(() => {
    if (account.status !== 'signedIn' || local.length === 0 || merging) return;
    merging = true;
    const ids = local.map((entry) => entry.id);
    checkedEntries(local)
      .then((entries) => merge({ entries }))
      .then((merged) => {
        utils.account.basket.setData({}, merged);
        // Those the check left out go too: no version of the shop can read them.
        forgetLocalEntries(ids);
      })
      .catch(() => {
        // Kept locally; the next page load tries again.
      })
      .finally(() => {
        merging = false;
      });
  }, [account.status, local, merge, utils]);
}
