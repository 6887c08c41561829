import type { Frame, OrderKind, Size } from './schema';

/**
 * The one price table (decisions.md "Prices"): every total the shop charges and every price the
 * website shows comes from here. Integer US cents.
 */
export const reproductionPrices: Record<Size, Record<Frame, number>> = {
  '30x40': { rolled: 12900, stretched: 12900 + 3900, framed: 12900 + 9900 },
  '50x70': { rolled: 19900, stretched: 19900 + 5900, framed: 19900 + 14900 },
  '60x90': { rolled: 25900, stretched: 25900 + 7900, framed: 25900 + 19900 },
  '90x120': { rolled: 38900, stretched: 38900 + 11900, framed: 38900 + 29900 },
};

/** A custom painting costs half again as much as a reproduction of its size and frame… */
export const customMultiplier = 1.5;
/** …plus this for every subject beyond the first (style does not change the price). */
export const extraSubjectCents = 4000;

export interface PriceRequest {
  kind: OrderKind;
  size: Size;
  frame: Frame;
  subjects?: number;
}

export function priceOf(request: PriceRequest): number {
  const base = reproductionPrices[request.size][request.frame];
  if (request.kind === 'reproduction') return base;
  const extraSubjects = Math.max(0, (request.subjects ?? 1) - 1);
  return Math.round(base * customMultiplier) + extraSubjects * extraSubjectCents;
}
