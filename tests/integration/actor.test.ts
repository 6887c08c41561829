import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { askedOnce, type Actor } from '@/server/api/actor';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { createPartnerKey, revokePartnerKey } from '@/server/partners/service';
import { newStaffSession, staffCookieName } from '@/server/staff/session';
import { staffContext } from '@/server/staff/handlers';
import { STAFF } from '../support/photos';
import type { RequestHead } from '@/server/http/answers';

/** A signed-in customer: a user and a live session row, and the cookie that names it. */
async function customerCookie(): Promise<{ cookie: string; userId: string }> {
  const user = await db().user.create({ data: { email: `actor-${randomBytes(6).toString('hex')}@example.com`, name: 'Ada' } });
  const sessionToken = randomBytes(32).toString('hex');
  await db().session.create({ data: { sessionToken, userId: user.id, expires: new Date(Date.now() + 3_600_000) } });
  return { cookie: `next-auth.session-token=${sessionToken}`, userId: user.id };
}

const request = (headers: Record<string, string> = {}, method = 'GET') => new Request('http://shop.test/v1/account/me', { method, headers });
const actorOf = (req: Request) => createContext({ req }).actor();

describe('who is asking, on /v1 and the website tRPC', () => {
  test('the staff token is the staff; a partner key its partner; a live session cookie is that customer; nothing is anonymous', async () => {
    const { cookie, userId } = await customerCookie();
    expect(await actorOf(request(STAFF))).toEqual({ kind: 'staff', via: 'token' });
    const { key, partner } = await createPartnerKey(db(), { name: 'Print partner', ordersPerHour: 300 });
    expect(await actorOf(request({ authorization: `Bearer ${key}` }))).toEqual({
      kind: 'partner',
      partner: { id: partner.id, name: 'Print partner', ordersPerHour: 300, uploadsPerHour: 100 },
    });
    // An explicit credential wins over the cookie a browser adds.
    expect(await actorOf(request({ authorization: `Bearer ${key}`, cookie }))).toMatchObject({ kind: 'partner' });
    expect(await actorOf(request({ cookie }))).toMatchObject({ kind: 'customer', user: { id: userId } });
    expect(await actorOf(request({ cookie: `next-auth.session-token=${'f'.repeat(64)}` }))).toEqual({ kind: 'anonymous' });
    expect(await actorOf(request())).toEqual({ kind: 'anonymous' });
    // Server components act for nobody in particular.
    expect(await createContext().actor()).toEqual({ kind: 'anonymous' });
  });

  test('a credential that names nobody is refused (401), never anonymous: a wrong token, an unknown or revoked key', async () => {
    const { key, partner } = await createPartnerKey(db(), { name: 'Soon revoked' });
    await revokePartnerKey(db(), partner.id);
    for (const authorization of ['Bearer wrong-token', `Bearer ${key}`, `Bearer pk_live_${'0'.repeat(43)}`, 'Basic dXNlcjpwYXNz']) {
      await expect(actorOf(request({ authorization })), authorization).rejects.toMatchObject({ code: 'unauthorized' });
    }
  });

  test('is found once per request, and only when a procedure asks', async () => {
    let found = 0;
    const ask = askedOnce(async (): Promise<Actor> => {
      found++;
      return { kind: 'anonymous' };
    });
    await Promise.all([ask(), ask(), ask()]);
    expect(found).toBe(1);

    // A public catalog read without credentials never asks: a transport that cannot tell who is asking still answers it.
    const unanswerable = ({ req }: { req: RequestHead }) => createContext({ req, actor: () => Promise.reject(new Error('nobody should ask')) });
    const read = await handleRest(new Request('http://shop.test/v1/artworks?page=1'), unanswerable);
    expect(read.status).toBe(200);
    // With an Authorization header it does, whatever the operation: a key that names nobody must be 401.
    expect((await handleRest(new Request('http://shop.test/v1/artworks?page=1', { headers: STAFF }), unanswerable)).status).toBe(500);
    // A staff operation does ask.
    expect((await handleRest(new Request('http://shop.test/v1/admin/seo/stats', { headers: STAFF }), unanswerable)).status).toBe(500);
  });

  test('the customer procedures take the customer, and refuse staff and anonymous callers alike', async () => {
    const { cookie } = await customerCookie();
    const favorites = (headers: Record<string, string>) => handleRest(new Request('http://shop.test/v1/account/favorites', { headers }));
    expect((await favorites({ cookie })).status).toBe(200);
    expect((await favorites(STAFF)).status).toBe(401);
    expect((await favorites({})).status).toBe(401);
    const me = await handleRest(new Request('http://shop.test/v1/account/me', { headers: { cookie } }));
    expect((await me.json()).user).toMatchObject({ name: 'Ada' });
  });
});

describe('who is asking, under /staff', () => {
  const dashboardRequest = (cookie: string | undefined, method = 'GET', origin?: string) =>
    new Request('http://shop.test/staff/api/trpc/board', { method, headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin, host: 'shop.test' } : {}) } });

  test('a live dashboard session is the staff, with no token in the request (no Authorization header made up)', async () => {
    const session = await newStaffSession(db(), env().ADMIN_TOKEN!);
    const cookie = `${staffCookieName(false)}=${session.value}`;
    const context = staffContext(dashboardRequest(cookie), new Headers());
    expect(await context.actor()).toEqual({ kind: 'staff', via: 'dashboard' });
    expect(context.req?.headers.get('authorization')).toBeNull();
    // A write must come from this site, or the cookie counts for nothing.
    expect(await staffContext(dashboardRequest(cookie, 'POST', 'https://elsewhere.example'), new Headers()).actor()).toEqual({ kind: 'anonymous' });
    expect(await staffContext(dashboardRequest(cookie, 'POST', 'http://shop.test'), new Headers()).actor()).toEqual({ kind: 'staff', via: 'dashboard' });
    // The dashboard takes no staff token: its only credential is its cookie.
    expect(await staffContext(dashboardRequest(undefined), new Headers()).actor()).toEqual({ kind: 'anonymous' });
    expect(await staffContext(new Request('http://shop.test/staff/api/trpc/board', { headers: STAFF }), new Headers()).actor()).toEqual({ kind: 'anonymous' });
  });
});

test('the procedure builders import no integration (the transports build them into the context)', () => {
  const source = readFileSync(new URL('../../src/server/api/trpc.ts', import.meta.url), 'utf8');
  expect(source).not.toMatch(/from '@\/server\/integrations\//);
});
