'use client';

import { priceOf, type PriceChoice } from '@/shared/prices';
import { trpc } from '@/trpc/react';
import type { PriceTableData } from './price';

/**
 * The price table from `orders.pricing`. A page that read it on the server passes it as `initial`
 * so prices are on the first paint; it changes only with a deploy, so it is never refetched.
 */
export function usePriceTable(initial?: PriceTableData) {
  const query = trpc.orders.pricing.useQuery({}, { initialData: initial, staleTime: Infinity, gcTime: Infinity });
  return { table: query.data, isLoading: query.isLoading, isError: query.isError };
}

/** The live price of one choice, in integer US cents; null until the table has arrived. */
export function usePrice(choice: PriceChoice, initial?: PriceTableData) {
  const { table, isLoading, isError } = usePriceTable(initial);
  return { cents: table ? priceOf(choice, table) : null, table, isLoading, isError };
}
