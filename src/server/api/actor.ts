import 'server-only';
import { sessionUser, type AccountUser } from '@/server/accounts/service';
import { secureCookies, sessionTokenFrom } from '@/server/accounts/session';
import type { Db } from '@/server/db/client';
import type { Env } from '@/server/env';
import { DomainError } from '@/server/errors';
import { limitFailures, type LimitSettings } from '@/server/limits/service';
import { partnerKeyIn } from '@/server/partners/keys';
import { partnerForKey, type Partner } from '@/server/partners/service';
import { isStaff } from './staff-auth';
import type { RequestHead } from '@/server/http/answers';

/**
 * Who is asking: one value per request, found by the transport the request came through (the
 * credentials each one takes differ) and checked by the procedure builders in trpc.ts.
 */
export type Actor =
  | { kind: 'anonymous' }
  /** A shop customer signed in with Google: the session cookie shared with NextAuth. */
  | { kind: 'customer'; user: AccountUser }
  /** The studio: the staff token on /v1 and the website's tRPC, or a dashboard session under /staff. */
  | { kind: 'staff'; via: 'token' | 'dashboard' }
  /**
   * An outside client's server with a partner key (`Authorization: Bearer pk_live_…`): public
   * operations only, counted against the key's own allowances, its orders recording the partner.
   */
  | { kind: 'partner'; partner: Partner };

/** The answer to a credential that names nobody: never taken as anonymous (decisions.md "Limits and inputs"). */
export const UNKNOWN_CREDENTIAL = 'The Authorization header names no live partner key and no staff token: send Authorization: Bearer <key>, or no Authorization header.';

export const anonymous: Actor = { kind: 'anonymous' };

/** How a context learns who is asking; the first call finds out, later calls share its answer. */
export type WhoIsAsking = () => Promise<Actor>;

/**
 * Finds the actor only when a procedure first asks, and once: a public catalog read never asks and
 * costs nothing; a staff operation costs one check however many middlewares ask. A failure (too
 * many wrong staff tokens) is the answer for the whole request.
 */
export function askedOnce(find: () => Promise<Actor>): WhoIsAsking {
  let answer: Promise<Actor> | undefined;
  return () => (answer ??= find());
}

export interface ApiActorDeps {
  db: Db;
  env: Env;
  /** The client the wrong-token limit counts against. */
  client: string;
  /** Absent: wrong staff tokens are not counted (tests that hand in their own context). */
  limits?: LimitSettings;
}

/**
 * The credentials of /v1 and the website's /api/trpc. An `Authorization` header wins over a cookie
 * the browser adds by itself, and it must name someone: `Bearer pk_live_…` a live partner key
 * (the request is counted as the key's use), any other value the staff token (a wrong one counts
 * against the client's wrong-token limit: brute force on ADMIN_TOKEN; over it, RateLimited).
 * Anything else it carries (a revoked key, a wrong token) is 401 unauthorized, never anonymous:
 * a partner whose key stopped working must hear so, not be limited as a stranger. Without the
 * header, the session cookie: a live session is that customer. Nothing else: anonymous.
 */
export async function apiActor(request: RequestHead | undefined, deps: ApiActorDeps): Promise<Actor> {
  const authorization = request?.headers.get('authorization');
  if (authorization) return credentialActor(authorization, deps);
  const user = await sessionUser(deps.db, sessionTokenFrom(request, secureCookies(deps.env)));
  return user ? { kind: 'customer', user } : anonymous;
}

async function credentialActor(authorization: string, deps: ApiActorDeps): Promise<Actor> {
  // A partner key is never compared with the staff token, nor counted as a guess at it: its 256
  // random bits are no more guessable by many tries than by one.
  const key = partnerKeyIn(authorization);
  if (key) {
    const partner = await partnerForKey(deps.db, key);
    if (partner) return { kind: 'partner', partner };
    throw new DomainError('unauthorized', UNKNOWN_CREDENTIAL);
  }
  const check = () => isStaff(authorization, deps.env.ADMIN_TOKEN);
  const staff = deps.limits ? await limitFailures(deps.db, 'staffToken', deps.client, deps.limits, check) : check();
  if (staff) return { kind: 'staff', via: 'token' };
  throw new DomainError('unauthorized', UNKNOWN_CREDENTIAL);
}
