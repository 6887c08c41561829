import { randomBytes } from 'node:crypto';
import type { Env } from '@/server/env';

/**
 * The session cookie, shared by NextAuth (the website's redirect sign-in) and /v1 (ID-token
 * sign-in): the same name, attributes and `sessions` table, so either flow's session works in both.
 * The names are NextAuth's own defaults, and NextAuth is configured with them explicitly.
 */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

/** Secure (and `__Secure-` prefixed) in production or whenever the public address is https. */
export function secureCookies(e: Env): boolean {
  return e.NODE_ENV === 'production' || Boolean(e.PUBLIC_BASE_URL?.startsWith('https://'));
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
export function sessionTokenFrom(request: Request | undefined, secure: boolean): string | null {
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
export function crossSite(request: Request | undefined, e: Env): boolean {
  if (!request) return false;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = request.headers.get('origin');
  if (!origin) return false;
  const allowed = new Set([new URL(request.url).origin]);
  if (e.PUBLIC_BASE_URL) allowed.add(new URL(e.PUBLIC_BASE_URL).origin);
  return !allowed.has(origin);
}
