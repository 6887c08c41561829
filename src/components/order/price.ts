import type { z } from 'zod';
import type { Frame, OrderKind, PriceTable, Size } from '@/server/orders/schema';

/** The price table as `orders.pricing` (GET /v1/pricing) sends it. */
export type PriceTableData = z.output<typeof PriceTable>;

export interface PriceChoice {
  kind: OrderKind;
  size: Size;
  frame: Frame;
  /** Custom paintings only: the number of people or animals painted (1–8). */
  subjects?: number;
}

/**
 * The total in integer US cents, from the table the server charges by, computed exactly as the
 * server's `priceOf` does (src/server/orders/pricing.ts), so the price shown is the price charged.
 * Null when the table lacks the size and frame (it never should).
 */
export function priceFromTable(table: PriceTableData, choice: PriceChoice): number | null {
  const base = table.reproduction[choice.size]?.[choice.frame] as number | undefined;
  if (base == null) return null;
  if (choice.kind === 'reproduction') return base;
  const extraSubjects = Math.max(0, (choice.subjects ?? 1) - 1);
  return Math.round(base * table.custom.multiplier) + extraSubjects * table.custom.extraSubjectCents;
}
