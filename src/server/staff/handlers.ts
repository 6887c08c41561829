import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { secureCookies } from '@/server/accounts/session';
import { MAX_FORM_BODY_BYTES, MAX_TRPC_BODY_BYTES, withBodyAtMost } from '@/server/api/body';
import { anonymous } from '@/server/api/actor';
import { createContext } from '@/server/api/context';
import { logTrpcFailure, trpcAnswerHeaders, type Context } from '@/server/api/trpc';
import { db, type Db } from '@/server/db/client';
import { env, type Env } from '@/server/env';
import { DomainError, errorStatus, RateLimited } from '@/server/errors';
import { clientOf } from '@/server/http/client';
import { limitFailures, limitSettingsOf, type LimitSettings } from '@/server/limits/service';
import { logger } from '@/server/logger';
import { receiveStudioPhoto } from '@/server/orders/photo-routes';
import { adminPhotoRoute } from '@/server/uploads/handler';
import { defaultLocale, isLocale, type Locale } from '@/shared/locales';
import { MAX_TRPC_BATCH } from '@/shared/trpc-batch';
import { staffDashboardRouter } from './router';
import {
  dashboardActorOf,
  endAllStaffSessions,
  endStaffSession,
  isAdminToken,
  newStaffSession,
  sameOriginWrite,
  staffSessionCookie,
  staffSessionFromCookieHeader,
} from './session';

/**
 * The dashboard's own doors under /staff/api (route files in src/app/staff/api/ only delegate
 * here): sign-in and sign-out, its tRPC endpoint, and the customer's photo. Each takes the
 * configuration as a parameter (the process's by default) so tests can rotate the token.
 */

const noStore = { 'cache-control': 'private, no-store' };

const localeOf = (value: FormDataEntryValue | null): Locale => (isLocale(value) ? value : defaultLocale);

/** A dashboard address to go back to after signing in; anything else (another site, `//x`) is ignored. */
function dashboardPath(value: FormDataEntryValue | null, locale: Locale): string {
  const home = `/staff/${locale}`;
  if (typeof value !== 'string' || !/^\/staff\/[a-z]{2}(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&%+._-]*)?$/.test(value)) return home;
  return value.includes('/sign-in') ? home : value;
}

/** A 303 to a path on this site (browsers resolve it against the page's address). */
const seeOther = (location: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { location, ...noStore, ...headers } });

async function formOf(request: Request): Promise<FormData | null> {
  try {
    return await request.formData();
  } catch {
    return null;
  }
}

/**
 * `POST /staff/api/sign-in` from the sign-in form (`token`, `locale`, `next`): a right token sets
 * the session cookie and goes on to the dashboard; a wrong one goes back to the form with
 * `?error=token`. The token travels only in this POST body, never in an address.
 */
export async function signIn(request: Request, e: Env = env(), database: Db = db(), limits: LimitSettings = limitSettingsOf(e)): Promise<Response> {
  const bounded = await withBodyAtMost(request, MAX_FORM_BODY_BYTES);
  if (bounded instanceof Response) return bounded;
  const form = await formOf(bounded);
  const locale = localeOf(form?.get('locale') ?? null);
  const next = dashboardPath(form?.get('next') ?? null, locale);
  // Back to the form, still knowing where the visit was going.
  const back = (error: string, extra = '') =>
    seeOther(`/staff/${locale}/sign-in?error=${error}${extra}${next === `/staff/${locale}` ? '' : `&next=${encodeURIComponent(next)}`}`);
  // Login forgery: another site must not sign a browser in (even with its own token).
  if (!sameOriginWrite(request, e)) return back('origin');
  const token = form?.get('token');
  let right: boolean;
  try {
    // Wrong tokens count against the client's staffToken limit, shared with /v1's Bearer tokens.
    right = await limitFailures(database, 'staffToken', clientOf(request.headers), limits, () => typeof token === 'string' && isAdminToken(token, e.ADMIN_TOKEN));
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    return back('tooMany', `&wait=${Math.ceil(error.retryAfterSeconds / 60)}`);
  }
  if (!right) {
    logger.warn('staff dashboard: a sign-in with a wrong token was refused');
    return back('token');
  }
  const session = await newStaffSession(database, e.ADMIN_TOKEN!);
  return seeOther(next, { 'set-cookie': staffSessionCookie(secureCookies(e), session.value, session.expires) });
}

/**
 * `POST /staff/api/sign-out`: ends this browser's session (its row is deleted, so a copy of the
 * cookie stops working too) and clears the cookie. With `scope=everywhere`, from a live session,
 * it ends every dashboard session (a lost laptop, a departing colleague); without a live session
 * that is refused, or anyone on this site could sign the studio out.
 */
export async function signOut(request: Request, e: Env = env(), database: Db = db()): Promise<Response> {
  const bounded = await withBodyAtMost(request, MAX_FORM_BODY_BYTES);
  if (bounded instanceof Response) return bounded;
  const form = await formOf(bounded);
  const locale = localeOf(form?.get('locale') ?? null);
  if (!sameOriginWrite(request, e)) return seeOther(`/staff/${locale}`);
  const cleared = { 'set-cookie': staffSessionCookie(secureCookies(e), null) };
  if (form?.get('scope') === 'everywhere') {
    if ((await dashboardActorOf(database, request, e)).kind !== 'staff') return seeOther(`/staff/${locale}/sign-in`, cleared);
    const ended = await endAllStaffSessions(database);
    logger.info({ sessions: ended }, 'staff dashboard: every session was signed out');
    return seeOther(`/staff/${locale}/sign-in?signedOut=everywhere`, cleared);
  }
  await endStaffSession(database, staffSessionFromCookieHeader(request.headers.get('cookie'), secureCookies(e)));
  return seeOther(`/staff/${locale}/sign-in?signedOut=1`, cleared);
}

/**
 * The tRPC context of the dashboard: who is asking is the staff when the request carries a live
 * session cookie, and anonymous otherwise, so every staff procedure (and only those) admits it. A
 * write (POST) must also come from this site (sameOriginWrite): a forged cross-site request is
 * anonymous, and gets 401, even if a browser sent the cookie.
 */
export function staffContext(request: Request, resHeaders: Headers, e: Env = env(), database: Db = db()): Context {
  return createContext({
    req: request,
    resHeaders,
    db: database,
    actor: async () => (request.method === 'GET' || sameOriginWrite(request, e) ? dashboardActorOf(database, request, e) : anonymous),
  });
}

/** `/staff/api/trpc/*`: the dashboard's procedures for its client components. */
export async function staffTrpc(request: Request, e: Env = env(), database: Db = db()): Promise<Response> {
  const req = await withBodyAtMost(request, MAX_TRPC_BODY_BYTES);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: '/staff/api/trpc',
    req,
    router: staffDashboardRouter,
    maxBatchSize: MAX_TRPC_BATCH,
    createContext: ({ resHeaders }) => staffContext(req, resHeaders, e, database),
    responseMeta: ({ errors }) => ({ headers: trpcAnswerHeaders(errors, noStore) }),
    onError: ({ error, path }) => logTrpcFailure('staff dashboard', error, path),
  });
}

const refusal = (error: DomainError) => Response.json({ error: { code: error.code, message: error.message } }, { status: errorStatus[error.code], headers: noStore });
const signInFirst = () => refusal(new DomainError('unauthorized', 'Sign in to the staff dashboard.'));

/** `GET /staff/api/photos/{id}`: an order's photo through the staff-only upload read, for a signed-in dashboard. */
export async function staffPhoto(request: Request, id: string, e: Env = env()): Promise<Response> {
  if ((await dashboardActorOf(db(), request, e)).kind !== 'staff') return signInFirst();
  try {
    return await adminPhotoRoute().handle(request, { id });
  } catch (error) {
    if (error instanceof DomainError) return refusal(error);
    throw error;
  }
}

/**
 * `POST /staff/api/orders/{code}/photos?kind=&note=`: the order page's drag and drop, the very
 * operation of `POST /v1/admin/orders/{code}/photos`, for a signed-in dashboard on this site.
 */
export async function staffAddPhoto(request: Request, code: string, e: Env = env()): Promise<Response> {
  if (!sameOriginWrite(request, e) || (await dashboardActorOf(db(), request, e)).kind !== 'staff') {
    await request.body?.cancel().catch(() => undefined);
    return signInFirst();
  }
  try {
    const answer = await receiveStudioPhoto(request, code);
    return new Response(answer.body, { status: answer.status, headers: { ...Object.fromEntries(answer.headers), ...noStore } });
  } catch (error) {
    if (error instanceof DomainError) return refusal(error);
    throw error;
  }
}
