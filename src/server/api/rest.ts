import { createHash } from 'node:crypto';
import type { TRPCError } from '@trpc/server';
import { createOpenApiFetchHandler } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { DomainError, errorStatus, type ErrorCode, type FieldProblem } from '@/server/errors';
import { env } from '@/server/env';
import { logger } from '@/server/logger';
import { readBodyAtMost } from './body';
import { openApiDocument } from './openapi';
import { appRouter } from './root';
import { matchPath, pathParams, type Method } from './routes';
import { isStaff } from './staff-auth';
import { createContext, type Context } from './trpc';

const staffTokenRequired = 'A valid staff token is required (Authorization: Bearer <ADMIN_TOKEN>).';

const PREFIX = '/v1';
/** No JSON body of this interface comes near this; a larger one is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function errorResponse(code: ErrorCode, message: string, details?: FieldProblem[], headers?: HeadersInit): Response {
  return Response.json({ error: { code, message, ...(details?.length ? { details } : {}) } }, { status: errorStatus[code], headers });
}

/**
 * The /v1 surface: routes a request to its procedure through trpc-to-openapi and holds every answer
 * to the contract. What the adapter cannot do is done here: unknown paths and wrong methods,
 * body limits and malformed JSON, and the error body, which the adapter shapes its own way.
 */
export async function handleRest(request: Request, makeContext: (options: { req: Request }) => Context = createContext): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(PREFIX.length) || '/';
  const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
  const candidates = matchPath(path);
  if (!candidates.length) return errorResponse('not_found', `There is no endpoint at ${PREFIX}${path}.`);
  const route = candidates.find((r) => r.method === method);
  if (!route) {
    const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
    return errorResponse('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow });
  }
  if (route.answeredBy === 'document') return Response.json(openApiDocument());
  if (route.staff && !isStaff(request.headers.get('authorization'), env().ADMIN_TOKEN)) return errorResponse('unauthorized', staffTokenRequired);
  if ('handler' in route.answeredBy) {
    try {
      return await route.answeredBy.handler.handle(request, pathParams(route, path));
    } catch (error) {
      return error instanceof DomainError ? errorResponse(error.code, error.message, error.details) : unexpected(error, `${method} ${path}`);
    }
  }

  let forwarded = request;
  if (BODY_METHODS.has(method)) {
    const body = await readJsonBody(request);
    if (body instanceof Response) return body;
    forwarded = new Request(request.url, { method, headers: withJsonType(request.headers), body });
  }

  let failure: TRPCError | undefined;
  let context: Context | undefined;
  const successStatus = route.answeredBy.meta.successStatus;
  const response = await createOpenApiFetchHandler({
    endpoint: PREFIX,
    router: appRouter,
    req: forwarded,
    createContext: (options) => (context = makeContext(options)),
    responseMeta: ({ errors }) => (errors.length === 0 && successStatus ? { status: successStatus } : {}),
    onError: ({ error }) => {
      failure = error;
    },
  });
  if (response.status >= 400) return toContractError(failure, `${method} ${path}`);
  if (route.answeredBy.meta.publicCache) return cacheable(request, response);
  return withHeaders(response, context?.resHeaders);
}

/**
 * Adds the headers a procedure set for its answer (the session cookie of sign-in and sign-out).
 * Anything that is not a public catalog read (an order, an account, a staff list) is never stored
 * by a browser or a proxy.
 */
function withHeaders(response: Response, extra: Headers | undefined): Response {
  const headers = new Headers(response.headers);
  for (const cookie of extra?.getSetCookie() ?? []) headers.append('Set-Cookie', cookie);
  headers.set('Cache-Control', 'private, no-store');
  return new Response(response.body, { status: response.status, headers });
}

/** Short public caching, revalidated by ETag: a catalog page changes at most with each publish run. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

async function cacheable(request: Request, response: Response): Promise<Response> {
  const body = await response.text();
  const etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', PUBLIC_CACHE_CONTROL);
  headers.set('ETag', etag);
  headers.set('Vary', 'Accept-Encoding');
  const asked = request.headers.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    headers.delete('Content-Type');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status: response.status, headers });
}

async function readJsonBody(request: Request): Promise<string | Response> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  // curl -d sends a form type by default; a JSON text under it, or under no type, is still taken.
  if (type && type !== 'application/json' && type !== 'application/x-www-form-urlencoded' && !type.endsWith('+json')) {
    return errorResponse('unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  const bytes = await readBodyAtMost(request, MAX_JSON_BODY_BYTES);
  if (bytes === null) return tooLarge();
  const text = bytes.toString('utf8');
  if (text.trim() === '') return '{}';
  try {
    JSON.parse(text);
  } catch {
    return errorResponse('invalid_input', 'The request body is not valid JSON.');
  }
  return text;
}

const tooLarge = () => errorResponse('payload_too_large', `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KiB.`);

function withJsonType(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.set('content-type', 'application/json');
  copy.delete('content-length');
  return copy;
}

const codeForTrpc: Partial<Record<TRPCError['code'], ErrorCode>> = {
  BAD_REQUEST: 'invalid_input',
  PARSE_ERROR: 'invalid_input',
  UNAUTHORIZED: 'unauthorized',
  FORBIDDEN: 'unauthorized',
  NOT_FOUND: 'not_found',
  METHOD_NOT_SUPPORTED: 'method_not_allowed',
  CONFLICT: 'invalid_transition',
  PAYLOAD_TOO_LARGE: 'payload_too_large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported_media_type',
  TOO_MANY_REQUESTS: 'rate_limited',
};

function toContractError(error: TRPCError | undefined, where: string): Response {
  const cause = error?.cause;
  if (cause instanceof DomainError) return errorResponse(cause.code, cause.message, cause.details);
  if (cause instanceof ZodError && error?.code === 'BAD_REQUEST') {
    const details = cause.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message.replace(/^Invalid input: /, '') }));
    const first = details[0];
    return errorResponse('invalid_input', first ? `Invalid input at ${first.path}: ${first.message}.` : 'Invalid input.', details);
  }
  const code = error && codeForTrpc[error.code];
  if (code && error) return errorResponse(code, error.message);
  return unexpected(error?.cause ?? error, where);
}

/** A 500 whose body says nothing of the cause; the cause goes to the log. */
function unexpected(error: unknown, where: string): Response {
  logger.error('Unexpected error answering %s: %s', where, error);
  return errorResponse('internal', 'Something went wrong on our side. Please try again later.');
}
