import type { Size } from '@/server/orders/schema';

/** The two sides of a size, in cm, short side first: `50x70` → 50 and 70. */
export function sidesOf(size: Size): { shortCm: number; longCm: number } {
  const [a, b] = size.split('x').map(Number) as [number, number];
  return { shortCm: Math.min(a, b), longCm: Math.max(a, b) };
}

/**
 * The canvas we paint for a size, turned the way the painting is: a landscape work (wider than
 * tall, `ratio` = width / height > 1) is painted 70 wide × 50 high, a portrait or unknown one
 * 50 × 70.
 */
export function canvasCm(size: Size, ratio?: number | null): { widthCm: number; heightCm: number } {
  const { shortCm, longCm } = sidesOf(size);
  return ratio != null && ratio > 1 ? { widthCm: longCm, heightCm: shortCm } : { widthCm: shortCm, heightCm: longCm };
}
