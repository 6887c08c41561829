import { canvasOf, orientationOf, type Orientation, type Size } from '@/shared/canvas';

export { sidesOf } from '@/shared/canvas';

/**
 * The canvas for a size, turned the way the painting hangs: by the order's orientation when it is
 * known, otherwise by the work's or photo's proportions (`ratio` = width / height; > 1 is landscape).
 */
export function canvasCm(size: Size, turn?: number | Orientation | null): { widthCm: number; heightCm: number } {
  const orientation = typeof turn === 'string' ? turn : turn != null ? orientationOf(turn, 1) : 'portrait';
  return canvasOf(size, orientation);
}
