import 'server-only';
import { normalizePath } from 'trpc-to-openapi';
import { DomainError } from '@/server/errors';
import { env } from '@/server/env';
import { requestContextOf } from '@/server/http/request-log';
import { baseSecurityHeaders, type PlainAnswer, type RequestHead, type RestRequest } from '@/server/http/answers';
import { runInRequest } from '@/server/logger';
import { nulIssues } from '@/server/api/nul-free';
import { readBodyAtMost } from './body';
import { contractError, errorResponse } from './contract-errors';
import { requestHandlers } from './handlers';
import { documentedProcedures, openApiDocument, servedOpenApiDocument } from './openapi';
import type { Method, RequestHandlerRoute } from './route-types';
import { callOpenApi } from './openapi-handler';
import { createContext } from './context';
import { etagOf } from './response-cache';
import { countAgainstLimit, giveCountBack, STAFF_REQUIRED, type Context, type CountedRequest, type Meta } from './trpc';

const PREFIX = '/v1';
/** No JSON body of this interface comes near this; a larger one is refused before it is parsed. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** Methods whose input is the JSON body (GET and DELETE take theirs from the address). */
const BODY_METHODS = new Set<string>(['POST', 'PUT', 'PATCH']);

/** What every /v1 answer carries: an API answers data, never a page, so its policy allows nothing. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Cross-origin reading of the public catalog (CORS): headers a script may send and read, how long a preflight holds. */
const CORS_ALLOWED_HEADERS = 'If-None-Match, X-Request-Id';
const CORS_EXPOSED_HEADERS = 'ETag, X-Request-Id, X-Catalog-Cache';
const CORS_MAX_AGE_SECONDS = '86400';

/** Short public caching, revalidated by ETag: a catalog page changes at most with each publish run. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/** `client`: the one the request's log context read from the front's headers (so it is read once). */
type MakeContext = (options: { req: RequestHead; client: string }) => Context;
/**
 * What the document says of a method at a path: a procedure (answered by trpc-to-openapi's
 * handler), a hand-written handler, or the document itself. Read from the served document, so an
 * unknown path is a 404 and a known path with another method a 405 with `Allow`, which the
 * library's handler cannot tell apart (it answers 404 for both).
 */
type Operation = { method: Method; answeredBy: { meta: Meta } | { handler: RequestHandlerRoute } | 'document' };

const metaAt = new Map(documentedProcedures.map(({ method, path, meta }) => [`${method} ${normalizePath(path)}`, meta]));
const handlerAt = new Map(requestHandlers.map((handler) => [`${handler.method} ${handler.path}`, handler]));

const documented = Object.entries(openApiDocument().paths ?? {}).map(([path, item]) => {
  const operations = Object.keys(item ?? {}).flatMap((lower): Operation[] => {
    const method = lower.toUpperCase() as Method;
    const key = `${method} ${path}`;
    const meta = metaAt.get(key);
    const handler = handlerAt.get(key);
    if (meta) return [{ method, answeredBy: { meta } }];
    if (handler) return [{ method, answeredBy: { handler } }];
    return path === '/openapi.json' ? [{ method, answeredBy: 'document' }] : [];
  });
  return {
    path,
    operations,
    pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    // Literal segments win over parameters: /artworks/by-slugs is not the artwork "by-slugs".
    literalSegments: path.split('/').filter((s) => s && !s.startsWith('{')).length,
  };
});

/** Every documented operation /v1 answers, and by what (the tests try each). */
export const operations = documented.flatMap(({ path, operations: at }) =>
  at.map(({ method, answeredBy }) => ({
    method,
    path,
    by: answeredBy === 'document' ? ('document' as const) : 'handler' in answeredBy ? ('handler' as const) : ('procedure' as const),
  })),
);

/** The operations at `path`, of the most specific documented path that matches it; empty when none does. */
function operationsAt(path: string): { template: string; operations: Operation[] } | undefined {
  const matches = documented.filter((d) => d.pattern.test(path));
  if (!matches.length) return undefined;
  const best = matches.reduce((a, b) => (b.literalSegments > a.literalSegments ? b : a));
  return { template: best.path, operations: best.operations };
}

/**
 * The /v1 surface: trpc-to-openapi's handler answers every procedure (openapi-handler.ts); this
 * wraps its answer in the contract. Around it: the document's 404 and 405, CORS for the public
 * catalog, HEAD as the GET without its body, the JSON body read within its limit, the contract's
 * error body for every failure (`contractError`), the headers every answer carries, and the
 * public catalog's ETag and caching. Hand-written handlers (raw bytes, the signed webhook, photos)
 * and the document are answered here, behind the same checks.
 */
export async function handleRest(request: Request, makeContext?: MakeContext): Promise<Response> {
  return asResponse(await answerRest({ method: request.method, url: request.url, headers: request.headers, whole: () => request }, makeContext));
}

/**
 * handleRest's answer as the front writes it: the procedures' answers as a PlainAnswer (no fetch
 * Response built and read back), anything else (an error, a hand-written handler's answer, the
 * document) as the Response it is.
 */
export async function answerRest(request: RestRequest, makeContext: MakeContext = createContext): Promise<Response | PlainAnswer> {
  const logged = requestContextOf(request);
  return runInRequest(logged, async () => {
    let context: Context | undefined;
    const contextOf = () => (context ??= { ...makeContext({ req: request, client: logged.client }), keptJson: {} });
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

/** The headers of every /v1 answer: the base security headers, a policy that allows nothing, the request id, CORS for public reads. */
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
  if (!headers.has('cache-control')) headers.set('cache-control', 'private, no-store');
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
function crossOriginReadable(operation: Operation): boolean {
  if (operation.answeredBy === 'document') return true;
  return 'meta' in operation.answeredBy && operation.method === 'GET' && Boolean(operation.answeredBy.meta.publicCache || operation.answeredBy.meta.crossOrigin);
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

async function answer(request: RestRequest, contextOf: () => Context): Promise<{ response: Response | PlainAnswer; crossOrigin: boolean }> {
  const url = new URL(request.url);
  const path = url.pathname.slice(PREFIX.length) || '/';
  const refused = (response: Response) => ({ response, crossOrigin: false });
  const known = operationsAt(path);
  if (!known) return refused(errorResponse('not_found', `There is no endpoint at ${PREFIX}${path}.`));
  if (request.method === 'OPTIONS' && known.operations.some(crossOriginReadable)) return { response: preflight(), crossOrigin: true };
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const operation = known.operations.find((o) => o.method === method);
  if (!operation) {
    const allow = [...new Set(known.operations.map((o) => o.method))].join(', ');
    return refused(errorResponse('method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow }));
  }
  // The shared string rule over the address (hand-written handlers take no procedure input; a
  // procedure's whole input is checked again by the gate).
  const nul = addressNulIssue(url, path);
  if (nul) return refused(nul);
  const where = `${method} ${path}`;
  // A credential is checked whatever the operation, before its body is read: a revoked or unknown
  // key (or a wrong token) is 401, never an anonymous request (decisions.md "Limits and inputs").
  if (request.headers.get('authorization')) {
    try {
      await contextOf().actor();
    } catch (error) {
      return refused(contractError(error, where));
    }
  }
  const { answeredBy } = operation;
  const response =
    answeredBy === 'document'
      ? Response.json(servedOpenApiDocument())
      : 'handler' in answeredBy
        ? await answerByHandler(request.whole(), answeredBy.handler, known.template, path, where, contextOf)
        : await answerByProcedure(request, method, path, answeredBy.meta, where, contextOf);
  return { response, crossOrigin: crossOriginReadable(operation) };
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

/** The path parameters of `path` under `template` (`/orders/{code}` and `/orders/AB12` give code AB12), decoded. */
function pathParams(template: string, path: string): Record<string, string> {
  const values = path.split('/');
  const params: Record<string, string> = {};
  template.split('/').forEach((name, i) => {
    const match = /^\{(.+)\}$/.exec(name);
    if (match && values[i] !== undefined) params[match[1]!] = decodedSegment(values[i]!);
  });
  return params;
}

/** A hand-written handler (raw bytes, the signed webhook, a photo), behind the same staff check and limits as a procedure. */
async function answerByHandler(request: Request, handler: RequestHandlerRoute, template: string, path: string, where: string, contextOf: () => Context): Promise<Response> {
  // A limit that counts only accepted requests (stored photos) gets its count back when the
  // request is refused for what it sent (400, 413, 415), or because photo storage is full (503
  // storage_full: nothing was stored, decisions.md "Storage").
  let counted: CountedRequest | null = null;
  const refundOn = async (status: number, code?: string) => {
    if (counted && (status === 400 || status === 413 || status === 415 || code === 'storage_full')) await giveCountBack(contextOf(), counted);
  };
  try {
    if (handler.staff && (await contextOf().actor()).kind !== 'staff') return errorResponse('unauthorized', STAFF_REQUIRED);
    // A partner's uploads count against its key, the staff's against nothing (countAgainstLimit).
    if (handler.rateLimit) counted = await countAgainstLimit(contextOf(), handler.rateLimit);
    const response = await handler.handle(request, pathParams(template, path), contextOf());
    await refundOn(response.status);
    return response;
  } catch (error) {
    const response = contractError(error, where);
    if (error instanceof DomainError) await refundOn(response.status, error.code);
    return response;
  }
}

/**
 * A procedure's operation, answered by trpc-to-openapi's handler: the JSON body read first (at
 * most 64 KiB, JSON or no type, an empty body `{}`), a failure turned into the contract's body,
 * a public read given its ETag (304 when the client holds it) and caching headers.
 */
async function answerByProcedure(request: RestRequest, method: string, path: string, meta: Meta, where: string, contextOf: () => Context): Promise<Response | PlainAnswer> {
  try {
    const json = BODY_METHODS.has(method) ? await readJsonBody(request.whole()) : undefined;
    const context = contextOf();
    const answer = await callOpenApi(request.whole(), method, path, json, context);
    if (!answer.found) return errorResponse('not_found', `There is no endpoint at ${PREFIX}${path}.`);
    if (answer.failure || answer.status >= 400) return contractError(answer.failure ?? new Error(`${where} answered ${answer.status}`), where);
    const { status, headers, cookies } = answer;
    // A kept public read: its JSON bytes as the response cache keeps them (keptForEveryone).
    const body = context.keptJson?.body ?? answer.body;
    if (method === 'GET' && meta.publicCache) return publicAnswer(request, body, headers);
    return { status, headers, cookies, body: request.method === 'HEAD' ? null : body };
  } catch (error) {
    return contractError(error, where);
  }
}

/**
 * A public answer with its caching headers and ETag (the response cache's, else one made of the
 * body); 304 when the client holds it already; no body for HEAD. Public answers set no cookie.
 */
function publicAnswer(request: RestRequest, body: string | Uint8Array, headers: Record<string, string>): PlainAnswer {
  const etag = headers.etag ?? etagOf(body);
  const out: Record<string, string> = { ...headers, 'cache-control': PUBLIC_CACHE_CONTROL, etag };
  const asked = request.headers.get('if-none-match');
  if (asked && asked.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    delete out['content-type'];
    return { status: 304, headers: out, cookies: [], body: null };
  }
  return { status: 200, headers: out, cookies: [], body: request.method === 'HEAD' ? null : body };
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
