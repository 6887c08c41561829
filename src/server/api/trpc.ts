import 'server-only';
import { initTRPC, TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { z } from 'zod';
import { unauthorized } from '@/server/accounts/service';
import { crossSite } from '@/server/accounts/session';
import { NUL_FREE_MESSAGE, nulIssues } from '@/server/api/nul-free';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError, invalidInput, RateLimited, type ErrorCode } from '@/server/errors';
import { UNKNOWN_CLIENT } from '@/server/http/identity';
import { partnerPolicy, type LimitName } from '@/server/limits/policy';
import { countsOnlyAccepted, enforceLimit, giveBack, type LimitSettings, type LimitSubject, type Verdict } from '@/server/limits/service';
import { currentRequest, logger } from '@/server/logger';
import { internalErrorBody, type RequestHead } from '@/server/http/answers';
import type { PaymentProvider } from '@/server/payments/provider';
import type { WhoIsAsking } from './actor';
import { responseCacheFor } from './response-cache';

/**
 * What every procedure gets. It is built by the transport (`createContext` in context.ts, the
 * staff dashboard's in staff/handlers.ts), which also builds the integrations it carries: this
 * module knows none of them.
 */
export interface Context {
  db: Db;
  /** Who is asking (actor.ts): found by the transport the first time a procedure asks, then kept. */
  actor: WhoIsAsking;
  /** The payment provider (Stripe Checkout and Refunds); absent when none is configured. */
  payments?: PaymentProvider;
  /** The incoming request, for what procedures read beyond the input (the session cookie, Origin). */
  req?: RequestHead;
  /** Headers for the answer (the session cookie); /v1 and /api/trpc add them to a successful answer. */
  resHeaders?: Headers;
  /**
   * /v1 only (rest.ts): where a public read answered by the response cache leaves its JSON bytes,
   * made once when it was computed, for /v1 to send as they are (keptForEveryone).
   */
  keptJson?: { body?: Buffer };
  /** The client's address (the address the server resolved; `local` without one), for the rate limits. */
  client?: string;
  /** The per-client limits; absent, nothing is limited (tests that hand in their own context). */
  limits?: LimitSettings;
}

/**
 * Procedure metadata: the OpenAPI operation, the success status when it is not 200, and whether
 * the answer is the same for everyone (public catalog reads: Cache-Control and ETag in /v1).
 */
export type Meta = OpenApiMeta<{
  successStatus?: 201;
  publicCache?: boolean;
  /** Account operations: whether the session cookie is required or only read (the OpenAPI security). */
  session?: 'required' | 'optional';
  /** The per-client limit this operation counts against (src/server/limits/policy.ts); over it: 429. */
  rateLimit?: LimitName;
  /**
   * How many the call counts for against its limit, read from its raw input before it is parsed
   * (counting comes first): a basket counts each of its orders. Absent: one.
   */
  rateCount?: (rawInput: unknown) => number;
  /** Readable by any site's scripts (CORS `*`) like the public catalog reads: the same for everyone, no cookie. */
  crossOrigin?: boolean;
  /**
   * The JSON contract of the request body, when the input is `jsonBody(contract)`: the OpenAPI
   * document shows it as the operation's body (the generator sees only the wrapper). The
   * document refuses to build when one is given without the other.
   */
  body?: z.ZodType;
}>;

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      // A failure on our side (a database error, a bug) says nothing of its cause to the browser: its
      // message could name a table, a query, a host or a secret. The log has it (logTrpcFailure).
      const ours = error.code === 'INTERNAL_SERVER_ERROR' && !(cause instanceof DomainError);
      const requestId = currentRequest()?.requestId;
      return {
        ...shape,
        message: ours ? (requestId ? internalErrorBody(requestId).error.message : 'Something went wrong on our side. Please try again later.') : shape.message,
        data: {
          ...shape.data,
          stack: undefined,
          appCode: cause instanceof DomainError ? cause.code : undefined,
          details: cause instanceof DomainError ? cause.details : undefined,
        },
      };
    },
  });

const trpcCodeFor: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  invalid_input: 'BAD_REQUEST',
  invalid_signature: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'METHOD_NOT_SUPPORTED',
  invalid_transition: 'CONFLICT',
  payment_unavailable: 'CONFLICT',
  payment_in_progress: 'CONFLICT',
  nothing_to_refund: 'CONFLICT',
  refund_too_large: 'CONFLICT',
  refund_refused: 'CONFLICT',
  order_disputed: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  unsupported_media_type: 'UNSUPPORTED_MEDIA_TYPE',
  rate_limited: 'TOO_MANY_REQUESTS',
  internal: 'INTERNAL_SERVER_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
  storage_full: 'SERVICE_UNAVAILABLE',
};

/** A DomainError as the matching TRPCError, kept as its cause (the contract's error body reads it). */
function withTrpcCode(cause: DomainError): TRPCError {
  return new TRPCError({ code: trpcCodeFor[cause.code], message: cause.message, cause });
}

/** The answers that refuse a request for what it sent (400, 413, 415), not for what it asked. */
const inputRefusals = new Set<ErrorCode>(['invalid_input', 'payload_too_large', 'unsupported_media_type']);
const trpcInputRefusals = new Set<TRPC_ERROR_CODE_KEY>(['BAD_REQUEST', 'PARSE_ERROR', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']);

/** Whether a failure refused the request for its input (a Zod issue, or a DomainError such as an unknown slug). */
export function refusedForInput(error: TRPCError): boolean {
  return error.cause instanceof DomainError ? inputRefusals.has(error.cause.code) : trpcInputRefusals.has(error.code);
}

/** A limit's count taken for one request, and how to give it back if the request is refused for its input. */
export interface CountedRequest {
  verdict: Verdict;
  /** Whether a refusal for the input (400, 413, 415) gives the count back (orders, photos). */
  onlyAccepted: boolean;
}

/**
 * Counts one request of whoever is asking against `name` (procedures' `meta.rateLimit`, and the
 * hand-written handlers of rest.ts): a partner against its key with the key's allowances, anyone
 * else against their address; the staff are never limited. Throws RateLimited over the allowance
 * (and the actor's own refusal for a credential that names nobody). Null: nothing was counted.
 */
export async function countAgainstLimit(ctx: Context, name: LimitName, count = 1): Promise<CountedRequest | null> {
  if (!ctx.limits) return null;
  const actor = await ctx.actor();
  if (actor.kind === 'staff') return null;
  const subject: LimitSubject =
    actor.kind === 'partner'
      ? { key: `partner:${actor.partner.id}`, policy: partnerPolicy(name, actor.partner), who: 'with this partner key' }
      : (ctx.client ?? UNKNOWN_CLIENT);
  const verdict = await enforceLimit(ctx.db, name, subject, ctx.limits, count);
  return { verdict, onlyAccepted: countsOnlyAccepted(name, ctx.limits, subject) };
}

/** Gives a counted request back (a refusal for its input); the refusal is the answer either way. */
export async function giveCountBack(ctx: Context, counted: CountedRequest | null): Promise<void> {
  if (!counted?.onlyAccepted) return;
  // A count that cannot be given back stays (and expires with its window).
  await giveBack(ctx.db, counted.verdict).catch((error: unknown) => logger.warn({ err: error }, 'rate limits: could not give a refused request back'));
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/**
 * What every procedure goes through first, in one middleware (each level of tRPC's chain copies
 * the call's options and context: with five levels here, a tenth of a cold catalog read's CPU):
 *
 * 1. the shared string rule (src/server/api/nul-free.ts) over the whole raw input, before any
 *    limit is counted and before the procedure's own schema: a U+0000 anywhere is 400 invalid_input;
 * 2. a credential sent is checked whatever the operation, before anything is counted or parsed: an
 *    unknown or revoked key, or a wrong token, is 401 rather than an anonymous call (actor.ts); a
 *    call without an Authorization header asks nothing here;
 * 3. the call is counted against its operation's limit (`meta.rateLimit`, see countAgainstLimit)
 *    before it runs; a limit that counts only accepted requests (orders) gets the count back when
 *    the call is refused for its input (counting first keeps simultaneous calls from passing the
 *    allowance together);
 * 4. after a successful mutation (a publish, a recount, any staff edit), this instance's cached
 *    catalog answers are checked against the catalog version on the next read instead of up to a
 *    second later: read-your-writes on the instance that made the change, through /v1 or /api/trpc;
 * 5. services throw DomainErrors: these, and this middleware's own, get the matching tRPC code,
 *    keeping the DomainError as cause (so every middleware after this one may throw them too).
 */
const gate = t.middleware(async ({ ctx, meta, type, getRawInput, next }) => {
  let counted: CountedRequest | null = null;
  try {
    if (nulIssues(await getRawInput()).length) throw invalidInput(`Invalid input: ${NUL_FREE_MESSAGE}.`);
    if (ctx.req?.headers.get('authorization')) await ctx.actor();
    if (meta?.rateLimit && ctx.limits) counted = await countAgainstLimit(ctx, meta.rateLimit, meta.rateCount?.(await getRawInput()) ?? 1);
  } catch (error) {
    throw error instanceof DomainError ? withTrpcCode(error) : error;
  }
  const result = await next();
  if (result.ok) {
    if (type === 'mutation') responseCacheFor(ctx.db)?.forgetVersion();
    return result;
  }
  if (refusedForInput(result.error)) await giveCountBack(ctx, counted);
  if (result.error.cause instanceof DomainError) throw withTrpcCode(result.error.cause);
  return result;
});

export const publicProcedure = t.procedure.use(gate);

/**
 * Public catalog reads (`meta.publicCache`: the same answer for everyone), declared between a
 * procedure's input and its output: the answer for this procedure and input comes from the
 * response cache (response-cache.ts) while the catalog has not changed, without running the
 * procedure or checking its output again (it was checked when it was kept). The ETag of its JSON
 * text is kept with it, and set on the answer with whether the cache answered (X-Catalog-Cache:
 * the benchmark's hit ratio), so /v1 never hashes a kept answer again.
 */
export const keptForEveryone = t.middleware(async ({ ctx, path, input, next }) => {
  const cache = responseCacheFor(ctx.db);
  if (!cache) {
    ctx.resHeaders?.set('x-catalog-cache', 'off');
    return next();
  }
  const { answer, json, etag, hit } = await cache.answer(
    `${path}\u0000${JSON.stringify(input)}`,
    async () => {
      const result = await next();
      // A failure is never kept: thrown, it is the answer of every call that waited for it.
      if (!result.ok) throw result.error;
      return result;
    },
    (result) => result.data,
  );
  ctx.resHeaders?.set('x-catalog-cache', hit ? 'hit' : 'miss');
  ctx.resHeaders?.set('etag', etag);
  if (!ctx.keptJson) return answer;
  // /v1 sends the answer's JSON bytes as the cache keeps them (rest.ts), so trpc-to-openapi, which
  // serializes whatever a procedure answers, is handed a stand-in that serializes to nothing
  // instead of the whole answer again (docs/upstream.md, "every answer is serialized").
  ctx.keptJson.body = json;
  return { ...answer, data: SENT_AS_KEPT };
});

/** What the adapter serializes in place of a kept answer whose bytes /v1 sends itself. */
const SENT_AS_KEPT = Object.freeze({ toJSON: () => null });

export const STAFF_REQUIRED = 'A valid staff token is required (Authorization: Bearer <ADMIN_TOKEN>).';

/** Staff operations: the staff actor (a staff token on /v1 and /api/trpc, a dashboard session under /staff). */
export const staffProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const actor = await ctx.actor();
  if (actor.kind !== 'staff') throw new DomainError('unauthorized', STAFF_REQUIRED);
  return next({ ctx: { staff: actor } });
});

/**
 * Operations on the customer's account, which a browser authenticates with the session cookie: a
 * write (every mutation) that carries a browser's Origin from another site is refused before
 * anything else, so the cookie cannot be used cross-site (sign-in and sign-out included).
 */
export const accountProcedure = publicProcedure.use(({ ctx, type, next }) => {
  if (type === 'mutation' && crossSite(ctx.req, env())) {
    throw new DomainError('unauthorized', 'Cross-site requests cannot use the session; send the request from the shop itself.');
  }
  return next();
});

/** A signed-in customer's operations: the customer actor; the user is in `ctx.user`. */
export const customerProcedure = accountProcedure.use(async ({ ctx, next }) => {
  const actor = await ctx.actor();
  if (actor.kind !== 'customer') throw unauthorized();
  return next({ ctx: { user: actor.user } });
});

/**
 * A JSON request body validated by `contract`. trpc-to-openapi's generator wants a plain object at
 * the top; a wrapper it cannot see into keeps the contract exact (unions included). Name the same
 * contract in the procedure's `meta.body`, so the OpenAPI document shows the contract itself.
 */
export function jsonBody<S extends z.ZodType, P extends z.ZodRawShape = Record<never, never>>(contract: S, pathParams?: P) {
  // Path parameters (`/admin/orders/{code}/status`) arrive in the same input; the generator wants them
  // visible at the top, so they are checked there and kept beside the body's fields.
  const path = z.object(pathParams ?? ({} as P));
  const wrapper = z.looseObject(pathParams ?? ({} as P)).transform((raw, ctx): z.output<S> & z.output<typeof path> => {
    const parsed = contract.safeParse(raw);
    if (parsed.success) return { ...(parsed.data as object), ...path.parse(raw) } as z.output<S> & z.output<typeof path>;
    ctx.issues.push(...(parsed.error.issues as typeof ctx.issues));
    return z.NEVER;
  });
  return wrapper;
}

/**
 * The headers of a tRPC answer (the website's /api/trpc and the dashboard's /staff/api/trpc):
 * `extra`, and `Retry-After` when a call was over a rate limit (the status is already 429).
 */
export function trpcAnswerHeaders(errors: readonly TRPCError[], extra?: HeadersInit): Headers {
  const headers = new Headers(extra);
  const limited = errors.map((error) => error.cause).find((cause): cause is RateLimited => cause instanceof RateLimited);
  if (limited) headers.set('Retry-After', String(limited.retryAfterSeconds));
  return headers;
}

/** A tRPC call that failed on our side goes to the log (its answer says only INTERNAL_SERVER_ERROR). */
export function logTrpcFailure(where: string, error: TRPCError, path: string | undefined): void {
  if (error.code === 'INTERNAL_SERVER_ERROR') logger.error({ err: error.cause ?? error, procedure: path ?? '?' }, `${where}: a call failed`);
}
