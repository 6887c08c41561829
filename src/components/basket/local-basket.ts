'use client';

import { browserList } from '@/lib/browser-list';
import type { BasketEntry } from '@/shared/basket-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';

/**
 * An entry as this browser stored it. Only its shape is looked at here, so that every page can
 * count the basket without loading the schema library; `useBasket` checks each entry with the
 * schema the account's basket uses (`checkedEntries`) before anything reads its choices.
 */
export type StoredEntry = { readonly id: string; readonly item: object };

const isStoredEntry = (entry: unknown): entry is StoredEntry =>
  typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' && typeof (entry as { item?: unknown }).item === 'object';

/**
 * The basket of a shopper who is not signed in: its entries in this browser's localStorage, oldest
 * first. At sign-in they join the account's basket and leave the browser (see `useBasket`).
 */
const basket = browserList<StoredEntry>('atelier-prints.basket', (value) => (Array.isArray(value) ? value.filter(isStoredEntry) : []), MAX_CHECKOUT_ITEMS);

export const localBasket = basket.read;
export const useLocalBasket = basket.useList;
export const setLocalBasket = (entries: readonly BasketEntry[]) => basket.write(entries);

/** Takes the given entries out (merged into the account, or paid), keeping any added meanwhile. */
export function forgetLocalEntries(ids: readonly string[]): void {
  const gone = new Set(ids);
  basket.write(localBasket().filter((entry) => !gone.has(entry.id)));
}

type BasketSchema = typeof import('@/shared/basket-schema');
let schema: BasketSchema | undefined;

function check(stored: readonly StoredEntry[], { BasketEntry }: BasketSchema): BasketEntry[] {
  return stored.flatMap((entry) => {
    const parsed = BasketEntry.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The stored entries this version of the shop can read, checked with BasketEntry; the schema is
 * loaded on the first call, so a page whose basket is empty never loads it. An entry an older shop
 * wrote, or a person, is left out, not the whole basket.
 */
export async function checkedEntries(stored: readonly StoredEntry[]): Promise<BasketEntry[]> {
  if (stored.length === 0) return [];
  schema ??= await import('@/shared/basket-schema');
  return check(stored, schema);
}

/** The same, at once when the schema is already loaded (every change after the first check); else null. */
export function checkedEntriesNow(stored: readonly StoredEntry[]): BasketEntry[] | null {
  if (stored.length === 0) return [];
  return schema ? check(stored, schema) : null;
}
