import type { Frame, Size } from './canvas';
import type { OrderKind } from './orders';

/** What a price is computed from: what `orders.pricing` (GET /v1/pricing) sends, less its delivery times. */
export interface Prices {
  /** Integer US cents by size, then frame. */
  reproduction: Record<Size, Record<Frame, number>>;
  custom: {
    /** A custom painting costs half again as much as a reproduction of its size and frame… */
    multiplier: number;
    /** …plus this for every subject beyond the first (style does not change the price). */
    extraSubjectCents: number;
  };
}

/**
 * The one price table (decisions.md "Prices"): every total the shop charges and every price the
 * website shows comes from here. Integer US cents, shipping included.
 */
export const prices: Prices = {
  reproduction: {
    '30x40': { rolled: 12900, stretched: 12900 + 3900, framed: 12900 + 9900 },
    '50x70': { rolled: 19900, stretched: 19900 + 5900, framed: 19900 + 14900 },
    '60x90': { rolled: 25900, stretched: 25900 + 7900, framed: 25900 + 19900 },
    '90x120': { rolled: 38900, stretched: 38900 + 11900, framed: 38900 + 29900 },
  },
  custom: { multiplier: 1.5, extraSubjectCents: 4000 },
};

/**
 * The cheapest reproduction in a table, what every "from" price and the Offer quote: the smallest
 * size, rolled (the table makes rolled the cheapest finish of every size, and the pages name it so).
 */
export function cheapestReproduction(table: Pick<Prices, 'reproduction'> = prices): { size: Size; cents: number } {
  return (Object.keys(table.reproduction) as Size[])
    .map((size) => ({ size, cents: table.reproduction[size].rolled }))
    .reduce((low, next) => (next.cents < low.cents ? next : low));
}

export interface PriceChoice {
  kind: OrderKind;
  size: Size;
  frame: Frame;
  /** Custom paintings only: the number of people or animals painted. */
  subjects?: number;
}

/**
 * The total of one choice in integer US cents: the server charges it from its own table, the
 * browser shows it from the table `orders.pricing` sent, so the price shown is the price charged.
 */
export function priceOf(choice: PriceChoice, table: Prices = prices): number {
  const base = table.reproduction[choice.size][choice.frame];
  if (choice.kind === 'reproduction') return base;
  const extraSubjects = Math.max(0, (choice.subjects ?? 1) - 1);
  return Math.round(base * table.custom.multiplier) + extraSubjects * table.custom.extraSubjectCents;
}
