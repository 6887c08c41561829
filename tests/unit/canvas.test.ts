import { describe, expect, it } from 'vitest';
import { canvasOf, fitOf, proportionGap } from '@/shared/canvas';

// Wheatfield with Crows: 103 × 50.5 cm, about 2.04 : 1.
const wheatfield = 103 / 50.5;

describe('fitOf: how a work meets its canvas', () => {
  it('whole: a wide work sits across the full width of a 70 × 50 canvas, background added above and below', () => {
    const canvas = canvasOf('50x70', 'landscape');
    const { boxRatio, picture, share } = fitOf(wheatfield, canvas, 'whole');
    expect(boxRatio).toBeCloseTo(70 / 50);
    expect(picture.width).toBe(1);
    expect(picture.left).toBe(0);
    expect(picture.height).toBeCloseTo(1.4 / wheatfield);
    expect(picture.top).toBeCloseTo((1 - 1.4 / wheatfield) / 2);
    expect(share).toBeCloseTo(1 - 1.4 / wheatfield);
  });

  it('crop: the same canvas keeps a centred band of the work, its two ends cut off', () => {
    const canvas = canvasOf('50x70', 'landscape');
    const { boxRatio, picture, share } = fitOf(wheatfield, canvas, 'crop');
    expect(boxRatio).toBeCloseTo(wheatfield);
    expect(picture.height).toBe(1);
    expect(picture.width).toBeCloseTo(1.4 / wheatfield);
    expect(picture.left + picture.width / 2).toBeCloseTo(0.5);
    expect(share).toBeCloseTo(1 - 1.4 / wheatfield);
  });

  it('a tall work on a wider canvas: whole adds at the sides, crop cuts top and bottom', () => {
    const canvas = canvasOf('90x120', 'portrait'); // 0.75
    const work = 0.6;
    const whole = fitOf(work, canvas, 'whole');
    expect(whole.picture).toMatchObject({ top: 0, height: 1 });
    expect(whole.picture.width).toBeCloseTo(0.8);
    const crop = fitOf(work, canvas, 'crop');
    expect(crop.picture).toMatchObject({ left: 0, width: 1 });
    expect(crop.picture.height).toBeCloseTo(0.8);
  });

  it("a work of the canvas's own proportions fills it either way, nothing added or lost", () => {
    const canvas = canvasOf('30x40', 'portrait');
    for (const fit of ['whole', 'crop'] as const) {
      const { picture, share } = fitOf(0.75, canvas, fit);
      expect(picture).toEqual({ left: 0, top: 0, width: 1, height: 1 });
      expect(share).toBe(0);
    }
    expect(proportionGap(0.75, canvas)).toBe(0);
  });
});
