import { describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { websiteTrpc } from '@/server/api/website-trpc';
import type { Db } from '@/server/db/client';
import { MAX_TRPC_BATCH } from '@/shared/trpc-batch';

/**
 * The website's /api/trpc as a browser (or anyone) reaches it: what its answers let out (an internal
 * message, a cacheable personal answer) and how much one request may ask for (batch size).
 */

const SITE = 'http://shop.test';
const lookupInput = encodeURIComponent(JSON.stringify({ code: 'ZZZZZZZZZZ', email: 'nobody@example.com' }));

describe('the website tRPC endpoint', () => {
  test('a failure on our side answers INTERNAL_SERVER_ERROR without the database error text', async () => {
    const leak = 'relation "orders" violates check at db.internal.example:5432 password=hunter2';
    const buggy = { order: { findUnique: () => Promise.reject(new Error(leak)), findFirst: () => Promise.reject(new Error(leak)) } } as unknown as Db;
    const answer = await websiteTrpc(new Request(`${SITE}/api/trpc/orders.byCode?input=${lookupInput}`), (options) => createContext({ ...options, db: buggy }));
    expect(answer.status).toBe(500);
    const text = await answer.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('relation');
    expect(text).not.toContain('db.internal');
    expect(JSON.parse(text).error).toMatchObject({ message: expect.stringMatching(/^Something went wrong on our side/), data: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  test('a refusal keeps its own message (the forms show it)', async () => {
    const answer = await websiteTrpc(new Request(`${SITE}/api/trpc/orders.byCode?input=${lookupInput}`));
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.data.code).toBe('NOT_FOUND');
  });

  test('personal answers are never cached (Cache-Control: private, no-store); public catalog reads are left alone', async () => {
    const lookup = await websiteTrpc(new Request(`${SITE}/api/trpc/orders.byCode?input=${lookupInput}`));
    expect(lookup.headers.get('cache-control')).toBe('private, no-store');
    const me = await websiteTrpc(new Request(`${SITE}/api/trpc/account.me?input=%7B%7D`));
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('private, no-store');
    // A batch mixing a catalog read with a personal answer is personal.
    const mixed = await websiteTrpc(new Request(`${SITE}/api/trpc/catalog.artists,account.me?batch=1&input=${encodeURIComponent(JSON.stringify({ 0: {}, 1: {} }))}`));
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('cache-control')).toBe('private, no-store');
    const catalog = await websiteTrpc(new Request(`${SITE}/api/trpc/catalog.artists?input=${encodeURIComponent('{}')}`));
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('cache-control')).toBeNull();
  });

  test(`a batch of more than ${MAX_TRPC_BATCH} calls is refused with 400 before any runs`, async () => {
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => 'catalog.artists').join(',');
      const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [i, {}]));
      return websiteTrpc(new Request(`${SITE}/api/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`));
    };
    expect((await batch(MAX_TRPC_BATCH)).status).toBe(200);
    const refused = await batch(MAX_TRPC_BATCH + 1);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
  });
});
