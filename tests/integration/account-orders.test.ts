import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { accountOwnsOrder, ordersOfAccount, ownedOrderEmail } from '@/server/accounts/orders';
import { newSessionToken } from '@/server/accounts/session';
import { db } from '@/server/db/client';
import { reproduction, custom } from '../support/orders';
import { startLocalIssuer, useLocalIssuer } from '../support/google';
import { rest } from '../support/rest';

/** "My orders" (decisions.md "An account that remembers"): GET /v1/account/orders and the ownership rule behind it. */

const issuer = await startLocalIssuer();
useLocalIssuer(issuer);
afterAll(() => issuer.stop());

const COOKIE = 'next-auth.session-token';

/** A Google identity of this test alone (other test files share the database). */
function person(label: string) {
  const id = randomUUID().slice(0, 8);
  return { sub: `g-${label}-${id}`, email: `${label}-${id}@my-orders.test`, name: `Tester ${label}` };
}

async function signIn(who: { sub: string; email: string; name?: string }) {
  const answer = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(who) } });
  expect(answer.status).toBe(200);
  const set = answer.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!;
  const token = set.slice(COOKIE.length + 1).split(';')[0]!;
  return { userId: answer.body.user.id as string, headers: { cookie: `${COOKIE}=${token}` } };
}

/** An account whose e-mail nobody verified (made by hand: Google sign-in always verifies it), with a live session. */
async function unverifiedAccount(email: string) {
  const user = await db().user.create({ data: { email, emailVerified: null, name: 'Unverified' } });
  const session = await db().session.create({ data: { userId: user.id, sessionToken: newSessionToken(), expires: new Date(Date.now() + 3600_000) } });
  return { userId: user.id, headers: { cookie: `${COOKIE}=${session.sessionToken}` } };
}

async function placeOrder(email: string, headers?: Record<string, string>, body?: Record<string, unknown>): Promise<string> {
  const order = body ?? reproduction();
  const answer = await rest('POST', '/orders', { json: { ...order, customer: { ...(order.customer as object), email } }, headers });
  expect(answer.status).toBe(201);
  return answer.body.code as string;
}

/** Sets when an order was placed, so "newest first" does not hang on the milliseconds between two requests. */
const placedAt = (code: string, at: string) => db().order.update({ where: { code }, data: { createdAt: new Date(at) } });

const codesOf = (answer: { body: { orders: { code: string }[] } }) => answer.body.orders.map((o) => o.code);

describe('GET /v1/account/orders', () => {
  test('the orders of a basket placed signed in are the account’s, each naming its basket', async () => {
    const who = person('basket');
    const bob = await signIn(who);
    const { customer, ...item } = reproduction();
    const answer = await rest('POST', '/checkouts', {
      json: { items: [item, { ...item, size: '30x40' }], customer: { ...customer, email: `gift-${randomUUID().slice(0, 8)}@elsewhere.test` } },
      headers: bob.headers,
    });
    expect(answer.status).toBe(201);
    const listed = await rest('GET', '/account/orders', { headers: bob.headers });
    expect(listed.body.orders.map((o: { code: string; checkout: string }) => [o.code, o.checkout]).sort()).toEqual(
      answer.body.orders.map((o: { code: string }) => [o.code, answer.body.code]).sort(),
    );
  });

  test('signed out, or with a session that does not exist: 401 unauthorized with the error body', async () => {
    for (const headers of [undefined, { cookie: `${COOKIE}=${'0'.repeat(64)}` }]) {
      const answer = await rest('GET', '/account/orders', { headers });
      expect(answer.status).toBe(401);
      expect(Object.keys(answer.body)).toEqual(['error']);
      expect(answer.body.error).toEqual({ code: 'unauthorized', message: expect.any(String) });
    }
  });

  test('lists the orders placed signed in and those under the verified e-mail, newest first, in the contract shape', async () => {
    const who = person('lists');
    const alice = await signIn(who);
    const otherEmail = `gift-${randomUUID().slice(0, 8)}@elsewhere.test`;
    // Signed out, before the account existed or on another device: under her e-mail in another letter case.
    const signedOut = await placeOrder(who.email.toUpperCase());
    // Signed in, for someone else's address: hers because she placed it.
    const signedIn = await placeOrder(otherEmail, alice.headers);
    const painting = await placeOrder(who.email, alice.headers, await custom());
    // Someone else's order, signed out, under another e-mail: not hers.
    const stranger = await placeOrder(`stranger-${randomUUID().slice(0, 8)}@elsewhere.test`);
    await placedAt(signedOut, '2026-11-01T10:00:00.000Z');
    await placedAt(painting, '2026-11-02T10:00:00.000Z');
    await placedAt(signedIn, '2026-11-03T10:00:00.000Z');

    expect((await db().order.findUniqueOrThrow({ where: { code: signedIn } })).userId).toBe(alice.userId);
    expect((await db().order.findUniqueOrThrow({ where: { code: signedOut } })).userId).toBeNull();

    const answer = await rest('GET', '/account/orders', { headers: alice.headers });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['orders']);
    expect(codesOf(answer)).toEqual([signedIn, painting, signedOut]);
    expect(codesOf(answer)).not.toContain(stranger);
    expect(answer.body.orders[0]).toEqual({
      code: signedIn,
      kind: 'reproduction',
      status: 'pending',
      total: 25800,
      createdAt: '2026-11-03T10:00:00.000Z',
      artworkSlug: 'the-starry-night',
      checkout: null,
    });
    expect(answer.body.orders[1]).toMatchObject({ code: painting, kind: 'custom', artworkSlug: null, checkout: null });
  });

  test("the same e-mail proves nothing while the account's e-mail is not verified; another e-mail never", async () => {
    const email = `unverified-${randomUUID().slice(0, 8)}@my-orders.test`;
    const account = await unverifiedAccount(email);
    const underHerEmail = await placeOrder(email);
    const placedByHer = await placeOrder(`other-${randomUUID().slice(0, 8)}@elsewhere.test`, account.headers);
    const answer = await rest('GET', '/account/orders', { headers: account.headers });
    expect(answer.status).toBe(200);
    expect(codesOf(answer)).toEqual([placedByHer]);
    expect(codesOf(answer)).not.toContain(underHerEmail);
  });

  test("another account sees none of them, and an order from another site's page is not linked", async () => {
    const alice = await signIn(person('alice'));
    const bob = await signIn(person('bob'));
    const hers = await placeOrder(`alice-${randomUUID().slice(0, 8)}@elsewhere.test`, alice.headers);
    expect(codesOf(await rest('GET', '/account/orders', { headers: bob.headers }))).toEqual([]);
    expect(codesOf(await rest('GET', '/account/orders', { headers: alice.headers }))).toEqual([hers]);

    // A page of another site posting with the shopper's cookie places an order, but not one of the account's.
    const forged = await placeOrder(`forged-${randomUUID().slice(0, 8)}@elsewhere.test`, { ...bob.headers, origin: 'https://evil.example' });
    expect((await db().order.findUniqueOrThrow({ where: { code: forged } })).userId).toBeNull();
    expect(codesOf(await rest('GET', '/account/orders', { headers: bob.headers }))).toEqual([]);
  });
});

describe('the ownership rule (accountOwnsOrder)', () => {
  test('the owner yes, by the order link or by the verified e-mail; another account no; signed out no', async () => {
    const who = person('owner');
    const owner = await signIn(who);
    const other = await signIn(person('other'));
    const linked = await placeOrder(`someone-${randomUUID().slice(0, 8)}@elsewhere.test`, owner.headers);
    const byEmail = await placeOrder(who.email);

    for (const code of [linked, byEmail, linked.toLowerCase()]) {
      expect(await accountOwnsOrder(db(), owner.userId, code), code).toBe(true);
      expect(await accountOwnsOrder(db(), other.userId, code), code).toBe(false);
      expect(await accountOwnsOrder(db(), null, code), code).toBe(false);
    }
    expect(await accountOwnsOrder(db(), owner.userId, 'NOSUCHCODE')).toBe(false);
    // The order page hands the owner's lookup the order's own e-mail.
    expect(await ownedOrderEmail(db(), owner.userId, byEmail)).toBe(who.email);
    expect(await ownedOrderEmail(db(), other.userId, byEmail)).toBeNull();
  });

  test("an e-mail's `_` is a letter, not a wildcard", async () => {
    const id = randomUUID().slice(0, 8);
    const owner = await signIn({ sub: `g-underscore-${id}`, email: `a_b-${id}@my-orders.test` });
    const lookalike = await placeOrder(`axb-${id}@my-orders.test`);
    expect(await accountOwnsOrder(db(), owner.userId, lookalike)).toBe(false);
    expect((await ordersOfAccount(db(), owner.userId)).orders).toEqual([]);
  });
});
