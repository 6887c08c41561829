import 'server-only';
import { DomainError } from '@/server/errors';
import { env } from '@/server/env';
import { requestContextOf } from '@/server/http/request-log';
import { baseSecurityHeaders, type PlainAnswer, type RequestHead, type RestRequest } from '@/server/http/answers';
import { chooseEncoding, MIN_COMPRESS_BYTES, type Encoding } from '@/server/http/compress';
import { runInRequest } from '@/server/logger';
import { nulIssues } from '@/server/api/nul-free';
import { readBodyAtMost } from './body';
import { contractError, errorResponse } from './contract-errors';
import { openApiDocument } from './openapi';
import { appRouter } from './root';
import { encodedBody, publicAnswer, responseCacheFor, type PublicAnswer } from './response-cache';
import type { Method, ProcedureAnswer, Route } from './route-types';
import { matchPath, pathParams, rawPathParams } from './routes';
import { createContext } from './context';
import { countAgainstLimit, createCallerFactory, giveCountBack, STAFF_REQUIRED, type Context, type CountedRequest } from './trpc';

const PREFIX = '/v1';
/** No JSON body of this interface comes near this; a larger one is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** Methods whose input is the JSON body (GET and DELETE take theirs from the address). */
const BODY_METHODS = new Set<Method>(['POST', 'PUT', 'PATCH']);

/** What every /v1 answer carries: an API answers data, never a page, so its policy allows nothing. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Cross-origin reading of the public catalog (CORS): headers a script may send and read, how long a preflight holds. */
const CORS_ALLOWED_HEADERS = 'If-None-Match, X-Request-Id';
const CORS_EXPOSED_HEADERS = 'ETag, X-Request-Id, X-Catalog-Cache';
const CORS_MAX_AGE_SECONDS = '86400';

/** `client`: the one the request's log context read from the front's headers (so it is read once). */
type MakeContext = (options: { req: RequestHead; client: string }) => Context;
/** The request's one context, made when first needed (an unknown path or a 405 needs none). */
type ContextOf = () => Context;

/** A request whose operation was found: what answering it by a handler or a procedure reads. */
interface Asked {
  request: RestRequest;
  url: URL;
  route: Route;
  /** The path under /v1. */
  path: string;
  /** Method and path, for the error log. */
  where: string;
  contextOf: ContextOf;
}

/**
 * The /v1 surface. The route table (routes.ts, from the procedures' `meta.openapi` and the
 * hand-written handlers) finds the operation: unknown paths 404, wrong methods 405 with `Allow`.
 * A procedure is called through `createCaller` with the input trpc-to-openapi would have built
 * (input.ts); public catalog reads may come from the response cache. Every failure becomes the
 * contract's error body in one place (`contractError`).
 */
export async function handleRest(request: Request, makeContext: MakeContext = createContext): Promise<Response> {
  return asResponse(await answerRest({ method: request.method, url: request.url, headers: request.headers, whole: () => request }, makeContext));
}

/**
 * handleRest's answer as the front writes it: the procedures' JSON answers and the public catalog
 * reads as a PlainAnswer (no fetch Response built and read back), anything else (an error, a
 * hand-written handler's answer, the document) as the Response it is.
 */
export async function answerRest(request: RestRequest, makeContext: MakeContext = createContext): Promise<Response | PlainAnswer> {
  const logged = requestContextOf(request);
  let context: Context | undefined;
  const contextOf: ContextOf = () => (context ??= makeContext({ req: request, client: logged.client }));
  return runInRequest(logged, async () => {
    const { response, crossOrigin } = await answer(request, contextOf);
    return finish(response, logged.requestId, crossOrigin);
  });
}

function asResponse(answer: Response | PlainAnswer): Response {
  if (answer instanceof Response) return answer;
  const response = new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
  for (const cookie of answer.cookies) response.headers.append('Set-Cookie', cookie);
  return response;
}

/** A JSON answer no browser or proxy stores, with the cookies a procedure set (sign-in and sign-out). */
function privateJson(status: number, body: string | null, resHeaders: Headers | undefined): PlainAnswer {
  return { status, headers: { 'content-type': 'application/json', 'cache-control': 'private, no-store' }, cookies: resHeaders?.getSetCookie() ?? [], body };
}

/**
 * The headers of every /v1 answer: the base security headers, a policy that allows nothing, the
 * request id, and for operations anyone may read (the public catalog) CORS without credentials.
 */
function finish(response: Response | PlainAnswer, requestId: string, crossOrigin: boolean): Response | PlainAnswer {
  const added: Record<string, string> = { ...securityHeaders(), 'x-request-id': requestId };
  if (crossOrigin) {
    added['access-control-allow-origin'] = '*';
    added['access-control-expose-headers'] = CORS_EXPOSED_HEADERS;
  }
  // Errors and anything not marked public are never stored (catalog answers set their own).
  if (!(response instanceof Response)) return { ...response, headers: { 'cache-control': 'private, no-store', ...response.headers, ...added } };
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(added)) headers.set(name, value);
  if (!headers.has('Cache-Control')) headers.set('Cache-Control', 'private, no-store');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The base security headers and the /v1 policy, lower-case. */
function securityHeaders(): Record<string, string> {
  const headers: Record<string, string> = { 'content-security-policy': API_CONTENT_SECURITY_POLICY };
  for (const [name, value] of Object.entries(baseSecurityHeaders(env()))) headers[name.toLowerCase()] = value;
  return headers;
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

async function answer(request: RestRequest, contextOf: ContextOf): Promise<{ response: Response | PlainAnswer; crossOrigin: boolean }> {
  const url = new URL(request.url);
  const path = url.pathname.slice(PREFIX.length) || '/';
  const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
  const candidates = matchPath(path);
  const refused = (response: Response) => ({ response, crossOrigin: false });
  if (!candidates.length) return refused(errorResponse('not_found', `There is no endpoint at ${PREFIX}${path}.`));
  if (request.method === 'OPTIONS' && candidates.some(crossOriginReadable)) return { response: preflight(), crossOrigin: true };
  const route = candidates.find((r) => r.method === method);
  if (!route) {
    const allow = [...new Set(candidates.map((r) => r.method))].join(', ');
    return refused(errorResponse('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow }));
  }
  // The shared string rule over the address, for every route (hand-written handlers take no
  // procedure input); bodies are checked with each procedure's input.
  const nul = addressNulIssue(url, path);
  if (nul) return refused(nul);
  const where = `${method} ${path}`;
  // A credential is checked whatever the operation, before its body is read: a revoked or unknown
  // key (or a wrong token) is 401, never an anonymous request (decisions.md "Limits and inputs").
  // The actor found here is the one every procedure and limit of the request sees.
  if (request.headers.get('authorization')) {
    try {
      await contextOf().actor();
    } catch (error) {
      return refused(contractError(error, where));
    }
  }
  const { answeredBy } = route;
  const asked: Asked = { request, url, route, path, where, contextOf };
  const response =
    answeredBy === 'document'
      ? Response.json(openApiDocument())
      : 'handler' in answeredBy
        ? await answerByHandler(asked, answeredBy.handler)
        : await answerByProcedure(asked, answeredBy);
  return { response, crossOrigin: crossOriginReadable(route) };
}

/** 400 invalid_input when a path segment or a query name or value holds U+0000 (src/server/api/nul-free.ts). */
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

type Handler = Extract<Route['answeredBy'], { handler: unknown }>['handler'];

/** A hand-written handler (raw bytes, the signed webhook, a photo), behind the same staff check and limits as a procedure. */
async function answerByHandler({ request, route, path, where, contextOf }: Asked, handler: Handler): Promise<Response> {
  // A limit that counts only accepted requests (stored photos) gets its count back when the
  // request is refused for what it sent (400, 413, 415), or because photo storage is full (503
  // storage_full: nothing was stored, decisions.md "Storage").
  let counted: CountedRequest | null = null;
  const refundOn = async (status: number, code?: string) => {
    if (counted && (status === 400 || status === 413 || status === 415 || code === 'storage_full')) await giveCountBack(contextOf(), counted);
  };
  try {
    if (route.staff && (await contextOf().actor()).kind !== 'staff') return errorResponse('unauthorized', STAFF_REQUIRED);
    // A partner's uploads count against its key, the staff's against nothing (countAgainstLimit).
    if (handler.rateLimit) counted = await countAgainstLimit(contextOf(), handler.rateLimit);
    const response = await handler.handle(request.whole(), pathParams(route, path), contextOf());
    await refundOn(response.status);
    return response;
  } catch (error) {
    const response = contractError(error, where);
    if (error instanceof DomainError) await refundOn(response.status, error.code);
    return response;
  }
}

const createCaller = createCallerFactory(appRouter);

/** Calls the operation's procedure as `context` would through tRPC: middlewares, input and output validation included. */
function callProcedure(context: Context, answeredBy: ProcedureAnswer, input: unknown): Promise<unknown> {
  const call = answeredBy.segments.reduce<unknown>((at, segment) => (at as Record<string, unknown>)[segment], createCaller(context));
  return (call as (input: unknown) => Promise<unknown>)(input);
}

async function answerByProcedure(asked: Asked, answeredBy: ProcedureAnswer): Promise<Response | PlainAnswer> {
  const { request, url, route, path, where, contextOf } = asked;
  const { meta, input } = answeredBy;
  if (route.method === 'GET' && meta.publicCache) return publicRead(asked, answeredBy);
  try {
    let procedureInput: Record<string, unknown>;
    if (BODY_METHODS.has(route.method)) procedureInput = input.fromBody(await readJsonBody(request.whole()), rawPathParams(route, path));
    else procedureInput = input.fromAddress(url, rawPathParams(route, path));
    const context = contextOf();
    const data = await callProcedure(context, answeredBy, procedureInput);
    // HEAD is the GET without its body (RFC 9110): same status and headers, found or not.
    // trpc-to-openapi answered an empty 204 without calling the procedure (docs/architecture.md).
    return privateJson(meta.successStatus ?? 200, request.method === 'HEAD' ? null : JSON.stringify(data), context.resHeaders);
  } catch (error) {
    return contractError(error, where);
  }
}

/**
 * Public catalog reads (GET, `publicCache`): the serialized answer, its ETag and its compressed
 * bodies come from the response cache when the catalog has not changed since they were computed;
 * the input is built only when the procedure is called.
 */
async function publicRead({ request, url, route, path, where, contextOf }: Asked, answeredBy: ProcedureAnswer): Promise<Response | PlainAnswer> {
  try {
    const context = contextOf();
    const compute = async () => publicAnswer(JSON.stringify(await callProcedure(context, answeredBy, answeredBy.input.fromAddress(url, rawPathParams(route, path)))));
    const cache = responseCacheFor(context.db);
    if (!cache) return await publicResponse(request, await compute(), 'off', encodedBody);
    const key = url.pathname + url.search;
    const { answer, hit } = await cache.answer(key, compute);
    return await publicResponse(request, answer, hit ? 'hit' : 'miss', (kept, encoding) => cache.encoded(key, kept, encoding));
  } catch (error) {
    return contractError(error, where);
  }
}

/** Short public caching, revalidated by ETag: a catalog page changes at most with each publish run. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/**
 * A public answer with its caching headers; 304 when the client holds it already; no body for HEAD.
 * A client that accepts gzip or brotli gets the answer's compressed body (`encode`: kept with the
 * answer), which the front then sends as it is.
 */
async function publicResponse(
  request: RequestHead,
  answer: PublicAnswer,
  cache: 'hit' | 'miss' | 'off',
  encode: (answer: PublicAnswer, encoding: Encoding) => Promise<Uint8Array>,
): Promise<PlainAnswer> {
  const headers: Record<string, string> = {
    'cache-control': PUBLIC_CACHE_CONTROL,
    etag: answer.etag,
    vary: 'Accept-Encoding',
    // Whether this instance's response cache answered (the benchmark reports the hit ratio).
    'x-catalog-cache': cache,
  };
  const asked = request.headers.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim() === answer.etag || tag.trim() === '*')) {
    return { status: 304, headers, cookies: [], body: null };
  }
  headers['content-type'] = 'application/json';
  let body: Uint8Array = answer.body;
  const encoding = answer.body.length >= MIN_COMPRESS_BYTES ? chooseEncoding(request.headers.get('accept-encoding') ?? undefined) : undefined;
  if (encoding) {
    body = await encode(answer, encoding);
    headers['content-encoding'] = encoding;
  }
  headers['content-length'] = String(body.length);
  return { status: 200, headers, cookies: [], body: request.method === 'HEAD' ? null : body };
}

/**
 * The JSON body of a POST, PUT or PATCH: at most 64 KiB (413), JSON or no type (415 otherwise),
 * well-formed (400); an empty body is `{}`, so an operation without input needs none.
 */
async function readJsonBody(request: Request): Promise<unknown> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  // curl -d sends a form type by default; a JSON text under it, or under no type, is still taken.
  if (type && type !== 'application/json' && type !== 'application/x-www-form-urlencoded' && !type.endsWith('+json')) {
    throw new DomainError('unsupported_media_type', 'Send the body as JSON (Content-Type: application/json).');
  }
  const bytes = await readBodyAtMost(request, MAX_JSON_BODY_BYTES);
  if (bytes === null) throw new DomainError('payload_too_large', `The request body is larger than ${MAX_JSON_BODY_BYTES / 1024} KiB.`);
  const text = bytes.toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DomainError('invalid_input', 'The request body is not valid JSON.');
  }
}
