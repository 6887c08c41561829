import { randomUUID } from 'node:crypto';
import { getServerSession } from 'next-auth';
import { afterAll, describe, expect, test } from 'vitest';
import { authOptions } from '@/server/accounts/nextauth';
import { addFavorite, mergeFavorites } from '@/server/accounts/service';
import { db } from '@/server/db/client';
import { DomainError } from '@/server/errors';
import { verifyGoogleIdToken } from '@/server/integrations/google';
import { startLocalIssuer, TEST_GOOGLE_CLIENT_ID, useLocalIssuer } from '../support/google';
import { rest } from '../support/rest';

// A real local OpenID Connect issuer stands in for Google; the app is pointed at it before it
// first reads its configuration.
const issuer = await startLocalIssuer();
useLocalIssuer(issuer);
afterAll(() => issuer.stop());

const COOKIE = 'next-auth.session-token';
const expectError = (answer: { status: number; body: any }, status: number, code: string) => {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toMatchObject({ code, message: expect.any(String) });
};

/** A Google identity of this test alone (other test files share the database). */
function person(label: string) {
  const id = randomUUID().slice(0, 8);
  return { sub: `g-${label}-${id}`, email: `${label}-${id}@accounts.test`, name: `Tester ${label}` };
}

function cookieFrom(answer: { headers: Headers }): string | null {
  const set = answer.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
  return set ? set.slice(COOKIE.length + 1).split(';')[0]! : null;
}

async function signIn(who: { sub: string; email: string; name?: string }) {
  const answer = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(who) } });
  expect(answer.status).toBe(200);
  const token = cookieFrom(answer);
  expect(token).toBeTruthy();
  return { answer, token: token!, headers: { cookie: `${COOKIE}=${token}` } };
}

async function publishedSlugs(n: number): Promise<string[]> {
  const rows = await db().artwork.findMany({ where: { status: 'published' }, orderBy: { id: 'asc' }, take: n, select: { slug: true } });
  expect(rows.length).toBe(n);
  return rows.map((r) => r.slug);
}

describe('GET /v1/account/config', () => {
  test('names the client id and says sign-in is on', async () => {
    const answer = await rest('GET', '/account/config');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ googleClientId: TEST_GOOGLE_CLIENT_ID, signInEnabled: true });
  });
});

describe('POST /v1/account/auth/google', () => {
  test('a valid ID token signs in: the user is answered, a session row is made and its cookie set', async () => {
    const who = person('valid');
    const { answer, token } = await signIn(who);
    expect(answer.body).toEqual({ user: { id: expect.any(String), email: who.email, name: who.name, image: null } });
    const setCookie = answer.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    const session = await db().session.findUniqueOrThrow({ where: { sessionToken: token } });
    expect(session.userId).toBe(answer.body.user.id);
    expect(session.expires.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    const account = await db().account.findUniqueOrThrow({ where: { provider_providerAccountId: { provider: 'google', providerAccountId: who.sub } } });
    expect(account).toMatchObject({ userId: answer.body.user.id, type: 'oauth' });
  });

  const refusals: [string, (who: ReturnType<typeof person>) => Promise<string>][] = [
    ['a wrong audience', (who) => issuer.idToken(who, (_h, p) => void (p.aud = 'someone-else.apps.googleusercontent.com'))],
    ['a wrong issuer', (who) => issuer.idToken(who, (_h, p) => void (p.iss = 'https://accounts.google.evil'))],
    [
      'an expired token',
      (who) => issuer.idToken(who, (_h, p) => void Object.assign(p, { iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })),
    ],
    ['an unverified e-mail', (who) => issuer.idToken(who, (_h, p) => void (p.email_verified = false))],
    ['a bad signature', (who) => issuer.forgedToken(who)],
    [
      'a tampered payload',
      async (who) => {
        const [h, , s] = (await issuer.idToken(person('other'))).split('.');
        return [h, Buffer.from(JSON.stringify({ ...who, aud: TEST_GOOGLE_CLIENT_ID, iss: issuer.url, email_verified: true, exp: 4e9, iat: 1 })).toString('base64url'), s].join(
          '.',
        );
      },
    ],
    [
      'alg none',
      async (who) => {
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const now = Math.floor(Date.now() / 1000);
        return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...who, aud: TEST_GOOGLE_CLIENT_ID, iss: issuer.url, email_verified: true, iat: now, exp: now + 3600 })}.`;
      },
    ],
    ['garbage', async () => 'not-a-token-at-all'],
  ];

  test.each(refusals)('%s gets 401 and creates no user and no session', async (_name, make) => {
    const who = person('refused');
    const answer = await rest('POST', '/account/auth/google', { json: { credential: await make(who) } });
    expectError(answer, 401, 'unauthorized');
    expect(cookieFrom(answer)).toBeNull();
    expect(await db().user.count({ where: { email: who.email } })).toBe(0);
    expect(await db().account.count({ where: { providerAccountId: who.sub } })).toBe(0);
    expect(await db().session.count({ where: { user: { email: who.email } } })).toBe(0);
  });

  test('a missing credential is invalid input', async () => {
    expectError(await rest('POST', '/account/auth/google', { json: {} }), 400, 'invalid_input');
  });

  test('signing in twice with the same Google subject gives one user and two sessions', async () => {
    const who = person('twice');
    const first = await signIn(who);
    const second = await signIn(who);
    expect(second.answer.body.user.id).toBe(first.answer.body.user.id);
    expect(second.token).not.toBe(first.token);
    expect(await db().user.count({ where: { email: who.email } })).toBe(1);
    expect(await db().account.count({ where: { providerAccountId: who.sub } })).toBe(1);
    expect(await db().session.count({ where: { userId: first.answer.body.user.id } })).toBe(2);
  });

  test('a sign-in from another site (Origin) is refused before the token is looked at', async () => {
    const who = person('csrf');
    const answer = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(who) }, headers: { origin: 'https://evil.example' } });
    expectError(answer, 401, 'unauthorized');
    expect(await db().user.count({ where: { email: who.email } })).toBe(0);
  });
});

describe('sessions', () => {
  test("a session from the API flow is accepted by /v1/account/me and by NextAuth's session reader", async () => {
    const who = person('shared');
    const { answer, token, headers } = await signIn(who);
    const me = await rest('GET', '/account/me', { headers });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ user: answer.body.user });

    const noop = { getHeader() {}, setHeader() {}, setCookie() {} };
    const session = await getServerSession({ headers: { host: 'shop.test', cookie: headers.cookie }, cookies: { [COOKIE]: token } } as never, noop as never, authOptions());
    expect(session?.user?.email).toBe(who.email);
  });

  test('without a session, or with an unknown one, /me answers user null', async () => {
    expect((await rest('GET', '/account/me')).body).toEqual({ user: null });
    const answer = await rest('GET', '/account/me', { headers: { cookie: `${COOKIE}=${'f'.repeat(64)}` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ user: null });
  });

  test('logout ends the session for good: the row is gone, the cookie cleared, the old cookie no longer works', async () => {
    const { token, headers } = await signIn(person('logout'));
    const out = await rest('POST', '/account/auth/logout', { headers });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ user: null });
    expect(out.headers.getSetCookie().join('\n')).toMatch(new RegExp(`${COOKIE}=;.*Max-Age=0`));
    expect(await db().session.findUnique({ where: { sessionToken: token } })).toBeNull();
    expect((await rest('GET', '/account/me', { headers })).body).toEqual({ user: null });
    expectError(await rest('GET', '/account/favorites', { headers }), 401, 'unauthorized');
    const session = await getServerSession(
      { headers: { host: 'shop.test' }, cookies: { [COOKIE]: token } } as never,
      { getHeader() {}, setHeader() {}, setCookie() {} } as never,
      authOptions(),
    );
    expect(session).toBeNull();
  });

  test('an expired session row is not accepted', async () => {
    const { token, headers } = await signIn(person('expired'));
    await db().session.update({ where: { sessionToken: token }, data: { expires: new Date(Date.now() - 1000) } });
    expect((await rest('GET', '/account/me', { headers })).body).toEqual({ user: null });
  });
});

describe('favorites', () => {
  test('every favorites endpoint is 401 without a session', async () => {
    const [slug] = await publishedSlugs(1);
    expectError(await rest('GET', '/account/favorites'), 401, 'unauthorized');
    expectError(await rest('PUT', `/account/favorites/${slug}`), 401, 'unauthorized');
    expectError(await rest('DELETE', `/account/favorites/${slug}`), 401, 'unauthorized');
    expectError(await rest('POST', '/account/favorites/merge', { json: { slugs: [slug] } }), 401, 'unauthorized');
    const bogus = { cookie: `${COOKIE}=${'0'.repeat(64)}` };
    expectError(await rest('GET', '/account/favorites', { headers: bogus }), 401, 'unauthorized');
  });

  test("adding twice keeps one favorite; removing twice leaves none; cards are the catalog's", async () => {
    const { headers } = await signIn(person('fav'));
    const [slug] = await publishedSlugs(1);
    for (let i = 0; i < 2; i++) {
      const put = await rest('PUT', `/account/favorites/${slug}`, { headers });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ slug, favorite: true });
    }
    const list = await rest('GET', '/account/favorites', { headers });
    expect(list.status).toBe(200);
    const cards = await rest('GET', '/artworks/by-slugs', { query: { slugs: slug! } });
    expect(list.body).toEqual({ items: cards.body.items });
    for (let i = 0; i < 2; i++) {
      const del = await rest('DELETE', `/account/favorites/${slug}`, { headers });
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ slug, favorite: false });
    }
    expect((await rest('GET', '/account/favorites', { headers })).body).toEqual({ items: [] });
  });

  test('an unknown or unpublished slug is 404 for PUT and DELETE', async () => {
    const { headers } = await signIn(person('fav404'));
    const artist = await db().artist.findFirstOrThrow();
    const queued = `queued-fav-${randomUUID().slice(0, 8)}`;
    await db().artwork.create({ data: { slug: queued, artistId: artist.id, status: 'queued' } });
    for (const slug of ['no-such-painting-anywhere', queued]) {
      expectError(await rest('PUT', `/account/favorites/${slug}`, { headers }), 404, 'not_found');
      expectError(await rest('DELETE', `/account/favorites/${slug}`, { headers }), 404, 'not_found');
    }
  });

  test('merge takes duplicates and ignores unknown and unpublished slugs, answering the merged list', async () => {
    const { headers } = await signIn(person('merge'));
    const [a, b, c] = await publishedSlugs(3);
    await rest('PUT', `/account/favorites/${a}`, { headers });
    const merged = await rest('POST', '/account/favorites/merge', { headers, json: { slugs: [b, b, a, 'no-such-painting-anywhere', c] } });
    expect(merged.status).toBe(200);
    expect(merged.body.items.map((card: { slug: string }) => card.slug).sort()).toEqual([a, b, c].sort());
    const list = await rest('GET', '/account/favorites', { headers });
    expect(list.body).toEqual(merged.body);
    expectError(await rest('POST', '/account/favorites/merge', { headers, json: { slugs: Array.from({ length: 501 }, (_, i) => `s-${i}`) } }), 400, 'invalid_input');
  });

  test('merge keeps the order of the list it is given (newest first), above the favorites already stored', async () => {
    const { headers } = await signIn(person('mergeorder'));
    const [stored, a, b, c] = await publishedSlugs(4);
    await rest('PUT', `/account/favorites/${stored}`, { headers });
    // Neither alphabetical nor by id: the order the shopper made.
    const local = [b!, stored!, c!, a!];
    const merged = await rest('POST', '/account/favorites/merge', { headers, json: { slugs: local } });
    expect(merged.status).toBe(200);
    expect(merged.body.items.map((card: { slug: string }) => card.slug)).toEqual([b, c, a, stored]);
    expect((await rest('GET', '/account/favorites', { headers })).body).toEqual(merged.body);
  });

  test('a merge right after a heart still puts the merged list above it, in its order', async () => {
    // The heart and the merge in the same millisecond (a fast server): the merged list used to be
    // dated "now", "now - 1 ms"…, so all but the first sorted below the heart.
    const who = person('mergesame');
    await signIn(who);
    const user = await db().user.findUniqueOrThrow({ where: { email: who.email } });
    const [stored, a, b, c] = await publishedSlugs(4);
    await addFavorite(db(), user.id, stored!);
    const heart = await db().favorite.findFirstOrThrow({ where: { userId: user.id } });
    const merged = await mergeFavorites(db(), user.id, [b!, c!, a!], 'en', heart.createdAt);
    expect(merged.items.map((card) => card.slug)).toEqual([b, c, a, stored]);
  });

  test("another user's favorites are never visible", async () => {
    const alice = await signIn(person('alice'));
    const bob = await signIn(person('bob'));
    const [slug] = await publishedSlugs(1);
    await rest('PUT', `/account/favorites/${slug}`, { headers: alice.headers });
    expect((await rest('GET', '/account/favorites', { headers: bob.headers })).body).toEqual({ items: [] });
    await rest('DELETE', `/account/favorites/${slug}`, { headers: bob.headers });
    expect((await rest('GET', '/account/favorites', { headers: alice.headers })).body.items).toHaveLength(1);
  });

  test('a cookie-authenticated write from another site is refused and changes nothing', async () => {
    const { headers } = await signIn(person('xsite'));
    const [slug] = await publishedSlugs(1);
    expectError(await rest('PUT', `/account/favorites/${slug}`, { headers: { ...headers, origin: 'https://evil.example' } }), 401, 'unauthorized');
    expectError(await rest('POST', '/account/auth/logout', { headers: { ...headers, 'sec-fetch-site': 'cross-site' } }), 401, 'unauthorized');
    expect((await rest('GET', '/account/me', { headers })).body.user).not.toBeNull();
    expect((await rest('GET', '/account/favorites', { headers })).body).toEqual({ items: [] });
    const same = await rest('PUT', `/account/favorites/${slug}`, { headers: { ...headers, origin: 'http://shop.test' } });
    expect(same.status).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  test('lists the account operations as built, with the session cookie as a security scheme', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: COOKIE });
    const ops: [string, string, 'required' | 'optional'][] = [
      ['/account/config', 'get', 'optional'],
      ['/account/me', 'get', 'optional'],
      ['/account/auth/google', 'post', 'optional'],
      ['/account/auth/logout', 'post', 'optional'],
      ['/account/favorites', 'get', 'required'],
      ['/account/favorites/{slug}', 'put', 'required'],
      ['/account/favorites/{slug}', 'delete', 'required'],
      ['/account/favorites/merge', 'post', 'required'],
    ];
    for (const [path, method, session] of ops) {
      const operation = doc.paths[path][method];
      expect(operation.security).toEqual(session === 'required' ? [{ sessionCookie: [] }] : [{ sessionCookie: [] }, {}]);
      if (session === 'required') expect(operation.responses['401']).toBeDefined();
    }
    expect(doc.paths['/account/auth/google'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(doc.paths['/account/favorites/merge'].post.requestBody.content['application/json'].schema).toBeDefined();
    expect(doc.paths['/admin/orders'].get.security).toEqual([{ staffToken: [] }]);
  });
});

describe('first sign-ins at the same moment', () => {
  test('two concurrent first sign-ins of one Google subject give one user and two sessions', async () => {
    const who = person('race');
    const answers = await Promise.all([0, 1].map(async () => rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(who) } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers[0]!.body.user.id).toBe(answers[1]!.body.user.id);
    expect(await db().user.count({ where: { email: who.email } })).toBe(1);
    expect(await db().session.count({ where: { user: { email: who.email } } })).toBe(2);
  });
});

describe('verifyGoogleIdToken', () => {
  test('answers the verified identity, e-mail lower-cased', async () => {
    const who = person('Verify');
    const identity = await verifyGoogleIdToken(await issuer.idToken({ ...who, email: who.email.toUpperCase() }), {
      clientId: TEST_GOOGLE_CLIENT_ID,
      issuer: issuer.url,
      jwksUrl: issuer.jwksUrl,
    });
    expect(identity).toEqual({ subject: who.sub, email: who.email.toLowerCase(), name: who.name, picture: null });
  });

  test('an unreachable key set is our failure (not a 401 for the client)', async () => {
    const token = await issuer.idToken(person('nokeys'));
    const error = await verifyGoogleIdToken(token, { clientId: TEST_GOOGLE_CLIENT_ID, issuer: issuer.url, jwksUrl: 'http://127.0.0.1:9/jwks' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
  });
});
