'use client';

import { browserList } from '@/lib/browser-list';
import { BasketEntry } from '@/shared/basket-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/checkout-schema';

/**
 * The basket of a shopper who is not signed in: its entries in this browser's localStorage, oldest
 * first, each checked with the schema the account's basket uses. At sign-in they join the account's
 * basket and leave the browser (see `useBasket`).
 */
const basket = browserList<BasketEntry>(
  'atelier-prints.basket',
  (value) => {
    if (!Array.isArray(value)) return [];
    // An entry this version cannot read (an older shop wrote it) is left out, not the whole basket.
    return value.flatMap((entry) => {
      const parsed = BasketEntry.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  },
  MAX_CHECKOUT_ITEMS,
);

export const localBasket = basket.read;
export const useLocalBasket = basket.useList;
export const setLocalBasket = basket.write;

/** Takes the given entries out (merged into the account, or paid), keeping any added meanwhile. */
export function forgetLocalEntries(ids: readonly string[]): void {
  const gone = new Set(ids);
  basket.write(localBasket().filter((entry) => !gone.has(entry.id)));
}
