import 'server-only';
import { randomBytes } from 'node:crypto';
import type { Env } from '@/server/env';
import type { RequestHead } from '@/server/http/answers';

/**
 * The session cookie, shared by NextAuth (the website's redirect sign-in) and /v1 (ID-token
 * sign-in): the same name, attributes and `sessions` table, so either flow's session works in both.
 * The names are NextAuth's own defaults, and NextAuth is configured with them explicitly.
 */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/**
 * Secure (and `__Secure-` prefixed) when the shop's public address is https, as NextAuth decides
 * from NEXTAUTH_URL. Not by NODE_ENV: `npm start` is a production server, and a shop served over
 * plain http (the embedded default reached by a LAN address) would otherwise set cookies no
 * browser keeps, and nobody could sign in. A real deployment sets PUBLIC_BASE_URL=https://…
 */
export function secureCookies(e: Env): boolean {
  return Boolean(e.PUBLIC_BASE_URL?.startsWith('https://'));
}

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Secure-next-auth.session-token' : 'next-auth.session-token';
}

export const sessionCookieOptions = (secure: boolean) => ({ httpOnly: true, sameSite: 'lax' as const, path: '/', secure });

/** A new session token: 256 random bits. */
export const newSessionToken = () => randomBytes(32).toString('hex');

/** The Set-Cookie value that carries `token` until `expires`, or (token null) that clears the cookie. */
export function sessionCookie(secure: boolean, token: string | null, expires?: Date): string {
  const parts = [`${sessionCookieName(secure)}=${token ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  if (token && expires) parts.push(`Expires=${expires.toUTCString()}`, `Max-Age=${Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000))}`);
  else parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Max-Age=0');
  return parts.join('; ');
}

/** The session token a request carries in its Cookie header, if any. */
export function sessionTokenFrom(request: RequestHead | undefined, secure: boolean): string | null {
  const header = request?.headers.get('cookie');
  if (!header) return null;
  const name = sessionCookieName(secure);
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) {
      const value = pair.slice(at + 1).trim();
      return /^[A-Za-z0-9._-]{1,200}$/.test(value) ? value : null;
    }
  }
  return null;
}

/**
 * Cross-site protection for cookie-authenticated writes, on top of SameSite=Lax: a browser sends
 * Origin (and Sec-Fetch-Site) with every unsafe request, so a write whose Origin is neither this
 * request's own origin nor the public address, or that the browser marks cross-site, is refused.
 * Clients that are not browsers send neither header and are not at risk of cross-site forgery.
 */
export function crossSite(request: RequestHead | undefined, e: Env): boolean {
  if (!request) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  const url = new URL(request.url);
  const allowed = new Set([url.origin]);
  // Behind `next start` the request's URL says localhost whatever address the browser used
  // (127.0.0.1, a LAN name); the Host header is the address it used, and a browser cannot forge it
  // for another site, so an Origin equal to it is same-site.
  const host = request.headers.get('host');
  if (host) allowed.add(`${url.protocol}//${host}`);
  if (e.PUBLIC_BASE_URL) allowed.add(new URL(e.PUBLIC_BASE_URL).origin);
  return !allowed.has(origin);
}
