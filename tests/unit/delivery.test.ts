import { describe, expect, test } from 'vitest';
import { sizes } from '@/shared/canvas';
import { addWorkingDays, deliveryTable, deliveryWindow } from '@/shared/delivery';

// 2026-11-23 is a Monday.
const monday = new Date('2026-11-23T09:30:00Z');

describe('delivery estimates', () => {
  test('working days skip Saturday and Sunday; a weekend start counts from Monday', () => {
    expect(addWorkingDays(monday, 5).toISOString().slice(0, 10)).toBe('2026-11-30');
    expect(addWorkingDays(new Date('2026-11-27T18:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-30'); // Friday → Monday
    expect(addWorkingDays(new Date('2026-11-28T10:00:00Z'), 1).toISOString().slice(0, 10)).toBe('2026-11-30'); // Saturday → Monday
    expect(addWorkingDays(new Date('2026-11-29T10:00:00Z'), 2).toISOString().slice(0, 10)).toBe('2026-12-01'); // Sunday → Tuesday
  });

  test('a 50x70 reproduction ordered on a Monday: 10 working days painting, 5 days drying, 3 to 7 working days shipping', () => {
    // Painted by Mon 7 Dec, dry by Sat 12 Dec, at the door between Wed 16 Dec and Tue 22 Dec.
    expect(deliveryWindow({ kind: 'reproduction', size: '50x70' }, monday)).toEqual({ earliest: '2026-12-16', latest: '2026-12-22' });
  });

  test('larger sizes take longer, and a custom painting adds the sketch step', () => {
    const days = (window: { earliest: string } | null) => Date.parse(window!.earliest) / 86_400_000;
    const earliest = sizes.map((size) => days(deliveryWindow({ kind: 'reproduction', size }, monday)));
    expect([...earliest].sort((a, b) => a - b)).toEqual(earliest);
    expect(new Set(earliest).size).toBe(sizes.length);
    const custom = deliveryWindow({ kind: 'custom', size: '50x70' }, monday)!;
    // Sketch approved by Thu 26 Nov, painted by Thu 10 Dec, dry by Tue 15 Dec, at the door Fri 18 to Thu 24 Dec.
    expect(custom).toEqual({ earliest: '2026-12-18', latest: '2026-12-24' });
    expect(deliveryTable.sketchDays).toBe(3);
  });

  test('each change asked to the sketch is a sketch more: three working days later per request, until painting starts', () => {
    const first = deliveryWindow({ kind: 'custom', size: '50x70' }, monday, 'sketching')!;
    const revised = deliveryWindow({ kind: 'custom', size: '50x70', sketchRevisions: 1 }, monday, 'sketching')!;
    const twice = deliveryWindow({ kind: 'custom', size: '50x70', sketchRevisions: 2 }, monday, 'sketching')!;
    // The first sketch by Thu 26 Nov; a second by Tue 1 Dec, a third by Fri 4 Dec: each moves the door by 3 working days.
    expect(first).toEqual({ earliest: '2026-12-18', latest: '2026-12-24' });
    expect(revised).toEqual({ earliest: '2026-12-23', latest: '2026-12-29' });
    expect(twice).toEqual({ earliest: '2026-12-28', latest: '2027-01-01' });
    // Once painting has started the sketch is behind it.
    expect(deliveryWindow({ kind: 'custom', size: '50x70', sketchRevisions: 2 }, monday, 'painting')).toEqual(
      deliveryWindow({ kind: 'custom', size: '50x70' }, monday, 'painting'),
    );
  });

  test('the order page moves the range as the order moves, and has none once delivered or cancelled', () => {
    const painting = deliveryWindow({ kind: 'custom', size: '30x40' }, monday, 'painting')!;
    const drying = deliveryWindow({ kind: 'custom', size: '30x40' }, monday, 'drying')!;
    const shipped = deliveryWindow({ kind: 'custom', size: '30x40' }, monday, 'shipped')!;
    expect(shipped).toEqual({ earliest: '2026-11-26', latest: '2026-12-02' });
    expect(drying.earliest > shipped.earliest && painting.earliest > drying.earliest).toBe(true);
    // A reproduction in sketching (skipped by staff) has no sketch to wait for.
    expect(deliveryWindow({ kind: 'reproduction', size: '30x40' }, monday, 'sketching')).toEqual(deliveryWindow({ kind: 'reproduction', size: '30x40' }, monday, 'paid'));
    expect(deliveryWindow({ kind: 'custom', size: '30x40' }, monday, 'delivered')).toBeNull();
    expect(deliveryWindow({ kind: 'custom', size: '30x40' }, monday, 'cancelled')).toBeNull();
  });
});
