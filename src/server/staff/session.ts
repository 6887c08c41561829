import { createHmac, timingSafeEqual } from 'node:crypto';
import { secureCookies } from '@/server/accounts/session';
import type { Env } from '@/server/env';
import { isStaff } from '@/server/api/staff-auth';

/**
 * The staff dashboard's session: after the admin token is typed once at /staff/<locale>/sign-in,
 * the browser keeps a cookie scoped to /staff that proves it without carrying the token itself.
 *
 * The value is `<expires, unix seconds>.<HMAC-SHA256 of it>`, keyed from ADMIN_TOKEN: nothing is
 * stored on the server, a stolen cookie never reveals the token, and rotating ADMIN_TOKEN signs
 * every dashboard out at once (the old signatures stop matching).
 */
export const STAFF_SESSION_SECONDS = 12 * 60 * 60; // one working day; staff sign in again each morning
export const STAFF_COOKIE_PATH = '/staff';

export function staffCookieName(secure: boolean): string {
  // `__Secure-` makes browsers refuse the cookie from a plain-http page; `__Host-` would need Path=/.
  return secure ? '__Secure-atelier-staff' : 'atelier-staff';
}

/** The signing key: derived from the token so the token itself never signs anything another part uses. */
function signingKey(adminToken: string): Buffer {
  return createHmac('sha256', adminToken).update('atelier-prints staff dashboard session v1').digest();
}

const signature = (adminToken: string, expires: number) =>
  createHmac('sha256', signingKey(adminToken)).update(`staff-session.${expires}`).digest('base64url');

/** A new session value good for STAFF_SESSION_SECONDS from `now`. */
export function newStaffSession(adminToken: string, now = new Date()): { value: string; expires: Date } {
  const expires = Math.floor(now.getTime() / 1000) + STAFF_SESSION_SECONDS;
  return { value: `${expires}.${signature(adminToken, expires)}`, expires: new Date(expires * 1000) };
}

/**
 * Whether a cookie value is a live session signed with this token: well formed, not expired, and
 * its signature equal in constant time. With no ADMIN_TOKEN configured nothing passes.
 */
export function isStaffSession(value: string | null | undefined, adminToken: string | undefined, now = new Date()): boolean {
  if (!adminToken || !value) return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return false;
  const expires = Number(match[1]);
  if (expires * 1000 <= now.getTime()) return false;
  // A value minted for longer than a session lasts was not minted here (clock skew aside).
  if (expires * 1000 > now.getTime() + (STAFF_SESSION_SECONDS + 300) * 1000) return false;
  const expected = Buffer.from(signature(adminToken, expires));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Whether the typed admin token is the configured one (the same constant-time check as `Authorization: Bearer`). */
export function isAdminToken(typed: string, adminToken: string | undefined): boolean {
  return isStaff(`Bearer ${typed.trim()}`, adminToken);
}

/** The Set-Cookie value that keeps a session until `expires`, or (value null) clears it. */
export function staffSessionCookie(secure: boolean, value: string | null, expires?: Date): string {
  const parts = [`${staffCookieName(secure)}=${value ?? ''}`, `Path=${STAFF_COOKIE_PATH}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  if (value && expires) parts.push(`Expires=${expires.toUTCString()}`, `Max-Age=${Math.max(0, Math.floor((expires.getTime() - Date.now()) / 1000))}`);
  else parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Max-Age=0');
  return parts.join('; ');
}

/** The session value in a Cookie header, if any. */
export function staffSessionFromCookieHeader(header: string | null | undefined, secure: boolean): string | null {
  if (!header) return null;
  const name = staffCookieName(secure);
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** Whether a request to a /staff route carries a live dashboard session. */
export function signedInStaff(request: Request, e: Env, now = new Date()): boolean {
  return isStaffSession(staffSessionFromCookieHeader(request.headers.get('cookie'), secureCookies(e)), e.ADMIN_TOKEN, now);
}

/**
 * Cross-site protection for the dashboard's writes, beyond SameSite=Strict: a browser sends Origin
 * with every POST, so a write must come from this site's own origin (or the public address).
 * Unlike the account API, a missing Origin is refused too: only a browser holds this cookie.
 */
export function sameOriginWrite(request: Request, e: Env): boolean {
  if (request.headers.get('sec-fetch-site') === 'cross-site' || request.headers.get('sec-fetch-site') === 'same-site') return false;
  const origin = request.headers.get('origin');
  if (!origin || !URL.canParse(origin)) return false;
  if (e.PUBLIC_BASE_URL && new URL(e.PUBLIC_BASE_URL).origin === origin) return true;
  // The host the browser addressed (its Host header, which a page on another site cannot set):
  // `next start` builds request.url on its own hostname (localhost), not on the address used.
  const host = request.headers.get('host') ?? new URL(request.url).host;
  return new URL(origin).host === host;
}
