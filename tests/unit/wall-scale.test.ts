import { describe, expect, it } from 'vitest';
import { rooms, unitsPerCm } from '@/components/wall-preview/rooms';
import { cmAsPercentOfWidth, clampPoint, hangCentreCm, markedLengthPx, outerCm, pxPerCm, renderedSize } from '@/components/wall-preview/wall-scale';

const photo = { width: 1200, height: 800 };

describe('the scale of a wall photo', () => {
  it('measures the marked line in the photo’s own pixels, whatever its direction', () => {
    expect(markedLengthPx({ x: 0.25, y: 0.5 }, { x: 0.75, y: 0.5 }, photo)).toBe(600);
    expect(markedLengthPx({ x: 0.5, y: 0.25 }, { x: 0.5, y: 0.75 }, photo)).toBe(400);
    expect(markedLengthPx({ x: 0, y: 0 }, { x: 0.25, y: 0.375 }, photo)).toBeCloseTo(Math.hypot(300, 300));
  });

  it('gives pixels per centimetre from the line and the typed length', () => {
    // A door 80 cm wide marked across 360 px: 4.5 px a centimetre.
    expect(pxPerCm({ x: 0.3, y: 0.8 }, { x: 0.6, y: 0.8 }, photo, 80)).toBeCloseTo(4.5);
    expect(pxPerCm({ x: 0.3, y: 0.8 }, { x: 0.6, y: 0.8 }, photo, 160)).toBeCloseTo(2.25);
  });

  it('has no scale without a length or a line', () => {
    expect(pxPerCm({ x: 0.3, y: 0.8 }, { x: 0.6, y: 0.8 }, photo, 0)).toBeNull();
    expect(pxPerCm({ x: 0.3, y: 0.8 }, { x: 0.6, y: 0.8 }, photo, Number.NaN)).toBeNull();
    expect(pxPerCm({ x: 0.3, y: 0.8 }, { x: 0.3, y: 0.8 }, photo, 80)).toBeNull();
  });

  it('turns a centimetre into a share of the picture’s width', () => {
    expect(cmAsPercentOfWidth(4.5, 1200)).toBeCloseTo(0.375);
  });
});

describe('the painting as drawn', () => {
  it('keeps the canvas at true scale and adds what the finish adds around it', () => {
    expect(outerCm(50, 70, 'stretched')).toEqual({ widthCm: 50, heightCm: 70 });
    expect(outerCm(50, 70, 'framed')).toEqual({ widthCm: 60, heightCm: 80 });
    expect(outerCm(50, 70, 'rolled')).toEqual({ widthCm: 56, heightCm: 76 });
    const drawn = renderedSize({ widthCm: 50, heightCm: 70, frame: 'framed' }, 4.5, photo);
    expect(drawn.canvas.widthPct).toBeCloseTo((50 * 4.5 * 100) / 1200);
    expect(drawn.canvas.heightPct).toBeCloseTo((70 * 4.5 * 100) / 800);
    expect(drawn.outer.widthPct).toBeCloseTo((60 * 4.5 * 100) / 1200);
  });

  it('scales in proportion to the size ordered', () => {
    const small = renderedSize({ widthCm: 30, heightCm: 40, frame: 'stretched' }, 3, photo);
    const large = renderedSize({ widthCm: 90, heightCm: 120, frame: 'stretched' }, 3, photo);
    expect(large.canvas.widthPct / small.canvas.widthPct).toBeCloseTo(3);
  });
});

describe('the rooms', () => {
  it('are drawn at 4 SVG units a centimetre: 400 cm of wall across 1600 units', () => {
    for (const room of Object.values(rooms)) expect(unitsPerCm(room)).toBe(4);
  });

  it('hang a painting at eye level, above the furniture and below the ceiling', () => {
    const living = rooms.living;
    expect(hangCentreCm(40, living)).toBe(150);
    // 100 cm high over a sofa 86 cm high: raised so its foot clears the sofa by 15 cm.
    expect(hangCentreCm(100, living)).toBe(86 + 15 + 50);
    // Never through the ceiling: the largest framed canvas (130 cm) stops 8 cm below it.
    expect(hangCentreCm(130, living)).toBe(230 - 8 - 65);
  });

  it('keep dragged points on the picture', () => {
    expect(clampPoint({ x: -0.2, y: 1.4 })).toEqual({ x: 0, y: 1 });
  });
});
