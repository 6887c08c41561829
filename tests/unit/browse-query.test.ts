import { describe, expect, it } from 'vitest';
import { pageCount, pageParam, param } from '@/components/browse/params';
import { gridQuery, without } from '@/components/browse/query';

describe('the artworks grid reads its address safely', () => {
  it('takes the first value of a parameter, trimmed, and treats empty as absent', () => {
    expect(param({ q: '  Sternennacht ' }, 'q')).toBe('Sternennacht');
    expect(param({ q: ['a', 'b'] }, 'q')).toBe('a');
    expect(param({ q: '   ' }, 'q')).toBeUndefined();
    expect(param({}, 'q')).toBeUndefined();
  });

  it('shows the first page for a page number a shopper mistyped', () => {
    expect(pageParam({ page: '3' })).toBe(3);
    for (const page of ['0', '-2', 'abc', '1.5', '99999999', '']) expect(pageParam({ page })).toBe(1);
    expect(pageCount(0)).toBe(1);
    expect(pageCount(49)).toBe(2);
  });

  it('keeps words and filters, drops empty fields a plain GET form sends, and never passes text the procedure refuses', () => {
    expect(gridQuery({ q: 'nacht', artist: '', movement: 'Post-Impressionism', museum: undefined, page: '2' })).toEqual({
      q: 'nacht',
      movement: 'post-impressionism',
    });
    expect(gridQuery({ q: `a\u0000b${'x'.repeat(300)}` }).q).toHaveLength(200);
    expect(gridQuery({ q: '\u0000' })).toEqual({});
  });

  it('removes one filter or several from the query, keeping the rest', () => {
    const query = { q: 'nacht', movement: 'realism', museum: 'louvre' };
    expect(without(query, 'movement')).toEqual({ q: 'nacht', museum: 'louvre' });
    expect(without(query, 'movement', 'museum')).toEqual({ q: 'nacht' });
    expect(without(query, 'q')).toEqual({ movement: 'realism', museum: 'louvre' });
  });
});
