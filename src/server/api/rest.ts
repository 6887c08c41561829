import 'server-only';
import { TRPCError } from '@trpc/server';
import { coerceSchema, createOpenApiFetchHandler, getInputOutputParsers, instanceofZodTypeLikeVoid, instanceofZodTypeObject, unwrapZodType } from 'trpc-to-openapi';
import { z, ZodError } from 'zod';
import { DomainError, errorStatus, RateLimited, type ErrorCode, type FieldProblem } from '@/server/errors';
import { env } from '@/server/env';
import { internalErrorBody, requestContextOf } from '@/server/http/request-log';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { baseSecurityHeaders } from '@/server/http/security';
import { countsOnlyAccepted, enforceLimit, giveBack, type Verdict } from '@/server/limits/service';
import { currentRequest, logger, runInRequest } from '@/server/logger';
import { nulIssues } from '@/server/shared/text';
import { readBodyAtMost } from './body';
import { openApiDocument } from './openapi';
import { appRouter } from './root';
import { publicAnswer, responseCacheFor, type PublicAnswer } from './response-cache';
import { matchPath, pathParams, rawPathParams, type Method, type Route } from './routes';
import { createCallerFactory, createContext, staffAuthorized, type Context, type Meta } from './trpc';

const staffTokenRequired = 'A valid staff token is required (Authorization: Bearer <ADMIN_TOKEN>).';

const PREFIX = '/v1';
/** No JSON body of this interface comes near this; a larger one is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export function errorResponse(code: ErrorCode, message: string, details?: FieldProblem[], headers?: HeadersInit): Response {
  return Response.json({ error: { code, message, ...(details?.length ? { details } : {}) } }, { status: errorStatus[code], headers });
}

/** A DomainError's answer; over a rate limit it says when to come back (`Retry-After`, seconds). */
function domainErrorResponse(error: DomainError): Response {
  const headers = error instanceof RateLimited ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined;
  return errorResponse(error.code, error.message, error.details, headers);
}

/** What every /v1 answer carries: an API answers data, never a page, so its policy allows nothing. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Cross-origin reading of the public catalog (CORS): headers a script may send and read, how long a preflight holds. */
const CORS_ALLOWED_HEADERS = 'If-None-Match, X-Request-Id';
const CORS_EXPOSED_HEADERS = 'ETag, X-Request-Id, X-Catalog-Cache';
const CORS_MAX_AGE_SECONDS = '86400';

/**
 * The /v1 surface: routes a request to its procedure through trpc-to-openapi and holds every answer
 * to the contract. What the adapter cannot do is done here: unknown paths and wrong methods,
 * body limits and malformed JSON, and the error body, which the adapter shapes its own way.
 * Public catalog reads skip the adapter and may come from the response cache (`publicRead`).
 */
export async function handleRest(request: Request, makeContext: (options: { req: Request }) => Context = createContext): Promise<Response> {
  const context = requestContextOf(request);
  return runInRequest(context, async () => {
    const { response, crossOrigin } = await answer(request, makeContext);
    return finish(response, context.requestId, crossOrigin);
  });
}

/**
 * The headers of every /v1 answer: the base security headers, a policy that allows nothing, the
 * request id, and for operations anyone may read (the public catalog) CORS without credentials.
 */
function finish(response: Response, requestId: string, crossOrigin: boolean): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(baseSecurityHeaders(env()))) headers.set(name, value);
  headers.set('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
  headers.set('X-Request-Id', requestId);
  // Errors and anything not marked public are never stored (catalog answers set their own).
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'private, no-store');
  if (crossOrigin) {
    headers.set('Access-Control-Allow-Origin', '*');
    headers.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
  }
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Which operations any site's scripts may read (CORS `*`): the public catalog (the same answer for
 * everyone, no cookie), pricing and this document. Not orders, uploads, accounts or staff: they
 * carry personal data, a session cookie or a token, and the shop's own pages are same-origin.
 */
function crossOriginReadable(route: Route): boolean {
  if (route.answeredBy === 'document') return true;
  return 'procedure' in route.answeredBy && route.method === 'GET' && Boolean(route.answeredBy.meta.publicCache || route.answeredBy.meta.crossOrigin);
}

/** The CORS preflight of a public read: 204 with what may be sent. Other paths' preflight gets the 405 every unknown method gets. */
function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      Allow: 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
      'Access-Control-Allow-Headers': CORS_ALLOWED_HEADERS,
      'Access-Control-Max-Age': CORS_MAX_AGE_SECONDS,
      'Cache-Control': 'public, max-age=86400',
    },
  });
}

async function answer(request: Request, makeContext: (options: { req: Request }) => Context): Promise<{ response: Response; crossOrigin: boolean }> {
  const url = new URL(request.url);
  const path = url.pathname.slice(PREFIX.length) || '/';
  const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
  const candidates = matchPath(path);
  const refused = (response: Response) => ({ response, crossOrigin: false });
  if (!candidates.length) return refused(errorResponse('not_found', `There is no endpoint at ${PREFIX}${path}.`));
  if (request.method === 'OPTIONS' && candidates.some(crossOriginReadable)) return { response: preflight(), crossOrigin: true };
  const route = candidates.find((r) => r.method === method);
  if (route) {
    // The shared string rule over the address, for every route (hand-written handlers take no
    // procedure input); bodies are checked with each procedure's input.
    const nul = addressNulIssue(url, path);
    if (nul) return refused(nul);
  }
  if (!route) {
    const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
    return refused(errorResponse('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow }));
  }
  return { response: await answerRoute(request, url, route, path, method, makeContext), crossOrigin: crossOriginReadable(route) };
}

/** 400 invalid_input when a path segment or a query name or value holds U+0000 (src/server/shared/text.ts). */
function addressNulIssue(url: URL, path: string): Response | null {
  const values: Record<string, unknown> = { path: path.split('/').map(decodedSegment) };
  const query: [string, string][] = [];
  url.searchParams.forEach((value, key) => query.push([key, value]));
  values.query = query;
  const issue = nulIssues(values)[0];
  if (!issue) return null;
  const where = issue.path[0] === 'query' ? 'query' : 'path';
  return errorResponse('invalid_input', `Invalid input in the ${where}: ${issue.message}.`, [{ path: where, message: issue.message }]);
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function answerRoute(request: Request, url: URL, route: Route, path: string, method: Method, makeContext: (options: { req: Request }) => Context): Promise<Response> {
  if (route.answeredBy === 'document') return Response.json(openApiDocument());
  if ('handler' in route.answeredBy) {
    const handler = route.answeredBy.handler;
    // A limit that counts only accepted requests (stored photos) gets its count back when the
    // request is refused for what it sent (400, 413, 415).
    let refund: (() => Promise<void>) | undefined;
    const refundOn = async (status: number) => {
      if (refund && (status === 400 || status === 413 || status === 415)) await refund();
    };
    try {
      if (route.staff || handler.rateLimit) {
        const context = makeContext({ req: request });
        if (route.staff && !(await staffAuthorized(context))) return errorResponse('unauthorized', staffTokenRequired);
        if (handler.rateLimit && context.limits) {
          const verdict: Verdict = await enforceLimit(context.db, handler.rateLimit, context.client ?? 'local', context.limits);
          if (countsOnlyAccepted(handler.rateLimit, context.limits)) refund = () =>
            giveBack(context.db, verdict).catch((error: unknown) => logger.warn({ err: error }, 'rate limits: could not give a refused request back'));
        }
      }
      const response = await handler.handle(request, pathParams(route, path));
      await refundOn(response.status);
      return response;
    } catch (error) {
      if (!(error instanceof DomainError)) return unexpected(error, `${method} ${path}`);
      const response = domainErrorResponse(error);
      await refundOn(response.status);
      return response;
    }
  }

  if (method === 'GET' && route.answeredBy.meta.publicCache) {
    return publicRead(request, url, route as ProcedureRoute, path, makeContext);
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
  return withHeaders(response, context?.resHeaders);
}

type ProcedureRoute = Route & { answeredBy: { procedure: string; meta: Meta } };

/**
 * Public catalog reads (GET, `publicCache`), answered without trpc-to-openapi's per-request
 * handler: the procedure is called directly with the input the adapter would build (query values,
 * repeated keys as lists, raw path segments, its coercion of numbers), so validation, errors and
 * answers are the same. The serialized answer and its ETag come from the response cache when the
 * catalog has not changed since they were computed.
 */
async function publicRead(request: Request, url: URL, route: ProcedureRoute, path: string, makeContext: (options: { req: Request }) => Context): Promise<Response> {
  const where = `GET ${path}`;
  try {
    const context = makeContext({ req: request });
    const read = directRead(route.answeredBy.procedure);
    const compute = async () => publicAnswer(JSON.stringify(await read.call(context, read.input(url, route, path))));
    const cache = responseCacheFor(context.db);
    if (!cache) return publicResponse(request, await compute(), 'off');
    const { answer, hit } = await cache.answer(url.pathname + url.search, compute);
    return publicResponse(request, answer, hit ? 'hit' : 'miss');
  } catch (error) {
    return error instanceof TRPCError ? toContractError(error, where) : unexpected(error, where);
  }
}

interface DirectRead {
  call(context: Context, input: unknown): Promise<unknown>;
  input(url: URL, route: Route, path: string): unknown;
}

const callerOf = createCallerFactory(appRouter);
const directReads = new Map<string, DirectRead>();

function directRead(name: string): DirectRead {
  let read = directReads.get(name);
  if (read) return read;
  const procedure = (appRouter._def.procedures as unknown as Record<string, Parameters<typeof getInputOutputParsers>[0]>)[name];
  if (!procedure) throw new Error(`No procedure ${name}`);
  const schema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
  const takesInput = !instanceofZodTypeLikeVoid(schema);
  const listKeys = new Set<string>();
  if (instanceofZodTypeObject(schema)) {
    // What the adapter does to the procedure's input schema on its first request: query strings
    // coerced to the numbers and booleans the schema wants, single values of list fields wrapped.
    for (const [key, field] of Object.entries(schema.shape)) {
      if (field instanceof z.ZodArray || (field instanceof z.ZodOptional && field.unwrap() instanceof z.ZodArray)) listKeys.add(key);
    }
    coerceSchema(schema);
  }
  read = {
    call: (context, input) => {
      const caller: unknown = callerOf(context);
      const fn = name.split('.').reduce<unknown>((at, segment) => (at as Record<string, unknown>)[segment], caller);
      return (fn as (input: unknown) => Promise<unknown>)(input);
    },
    input: (url, route, path) => {
      if (!takesInput) return undefined;
      const query: Record<string, string | string[]> = {};
      const lists: Record<string, string[]> = {};
      url.searchParams.forEach((value, key) => (lists[key] ??= []).push(value));
      for (const [key, values] of Object.entries(lists)) query[key] = values.length === 1 && !listKeys.has(key) ? values[0]! : values;
      return { ...query, ...rawPathParams(route, path) };
    },
  };
  directReads.set(name, read);
  return read;
}

/** Short public caching, revalidated by ETag: a catalog page changes at most with each publish run. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/** A public answer with its caching headers; 304 when the client holds it already; no body for HEAD. */
function publicResponse(request: Request, answer: PublicAnswer, cache: 'hit' | 'miss' | 'off'): Response {
  const headers = new Headers({
    'Cache-Control': PUBLIC_CACHE_CONTROL,
    ETag: answer.etag,
    Vary: 'Accept-Encoding',
    // Whether this instance's response cache answered (the benchmark reports the hit ratio).
    'X-Catalog-Cache': cache,
  });
  const asked = request.headers.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim() === answer.etag || tag.trim() === '*')) {
    return new Response(null, { status: 304, headers });
  }
  headers.set('Content-Type', 'application/json');
  headers.set('Content-Length', String(answer.body.length));
  return new Response(request.method === 'HEAD' ? null : answer.body, { status: 200, headers });
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
  SERVICE_UNAVAILABLE: 'unavailable',
};

function toContractError(error: TRPCError | undefined, where: string): Response {
  const cause = error?.cause;
  if (cause instanceof DomainError) return domainErrorResponse(cause);
  if (cause instanceof ZodError && error?.code === 'BAD_REQUEST') {
    const details = cause.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message.replace(/^Invalid input: /, '') }));
    const first = details[0];
    return errorResponse('invalid_input', first ? `Invalid input at ${first.path}: ${first.message}.` : 'Invalid input.', details);
  }
  const code = error && codeForTrpc[error.code];
  if (code && error) return errorResponse(code, error.message);
  return unexpected(error?.cause ?? error, where);
}

/** Long enough for a PostgreSQL restart or fail-over to finish. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A 500 whose body says nothing of the cause but the request id a customer can quote; the cause goes to the log. */
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
