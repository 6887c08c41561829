import { describe, expect, test } from 'vitest';
import { operations as routes } from '@/server/api/rest';
import { reproduction } from '../support/orders';
import { STAFF } from '../support/photos';
import { rest } from '../support/rest';
import { expectError } from '../support/staff';

/**
 * decisions.md "Limits and inputs": a string holding U+0000 anywhere (body, query or path) is 400
 * invalid_input on every operation. Every /v1 operation of the route table is tried, with the staff
 * token so that staff operations get as far as their input.
 */

const fill = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);
const headers = { ...STAFF };

describe('U+0000 in a request', () => {
  test.each(routes.map((route) => [route.method, route.path] as const))('%s %s: in the query', async (method, path) => {
    const answer = await rest(method, fill(path, 'ABC'), { query: { note: 'a\u0000b' }, headers, json: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined });
    expectError(answer, 400, 'invalid_input');
    expect(answer.body.error.message).toMatch(/U\+0000/);
  });

  test.each(routes.filter((route) => route.path.includes('{')).map((route) => [route.method, route.path] as const))('%s %s: in the path', async (method, path) => {
    const answer = await rest(method, fill(path, 'AB%00C'), { headers, json: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined });
    expectError(answer, 400, 'invalid_input');
  });

  test.each(routes.filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method) && route.by === 'procedure').map((route) => [route.method, route.path] as const))(
    '%s %s: in a JSON body, in any field, even one the operation ignores',
    async (method, path) => {
      const answer = await rest(method, fill(path, 'ABC'), { headers, json: { ignoredField: 'a\u0000b', nested: [{ x: 'fine' }] } });
      expectError(answer, 400, 'invalid_input');
    },
  );

  test('a valid order with a NUL in its notes or its name is refused, and the same order without it is taken', async () => {
    expectError(await rest('POST', '/orders', { json: reproduction({ notes: 'Please\u0000 hang it' }) }), 400, 'invalid_input');
    expectError(await rest('POST', '/orders', { json: { ...reproduction(), customer: { ...reproduction().customer, name: 'Ada\u0000' } } }), 400, 'invalid_input');
    expectError(await rest('GET', '/artworks', { query: { q: 'starry\u0000' } }), 400, 'invalid_input');
    expect((await rest('POST', '/orders', { json: reproduction({ notes: 'Please hang it' }) })).status).toBe(201);
  });

  test('the website tRPC endpoint holds the same rule', async () => {
    const { GET } = await import('@/app/api/trpc/[trpc]/route');
    const input = encodeURIComponent(JSON.stringify({ code: 'ZZZZZZZZZZ', email: 'a\u0000@b.example' }));
    const answer = await GET(new Request(`http://shop.test/api/trpc/orders.byCode?input=${input}`));
    expect(answer.status).toBe(400);
    expect((await answer.json()).error.data.code).toBe('BAD_REQUEST');
  });
});
