import { describe, expect, test } from 'vitest';
import { newOrderCode } from '@/server/orders/code';
import { normalizeOrderCode } from '@/shared/orders';
import { priceOf } from '@/shared/prices';

describe('order codes', () => {
  test('are 10 Crockford base32 characters, never I, L, O or U, and do not repeat', () => {
    const codes = new Set(Array.from({ length: 5000 }, newOrderCode));
    expect(codes.size).toBe(5000);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
  });

  test('a typed code is read in any case, with look-alike letters folded', () => {
    expect(normalizeOrderCode(' 7hk2m9qx0a ')).toBe('7HK2M9QX0A');
    expect(normalizeOrderCode('7hk2m9qxoa')).toBe('7HK2M9QX0A');
    expect(normalizeOrderCode('il')).toBe('11');
  });
});

describe('the price table', () => {
  test('reproductions: base price plus the frame', () => {
    expect(priceOf({ kind: 'reproduction', size: '30x40', frame: 'rolled' })).toBe(12900);
    expect(priceOf({ kind: 'reproduction', size: '60x90', frame: 'stretched' })).toBe(25900 + 7900);
    expect(priceOf({ kind: 'reproduction', size: '90x120', frame: 'framed' })).toBe(38900 + 29900);
  });

  test('custom paintings: 1.5 times, plus 4000 per subject beyond the first, rounded to whole cents', () => {
    expect(priceOf({ kind: 'custom', size: '30x40', frame: 'rolled', subjects: 1 })).toBe(19350);
    expect(priceOf({ kind: 'custom', size: '30x40', frame: 'stretched', subjects: 8 })).toBe(Math.round(16800 * 1.5) + 7 * 4000);
  });
});
