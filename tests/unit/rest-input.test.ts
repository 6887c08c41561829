import { expect, test } from 'vitest';
import { inputPlan, type DocumentedParameter } from '@/server/api/input';

const parameters: DocumentedParameter[] = [
  { name: 'page', in: 'query', schema: { type: 'integer' } },
  { name: 'price', in: 'query', schema: { anyOf: [{ type: 'number' }, { type: 'null' }] } },
  { name: 'framed', in: 'query', schema: { type: 'boolean' } },
  { name: 'sizes', in: 'query', schema: { type: 'array', items: { $ref: '#/components/schemas/Size' } } },
  { name: 'ids', in: 'query', schema: { type: 'array', items: { type: 'integer' } } },
  { name: 'featured', in: 'query', schema: { type: 'string', const: '1' } },
  { name: 'chunk', in: 'path', schema: { type: 'integer' } },
  { name: 'code', in: 'path', schema: { type: 'string' } },
];
const plan = inputPlan(parameters, { Size: { type: 'string' } });
const address = (query: string) => new URL(`http://shop.test/v1/x?${query}`);

test('query numbers and booleans become what the document says; other text stays text', () => {
  expect(plan.fromAddress(address('page=2&price=1.5&framed=false&featured=1&q=7'), {})).toEqual({ page: 2, price: 1.5, framed: false, featured: '1', q: '7' });
  expect(plan.fromAddress(address('framed=true'), {}).framed).toBe(true);
  // Not a yes or no: left for the schema to refuse.
  expect(plan.fromAddress(address('framed=yes'), {}).framed).toBe('yes');
});

test('numbers are coerced as Zod coerces them: an empty value is 0 and a repeated one NaN (the schema refuses both)', () => {
  expect(plan.fromAddress(address('page='), {}).page).toBe(0);
  expect(plan.fromAddress(address('page=1&page=2'), {}).page).toBeNaN();
  expect(plan.fromAddress(address('page=abc'), {}).page).toBeNaN();
});

test('a list parameter given once is a list of one; its items are coerced too', () => {
  expect(plan.fromAddress(address('sizes=30x40'), {}).sizes).toEqual(['30x40']);
  expect(plan.fromAddress(address('sizes=30x40&sizes=50x70'), {}).sizes).toEqual(['30x40', '50x70']);
  expect(plan.fromAddress(address('ids=3&ids=4'), {}).ids).toEqual([3, 4]);
  // Any other key given twice is a list, for the schema to refuse.
  expect(plan.fromAddress(address('q=a&q=b'), {}).q).toEqual(['a', 'b']);
});

test('path parameters win over the query and stay as written in the address, coerced where numbers', () => {
  expect(plan.fromAddress(address('code=other&chunk=9'), { code: 'A%20B', chunk: '3' })).toEqual({ code: 'A%20B', chunk: 3 });
});

test('a JSON body keeps its types; only path parameters are added over it', () => {
  expect(plan.fromBody({ page: '7', framed: 'true', note: 'x' }, { code: 'AB' })).toEqual({ page: '7', framed: 'true', note: 'x', code: 'AB' });
  expect(plan.fromBody(null, { code: 'AB' })).toEqual({ code: 'AB' });
});
