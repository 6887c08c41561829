import 'server-only';
import { TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { DomainError, errorStatus, RateLimited, StorageFull, type ErrorCode, type FieldProblem } from '@/server/errors';
import { internalErrorBody } from '@/server/http/answers';
import { currentRequest, logger } from '@/server/logger';

/** The contract's error answer: `{ "error": { "code", "message", "details"? } }` with the status its code names. */
export function errorResponse(code: ErrorCode, message: string, details?: FieldProblem[], headers?: HeadersInit): Response {
  return Response.json({ error: { code, message, ...(details?.length ? { details } : {}) } }, { status: errorStatus[code], headers });
}

/** Long enough for a PostgreSQL restart or fail-over to finish. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one way a /v1 failure becomes an answer, whatever raised it: a DomainError (from a service, a
 * hand-written handler, or the request's own body), a TRPCError from a procedure call (the
 * DomainError or ZodError behind it, its `cause`), a ZodError (invalid input: every field problem
 * in `details`). Anything else is ours: 503 when the database is away, otherwise a 500 that names
 * only the request id, with the cause in the log. `where` (`GET /artworks`) goes to the log.
 */
export function contractError(error: unknown, where: string): Response {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof DomainError) {
    const headers = cause instanceof RateLimited || cause instanceof StorageFull ? { 'Retry-After': String(cause.retryAfterSeconds) } : undefined;
    return errorResponse(cause.code, cause.message, cause.details, headers);
  }
  // A ZodError behind anything but a refused input (an answer that fails its own output schema) is ours.
  if (cause instanceof ZodError && (!(error instanceof TRPCError) || error.code === 'BAD_REQUEST')) {
    const details = cause.issues.map((issue) => ({ path: pathText(issue.path) || '(body)', message: issue.message.replace(/^Invalid input: /, '') }));
    const first = details[0];
    return errorResponse('invalid_input', first ? `Invalid input at ${first.path}: ${first.message}.` : 'Invalid input.', details);
  }
  return unexpected(cause, where);
}

/** A field's path as a client writes it: `items[2].artworkSlug`. */
const pathText = (path: PropertyKey[]) => path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i ? '.' : ''}${String(key)}`)).join('');

function unexpected(error: unknown, where: string): Response {
  if (isDatabaseUnavailable(error)) {
    logger.error({ err: error, where }, 'the database is unavailable');
    return errorResponse('unavailable', 'The shop cannot reach its database just now. Please try again in a few seconds.', undefined, {
      'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  logger.error({ err: error, where }, 'unexpected error answering a /v1 request');
  const requestId = currentRequest()?.requestId;
  if (!requestId) return errorResponse('internal', 'Something went wrong on our side. Please try again later.');
  return Response.json(internalErrorBody(requestId), { status: 500 });
}
