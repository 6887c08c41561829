import { describe, expect, test } from 'vitest';
import { MAX_FORM_BODY_BYTES, MAX_TRPC_BODY_BYTES } from '@/server/api/body';
import { MAX_WEBHOOK_BYTES } from '@/server/payments/handler';
import { rest } from '../support/rest';

const SITE = 'http://shop.test';

/**
 * A body that never ends, pulled in 16 KiB chunks: a handler that buffered before counting would
 * hang here; one that stops at the limit has pulled little more than the limit and cancelled.
 */
function endless() {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += 16 * 1024;
      controller.enqueue(new Uint8Array(16 * 1024).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const post = (url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { origin: SITE, ...headers }, body, duplex: 'half' } as RequestInit);

async function expectTooLarge(answer: Response) {
  expect(answer.status).toBe(413);
  const body = await answer.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toBe('payload_too_large');
}

const routes = {
  trpc: async () => (await import('@/app/api/trpc/[trpc]/route')).POST,
  staffTrpc: async () => (await import('@/app/staff/api/trpc/[trpc]/route')).POST,
  signIn: async () => (await import('@/app/staff/api/sign-in/route')).POST,
  signOut: async () => (await import('@/app/staff/api/sign-out/route')).POST,
  nextAuth: async () => (await import('@/app/api/auth/[...nextauth]/route')).POST,
};

describe('body limits', () => {
  test("the storefront's tRPC: a body just under the limit is read, one over it is 413", async () => {
    const POST = await routes.trpc();
    const padded = (size: number) => JSON.stringify({ code: 'ZZZZZZZZZZ', email: 'a@b.example', pad: 'x'.repeat(size) });
    const fits = await POST(post(`${SITE}/api/trpc/orders.create`, padded(MAX_TRPC_BODY_BYTES - 200), { 'content-type': 'application/json' }));
    expect(fits.status).toBe(400);
    await expectTooLarge(await POST(post(`${SITE}/api/trpc/orders.create`, padded(MAX_TRPC_BODY_BYTES), { 'content-type': 'application/json' })));
  });

  test.each(['trpc', 'staffTrpc', 'signIn', 'signOut'] as const)('%s stops reading an endless body at the limit (no Content-Length)', async (name) => {
    const POST = await routes[name]();
    const { stream, state } = endless();
    const path = { trpc: '/api/trpc/orders.create', staffTrpc: '/staff/api/trpc/orders.change', signIn: '/staff/api/sign-in', signOut: '/staff/api/sign-out' }[name];
    const type = name.endsWith('rpc') ? 'application/json' : 'application/x-www-form-urlencoded';
    await expectTooLarge(await (POST as (request: Request) => Promise<Response>)(post(`${SITE}${path}`, stream, { 'content-type': type })));
    const limit = name.endsWith('rpc') ? MAX_TRPC_BODY_BYTES : MAX_FORM_BODY_BYTES;
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(limit + 3 * 16 * 1024);
  });

  test('a declared Content-Length over the limit is refused before any byte is read', async () => {
    const POST = await routes.signIn();
    const { stream, state } = endless();
    await expectTooLarge(
      await POST(post(`${SITE}/staff/api/sign-in`, stream, { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(MAX_FORM_BODY_BYTES + 1) })),
    );
    expect(state.pulled).toBeLessThanOrEqual(16 * 1024);
  });

  test("NextAuth's posts", async () => {
    const POST = await routes.nextAuth();
    const { stream, state } = endless();
    const context = { params: Promise.resolve({ nextauth: ['signin', 'google'] }) };
    await expectTooLarge(await POST(post(`${SITE}/api/auth/signin/google`, stream, { 'content-type': 'application/x-www-form-urlencoded' }) as never, context));
    expect(state.cancelled).toBe(true);
  });

  test('the staff sign-in still works with an ordinary form under the limit', async () => {
    const POST = await routes.signIn();
    const answer = await POST(post(`${SITE}/staff/api/sign-in`, new URLSearchParams({ token: 'test-staff-token-5c1f0e', locale: 'en' })));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('set-cookie')).toMatch(/^atelier-staff=/);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  test('the Stripe webhook (512 KiB: events carry line items and metadata) and /v1 JSON (64 KiB) keep theirs', async () => {
    expect(MAX_WEBHOOK_BYTES).toBe(512 * 1024);
    const webhook = await rest('POST', '/payments/stripe-webhook', { body: 'x'.repeat(MAX_WEBHOOK_BYTES + 1), headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(webhook.status).toBe(413);
    const order = await rest('POST', '/orders', { body: JSON.stringify({ notes: 'x'.repeat(64 * 1024) }), headers: { 'content-type': 'application/json' } });
    expect(order.status).toBe(413);
  });
});
