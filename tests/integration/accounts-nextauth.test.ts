import { randomUUID } from 'node:crypto';
import NextAuth from 'next-auth';
import { afterAll, describe, expect, test } from 'vitest';
import { authOptions } from '@/server/accounts/nextauth';
import { db } from '@/server/db/client';
import { startLocalIssuer, useLocalIssuer } from '../support/google';
import { rest } from '../support/rest';

// The website's redirect sign-in (NextAuth + Google provider + Prisma adapter), run end to end
// against a real local OpenID Connect issuer: authorize, code exchange, ID-token check, adapter.
const issuer = await startLocalIssuer();
useLocalIssuer(issuer);
process.env.NEXTAUTH_URL = 'http://shop.test';
afterAll(() => issuer.stop());

const COOKIE = 'next-auth.session-token';

/** Calls NextAuth's handler the way Next's API routes do, keeping the cookies between calls. */
class Browser {
  cookies: Record<string, string> = {};
  async call(method: 'GET' | 'POST', action: string[], query: Record<string, string> = {}, body?: Record<string, string>) {
    const headers: Record<string, unknown> = {};
    let status = 200;
    let sent: unknown;
    const res = {
      status(code: number) {
        status = code;
        return res;
      },
      getHeader: (name: string) => headers[name.toLowerCase()],
      setHeader(name: string, value: unknown) {
        headers[name.toLowerCase()] = value;
        return res;
      },
      send: (b: unknown) => void (sent = b),
      json: (b: unknown) => void (sent = b),
      end: () => undefined,
    };
    const req = { method, query: { ...query, nextauth: action }, body: body ?? {}, cookies: { ...this.cookies }, headers: { host: 'shop.test' } };
    await NextAuth(req as never, res as never, authOptions());
    const setCookies = ([] as string[]).concat((headers['set-cookie'] as string[] | undefined) ?? []);
    for (const c of setCookies) {
      const [pair] = c.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = decodeURIComponent(pair!.slice(at + 1));
      if (value && !/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) this.cookies[name] = value;
      else delete this.cookies[name];
    }
    return { status, location: headers.location as string | undefined, body: sent as any };
  }
}

/** The whole redirect flow for the Google identity `who`: csrf, sign-in, the issuer's authorize, the callback. */
async function redirectSignIn(who: Record<string, unknown>) {
  const sign = (token: { payload: Record<string, unknown> }) => void Object.assign(token.payload, who);
  issuer.server.service.on('beforeTokenSigning', sign);
  try {
    const browser = new Browser();
    const csrf = await browser.call('GET', ['csrf']);
    expect(csrf.body.csrfToken).toEqual(expect.any(String));
    const start = await browser.call('POST', ['signin', 'google'], {}, { csrfToken: csrf.body.csrfToken, callbackUrl: 'http://shop.test/' });
    expect(start.status).toBe(302);
    const authorize = new URL(start.location!);
    expect(authorize.origin).toBe(new URL(issuer.url).origin);
    expect(authorize.searchParams.get('redirect_uri')).toBe('http://shop.test/api/auth/callback/google');

    // The issuer "signs the user in" and sends the browser back with a code.
    const back = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(back.headers.get('location')!);
    const done = await browser.call('GET', ['callback', 'google'], Object.fromEntries(callback.searchParams));
    return { browser, done };
  } finally {
    issuer.server.service.off('beforeTokenSigning', sign);
  }
}

describe('NextAuth redirect sign-in with Google', () => {
  test('makes the same user, account and session rows as ID-token sign-in, and either flow finds the other', async () => {
    const id = randomUUID().slice(0, 8);
    const who = { sub: `g-redirect-${id}`, email: `redirect-${id}@accounts.test`, email_verified: true, name: 'Redirect Tester' };
    const { browser, done } = await redirectSignIn(who);
    expect(done.status).toBe(302);
    const token = browser.cookies[COOKIE];
    expect(token).toBeTruthy();

    const account = await db().account.findUniqueOrThrow({ where: { provider_providerAccountId: { provider: 'google', providerAccountId: who.sub } } });
    const session = await db().session.findUniqueOrThrow({ where: { sessionToken: token! } });
    expect(session.userId).toBe(account.userId);

    // The redirect flow's session works on /v1 ...
    const me = await rest('GET', '/account/me', { headers: { cookie: `${COOKIE}=${token}` } });
    expect(me.body.user).toMatchObject({ id: account.userId, email: who.email });
    // ... and ID-token sign-in with the same Google subject lands on the same user.
    const oneTap = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(who) } });
    expect(oneTap.status).toBe(200);
    expect(oneTap.body.user.id).toBe(account.userId);
    expect(await db().user.count({ where: { email: who.email } })).toBe(1);
    expect(await db().account.count({ where: { providerAccountId: who.sub } })).toBe(1);
  });

  test('an e-mail Google does not say it verified signs nobody in and is linked to nobody', async () => {
    const id = randomUUID().slice(0, 8);
    const email = `victim-${id}@accounts.test`;
    // The address's owner has an account already (ID-token sign-in, verified).
    const owner = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken({ sub: `g-owner-${id}`, email }) } });
    expect(owner.status).toBe(200);

    for (const email_verified of [false, undefined]) {
      const sub = `g-claimer-${id}-${String(email_verified)}`;
      const { browser, done } = await redirectSignIn({ sub, email, email_verified, name: 'Not Verified' });
      expect(done.status).toBe(302);
      expect(done.location).toMatch(/\/api\/auth\/error\?error=AccessDenied$/);
      expect(browser.cookies[COOKIE]).toBeUndefined();
      expect(await db().account.count({ where: { providerAccountId: sub } })).toBe(0);
    }
    expect(await db().account.count({ where: { userId: owner.body.user.id } })).toBe(1);
    expect(await db().session.count({ where: { userId: owner.body.user.id } })).toBe(1);
  });
});
