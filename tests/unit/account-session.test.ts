import { describe, expect, test } from 'vitest';
import { crossSite, sessionCookie, sessionTokenFrom } from '@/server/accounts/session';
import { parseEnv } from '@/server/env';

const dev = parseEnv({});
const prod = parseEnv({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://prints.example' });
const request = (headers: Record<string, string>, url = 'http://shop.test/v1/account/favorites/x') => new Request(url, { method: 'PUT', headers });

describe('the session cookie', () => {
  test('is httpOnly and SameSite=Lax, Secure with the __Secure- name when secure, and clears with Max-Age=0', () => {
    const expires = new Date(Date.now() + 3600_000);
    expect(sessionCookie(false, 'abc', expires)).toMatch(/^next-auth\.session-token=abc; Path=\/; HttpOnly; SameSite=Lax; Expires=.*; Max-Age=3\d{3}$/);
    expect(sessionCookie(true, 'abc', expires)).toMatch(/^__Secure-next-auth\.session-token=abc;.*; Secure;/);
    expect(sessionCookie(false, null)).toMatch(/^next-auth\.session-token=; .*Max-Age=0$/);
  });

  test('is read from the Cookie header by its own name only', () => {
    expect(sessionTokenFrom(request({ cookie: 'a=1; next-auth.session-token=tok-1; b=2' }), false)).toBe('tok-1');
    expect(sessionTokenFrom(request({ cookie: 'next-auth.session-token=tok-1' }), true)).toBeNull();
    expect(sessionTokenFrom(request({ cookie: '__Secure-next-auth.session-token=tok-2' }), true)).toBe('tok-2');
    expect(sessionTokenFrom(request({ cookie: 'next-auth.session-token=bad value;' }), false)).toBeNull();
    expect(sessionTokenFrom(request({}), false)).toBeNull();
  });
});

describe('cross-site writes', () => {
  test('an Origin of another site, or Sec-Fetch-Site cross-site, is refused; same origin and no Origin pass', () => {
    expect(crossSite(request({ origin: 'https://evil.example' }), dev)).toBe(true);
    expect(crossSite(request({ 'sec-fetch-site': 'cross-site' }), dev)).toBe(true);
    expect(crossSite(request({ origin: 'http://shop.test' }), dev)).toBe(false);
    expect(crossSite(request({ 'sec-fetch-site': 'same-origin', origin: 'http://shop.test' }), dev)).toBe(false);
    expect(crossSite(request({}), dev)).toBe(false);
    // Behind a proxy the request's own address may differ; the public address counts as ours.
    expect(crossSite(request({ origin: 'https://prints.example' }, 'http://10.0.0.5:3000/v1/x'), prod)).toBe(false);
    expect(crossSite(request({ origin: 'https://prints.example.evil' }, 'http://10.0.0.5:3000/v1/x'), prod)).toBe(true);
  });

  test('the address the browser used (Host) is ours even when the server believes it is localhost', () => {
    const local = 'http://localhost:3000/v1/account/favorites/x';
    expect(crossSite(request({ origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' }, local), dev)).toBe(false);
    expect(crossSite(request({ origin: 'http://evil.example', host: '127.0.0.1:3000' }, local), dev)).toBe(true);
    expect(crossSite(request({ origin: 'http://127.0.0.1:3000', host: 'localhost:3000' }, local), dev)).toBe(true);
  });
});
