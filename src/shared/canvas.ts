/**
 * The canvas a painting is made on: its sizes, frames, orientation and (for a reproduction) how the
 * work meets it. The price table (prices.ts), the delivery table (delivery.ts), the order contracts,
 * the order forms, the wall preview and the e-mails read these lists, and the database's CHECK
 * constraints and enums are held to them (tests/integration/shared-lists.test.ts).
 */

/** Canvas sizes in cm, short edge first. */
export const sizes = ['30x40', '50x70', '60x90', '90x120'] as const;
export type Size = (typeof sizes)[number];

/** How the canvas comes: rolled in a tube, stretched on a frame, or framed. */
export const frames = ['rolled', 'stretched', 'framed'] as const;
export type Frame = (typeof frames)[number];

/**
 * How a size hangs (decisions.md "What was ordered"): sizes name the short edge first, and the
 * orientation says which edge is horizontal. The geometry below is pure, so the order form, the
 * order pages, the staff dashboard and the e-mails all turn a size the same way.
 */
export const orientations = ['portrait', 'landscape'] as const;
export type Orientation = (typeof orientations)[number];

/**
 * How a reproduction meets a canvas of other proportions: the whole composition with the background
 * extended, or the canvas filled and the composition cropped.
 */
export const fits = ['whole', 'crop'] as const;
export type Fit = (typeof fits)[number];

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

/** From this relative difference on, each size says in words how much is cropped or added. */
export const FIT_NOTE_THRESHOLD = 0.1;

/** A rectangle as fractions of the box it is drawn in (0–1 from the top left). */
export interface FitRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * How a work meets a canvas, for drawing it (the order form's previews, the wall preview):
 * - `whole`: the box is the canvas; `picture` is where the whole work sits in it, centred, and the
 *   rest is background the painter extends;
 * - `crop`: the box is the whole work; `picture` is the part the canvas keeps, centred, and the
 *   rest is cut off.
 * `share` is the part of the box outside `picture`: the background added or the composition lost.
 */
export function fitOf(workRatio: number, canvas: { widthCm: number; heightCm: number }, fit: Fit): { boxRatio: number; picture: FitRect; share: number } {
  const canvasRatio = canvas.widthCm / canvas.heightCm;
  const inner = fit === 'whole' ? workRatio : canvasRatio;
  const outer = fit === 'whole' ? canvasRatio : workRatio;
  // The inner shape is relatively wider than the box: it spans the width and is shorter.
  const picture =
    inner >= outer ? { left: 0, top: (1 - outer / inner) / 2, width: 1, height: outer / inner } : { left: (1 - inner / outer) / 2, top: 0, width: inner / outer, height: 1 };
  return { boxRatio: outer, picture, share: 1 - picture.width * picture.height };
}
