import 'server-only';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { secureCookies } from '@/server/accounts/session';
import type { Db } from '@/server/db/client';
import { sessionSecret } from '@/server/db/local-secrets';
import { env, type Env } from '@/server/env';
import { anonymous, type Actor } from '@/server/api/actor';
import { isStaff } from '@/server/api/staff-auth';
import { logger } from '@/server/logger';

/**
 * The staff dashboard's session: after the admin token is typed once at /staff/<locale>/sign-in,
 * the browser keeps a cookie scoped to /staff that proves it without carrying the token itself.
 *
 * The cookie holds a random id (256 bits); the server keeps a row per session (`staff_sessions`)
 * with the id's SHA-256, its expiry and a tag of the token that signed it in (keyed by the server's
 * session secret, so a copy of the table tells nothing about the token). A row can be deleted:
 * sign-out ends that session for good (a copied cookie stops working too) and "sign out everywhere"
 * ends them all, e.g. after a laptop is lost. A session signed with a token that is no longer
 * ADMIN_TOKEN is dead, so rotating the token still signs every dashboard out. (The cookie used to be
 * an expiry signed with a key derived from the token: nothing could be revoked short of rotating
 * the token, and every cookie was a value computed from the token.)
 */
export const STAFF_SESSION_SECONDS = 12 * 60 * 60; // one working day; staff sign in again each morning
export const STAFF_COOKIE_PATH = '/staff';

export function staffCookieName(secure: boolean): string {
  // `__Secure-` makes browsers refuse the cookie from a plain-http page; `__Host-` would need Path=/.
  return secure ? '__Secure-atelier-staff' : 'atelier-staff';
}

/** The stored form of a cookie's id: its SHA-256, so the table alone signs nobody in. */
const idHash = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Which token a session was signed in with, compared on each use: an HMAC of the token keyed by the
 * server's session secret (NEXTAUTH_SECRET, or the one generated into DATA_DIR). Keyed by the token
 * itself, as it was, a copy of the table let anyone test guesses at ADMIN_TOKEN offline, as fast as
 * a machine hashes; now a guess needs the secret as well. Rotating either signs every dashboard out.
 */
const tokenTag = (adminToken: string, secret: string) => createHmac('sha256', secret).update(`atelier-prints staff session token tag v2\0${adminToken}`).digest('hex');

/** The key of the tags: the configured server's session secret (tests hand in others). */
const configuredSecret = () => sessionSecret(env());

const cookieId = /^[A-Za-z0-9_-]{43}$/;

/** Starts a session good for STAFF_SESSION_SECONDS from `now`; answers the cookie value. */
export async function newStaffSession(db: Db, adminToken: string, now = new Date(), secret = configuredSecret()): Promise<{ value: string; expires: Date }> {
  const value = randomBytes(32).toString('base64url');
  const expires = new Date(now.getTime() + STAFF_SESSION_SECONDS * 1000);
  await db.staffSession.create({ data: { idHash: idHash(value), tokenTag: tokenTag(adminToken, secret), createdAt: now, expiresAt: expires } });
  void sweepExpiredStaffSessions(db).catch((error: unknown) => logger.warn({ err: error }, 'staff sessions: could not delete expired ones'));
  return { value, expires };
}

/**
 * Whether a cookie value is a live session: a row with its id, not expired, signed in with the
 * token configured now. With no ADMIN_TOKEN configured nothing passes.
 */
export async function isStaffSession(
  db: Db,
  value: string | null | undefined,
  adminToken: string | undefined,
  now = new Date(),
  secret = configuredSecret(),
): Promise<boolean> {
  if (!adminToken || !value || !cookieId.test(value)) return false;
  const row = await db.staffSession.findUnique({ where: { idHash: idHash(value) } });
  return Boolean(row && row.expiresAt.getTime() > now.getTime() && row.tokenTag === tokenTag(adminToken, secret));
}

/** Ends the session this cookie value names (sign-out). */
export async function endStaffSession(db: Db, value: string | null | undefined): Promise<void> {
  if (!value || !cookieId.test(value)) return;
  await db.staffSession.deleteMany({ where: { idHash: idHash(value) } });
}

/** Ends every dashboard session ("sign out everywhere"); answers how many were live. */
export async function endAllStaffSessions(db: Db): Promise<number> {
  return (await db.staffSession.deleteMany({})).count;
}

/** Expired sessions are deleted as new ones start (a handful a day: no index scan worth scheduling). */
async function sweepExpiredStaffSessions(db: Db): Promise<void> {
  await db.staffSession.deleteMany({ where: { expiresAt: { lt: new Date() } } });
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

/**
 * Who is asking under /staff (its pages, its tRPC and its route handlers): the staff with a live
 * dashboard session cookie, anyone else anonymous. This transport takes no other credential.
 */
export async function dashboardActor(db: Db, sessionValue: string | null | undefined, adminToken: string | undefined, now = new Date()): Promise<Actor> {
  return (await isStaffSession(db, sessionValue, adminToken, now)) ? { kind: 'staff', via: 'dashboard' } : anonymous;
}

/** The actor of a request to a /staff route handler, from its Cookie header. */
export function dashboardActorOf(db: Db, request: Request, e: Env, now = new Date()): Promise<Actor> {
  return dashboardActor(db, staffSessionFromCookieHeader(request.headers.get('cookie'), secureCookies(e)), e.ADMIN_TOKEN, now);
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
