import type { Size } from './schema';

/**
 * How a size hangs (decisions.md "What was ordered"): sizes name the short edge first, and the
 * orientation says which edge is horizontal. Pure, so the order form, the order pages, the staff
 * dashboard and the e-mails all turn a size the same way.
 */
export const orientations = ['portrait', 'landscape'] as const;
export type Orientation = (typeof orientations)[number];

/** Wider than tall is landscape; square or unknown is portrait. */
export function orientationOf(width: number | null | undefined, height: number | null | undefined): Orientation {
  return width != null && height != null && width > height ? 'landscape' : 'portrait';
}

/** The two sides of a size, in cm: `50x70` → 50 and 70. */
export function sidesOf(size: Size): { shortCm: number; longCm: number } {
  const [a, b] = size.split('x').map(Number) as [number, number];
  return { shortCm: Math.min(a, b), longCm: Math.max(a, b) };
}

/** The canvas as it hangs: a landscape `50x70` is 70 cm wide and 50 cm high. */
export function canvasOf(size: Size, orientation: Orientation): { widthCm: number; heightCm: number } {
  const { shortCm, longCm } = sidesOf(size);
  return orientation === 'landscape' ? { widthCm: longCm, heightCm: shortCm } : { widthCm: shortCm, heightCm: longCm };
}

/**
 * Below this relative difference between a work's proportions and its canvas, nobody would see
 * the difference, so the shopper is not asked whether to keep the whole composition or crop it.
 */
export const FIT_CHOICE_THRESHOLD = 0.02;

/** How far a work's proportions (width / height) are from its canvas's, relatively: 0 is a perfect fit. */
export function proportionGap(workRatio: number, canvas: { widthCm: number; heightCm: number }): number {
  const canvasRatio = canvas.widthCm / canvas.heightCm;
  return Math.abs(workRatio - canvasRatio) / canvasRatio;
}
