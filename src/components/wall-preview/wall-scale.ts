import type { Frame } from '@/shared/canvas';

/**
 * The arithmetic of "see it on your wall", kept apart from React so it can be tested: how many
 * pixels of a picture make a centimetre of wall, and how big the painting is drawn there.
 */

/** A point on a picture as fractions of its width and height (0–1), so it survives resizing. */
export interface Point {
  x: number;
  y: number;
}

export interface PictureSize {
  width: number;
  height: number;
}

/** What each finish adds around the painted canvas, in cm on each side. */
export const finishCm: Record<Frame, number> = {
  // A rolled canvas keeps a band of bare canvas for the framer to stretch it later.
  rolled: 3,
  // A stretched canvas is wrapped round its bars: the painting is the whole face.
  stretched: 0,
  // The moulding of the frame.
  framed: 5,
};

/** How far a stretched canvas or a frame stands off the wall, in cm: the depth its shadow shows. */
export const depthCm: Record<Frame, number> = { rolled: 0.2, stretched: 2, framed: 3.5 };

/** Length of the line between two marked points, in the picture's own pixels. */
export function markedLengthPx(a: Point, b: Point, picture: PictureSize): number {
  return Math.hypot((b.x - a.x) * picture.width, (b.y - a.y) * picture.height);
}

/**
 * Pixels of the picture per centimetre of wall, from a line the shopper marked and the length they
 * typed. Null until both make sense (a line of at least a few pixels, a positive length).
 */
export function pxPerCm(a: Point, b: Point, picture: PictureSize, lengthCm: number): number | null {
  if (!Number.isFinite(lengthCm) || lengthCm <= 0) return null;
  const px = markedLengthPx(a, b, picture);
  if (px < 4) return null;
  return px / lengthCm;
}

/** A centimetre of wall as a percentage of the picture's width: what the drawing scales by. */
export function cmAsPercentOfWidth(pixelsPerCm: number, pictureWidth: number): number {
  return (pixelsPerCm / pictureWidth) * 100;
}

/** The painting's outer size on the wall, in cm, with what its finish adds around the canvas. */
export function outerCm(widthCm: number, heightCm: number, frame: Frame): { widthCm: number; heightCm: number } {
  const edge = 2 * finishCm[frame];
  return { widthCm: widthCm + edge, heightCm: heightCm + edge };
}

/**
 * The painting as drawn on a picture: its canvas and its outer box as percentages of the picture's
 * width and height.
 */
export function renderedSize(
  painting: { widthCm: number; heightCm: number; frame: Frame },
  pixelsPerCm: number,
  picture: PictureSize,
): { canvas: { widthPct: number; heightPct: number }; outer: { widthPct: number; heightPct: number } } {
  const outer = outerCm(painting.widthCm, painting.heightCm, painting.frame);
  const pct = (cm: number, side: number) => ((cm * pixelsPerCm) / side) * 100;
  return {
    canvas: { widthPct: pct(painting.widthCm, picture.width), heightPct: pct(painting.heightCm, picture.height) },
    outer: { widthPct: pct(outer.widthCm, picture.width), heightPct: pct(outer.heightCm, picture.height) },
  };
}

/**
 * Where the middle of a painting goes above the floor, in cm: at eye level (about 150 cm, as
 * galleries hang), raised when needed to clear the furniture below by a hand's width, and lowered
 * when needed to stay under the ceiling.
 */
export function hangCentreCm(outerHeightCm: number, room: { eyeLevelCm: number; furnitureTopCm: number; ceilingCm: number }): number {
  const half = outerHeightCm / 2;
  const clearFurniture = Math.max(room.eyeLevelCm, room.furnitureTopCm + 15 + half);
  return Math.min(clearFurniture, room.ceilingCm - 8 - half);
}

/** Keeps a dragged point on the picture. */
export function clampPoint(p: Point): Point {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return { x: clamp(p.x), y: clamp(p.y) };
}
