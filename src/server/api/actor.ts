import 'server-only';
import { sessionUser, type AccountUser } from '@/server/accounts/service';
import { secureCookies, sessionTokenFrom } from '@/server/accounts/session';
import type { Db } from '@/server/db/client';
import type { Env } from '@/server/env';
import { limitFailures, type LimitSettings } from '@/server/limits/service';
import { isStaff } from './staff-auth';

/**
 * Who is asking: one value per request, found by the transport the request came through (the
 * credentials each one takes differ) and checked by the procedure builders in trpc.ts. A later
 * issue adds `{ kind: 'partner', … }` for API keys: a new member here, found by `apiActor`, checked
 * by its own procedure builder.
 */
export type Actor =
  | { kind: 'anonymous' }
  /** A shop customer signed in with Google: the session cookie shared with NextAuth. */
  | { kind: 'customer'; user: AccountUser }
  /** The studio: the staff token on /v1 and the website's tRPC, or a dashboard session under /staff. */
  | { kind: 'staff'; via: 'token' | 'dashboard' };

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
 * The credentials of /v1 and the website's /api/trpc. `Authorization: Bearer <ADMIN_TOKEN>` is
 * the staff (an explicit credential wins over a cookie the browser adds by itself); a wrong token
 * counts against the client's wrong-token limit (brute force on ADMIN_TOKEN; over it, RateLimited)
 * and is otherwise ignored. Then the session cookie: a live session is that customer. Nothing
 * else: anonymous.
 */
export async function apiActor(request: Request | undefined, deps: ApiActorDeps): Promise<Actor> {
  const authorization = request?.headers.get('authorization');
  if (authorization) {
    const check = () => isStaff(authorization, deps.env.ADMIN_TOKEN);
    const staff = deps.limits ? await limitFailures(deps.db, 'staffToken', deps.client, deps.limits, check) : check();
    if (staff) return { kind: 'staff', via: 'token' };
  }
  const user = await sessionUser(deps.db, sessionTokenFrom(request, secureCookies(deps.env)));
  return user ? { kind: 'customer', user } : anonymous;
}
