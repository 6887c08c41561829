import 'server-only';
import { db as configuredDb, type Db } from '@/server/db/client';
import { env } from '@/server/env';
import { UNKNOWN_CLIENT } from '@/server/http/identity';
import { clientOf } from '@/server/http/client';
import { configuredPayments } from '@/server/integrations/stripe';
import { limitSettingsOf, type LimitSettings } from '@/server/limits/service';
import type { PaymentProvider } from '@/server/payments/provider';
import { apiActor, askedOnce, type Actor } from './actor';
import type { Context } from './trpc';
import type { RequestHead } from '@/server/http/answers';

export interface ContextOptions {
  /** The incoming request; absent for server components, which act for nobody in particular. */
  req?: RequestHead;
  /** The client `req` comes from, when the caller has read it already (clientOf). */
  client?: string;
  resHeaders?: Headers;
  /** Another database (tests); by default the configured one. */
  db?: Db;
  /** Another payment provider (tests); by default the configured one, if any. */
  payments?: PaymentProvider;
  /** Other per-client limits (tests); by default RATE_LIMIT_MULTIPLIER's. */
  limits?: LimitSettings;
  /** How this transport finds who is asking; by default the credentials of /v1 and /api/trpc (`apiActor`). */
  actor?: (deps: { db: Db; client: string; limits?: LimitSettings }) => Promise<Actor>;
}

/**
 * The context of one call: the database, who is asking, the configured integrations (built here,
 * so the procedure builders in trpc.ts know none of them), the client for the rate limits.
 */
export function createContext(options: ContextOptions = {}): Context {
  const e = env();
  const db = options.db ?? configuredDb();
  const client = options.client ?? (options.req ? clientOf(options.req.headers) : UNKNOWN_CLIENT);
  const limits = options.limits ?? limitSettingsOf(e);
  const find = options.actor ?? ((deps) => apiActor(options.req, { ...deps, env: e }));
  return {
    db,
    actor: askedOnce(() => find({ db, client, limits })),
    payments: options.payments ?? configuredPayments(),
    req: options.req,
    resHeaders: options.resHeaders ?? new Headers(),
    client,
    limits,
  };
}
