import 'server-only';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { baseSecurityHeaders, internalErrorBody, type PlainAnswer, type RestRequest } from './answers';
import { identityHeaders, isTrustedHop, REQUEST_ID_HEADER, requestIdFrom, resolveClient, type TrustProxy } from './identity';

/**
 * What the shop's server (server.mjs, Next's documented custom server) does with each request
 * before and beside Next, offered to it by src/instrumentation.ts from inside Next's bundle (so the
 * app's code is loaded once per process):
 *
 * - `identify`: names the client (the connection's address, or a trusted proxy's X-Forwarded-For)
 *   and the request once, in headers only this process can have set (identity.ts);
 * - `answerRest`: /v1, answered by trpc-to-openapi's handler (src/server/api/rest.ts) without
 *   Next's router, which costs more per request than a cached catalog read (3,100 against 470
 *   requests/s, measured 2026-11-24);
 * - `answerPage`: everything else, handed to Next's request handler as it is. Next streams and
 *   compresses its answers; src/proxy.ts gives pages their policy.
 *
 * Nothing here compresses (Next does, or the reverse proxy: docs/deploy.md) or touches the
 * methods of Node's request and answer.
 */
export interface ShopServing {
  /** Whether a request's address is the /v1 surface's. */
  isRest(url: string | undefined): boolean;
  identify(req: IncomingMessage): void;
  answerRest(req: IncomingMessage, res: ServerResponse): Promise<void>;
  answerPage(req: IncomingMessage, res: ServerResponse, next: NextHandler): Promise<void>;
}

/** Next's request handler (`app.getRequestHandler()`); tests pass a stand-in. */
export type NextHandler = (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | unknown;

/** What serving reads of the configuration (a subset of src/server/env.ts's Env). */
export interface ServingSettings {
  /** Which proxies' X-Forwarded-For and X-Forwarded-Proto are believed (identity.ts). */
  TRUST_PROXY: TrustProxy;
  PUBLIC_BASE_URL?: string;
}

export interface ServingOptions {
  /** The /v1 surface: `answerRest` of src/server/api/rest.ts. */
  rest: (request: RestRequest) => Promise<Response | PlainAnswer>;
  settings: ServingSettings;
  /** Where a failure the client cannot be told about goes (the log). */
  onError?: (error: unknown, where: string) => void;
}

/** `/v1`, `/v1/…` and `/v1?…`; not `/v1beta`. */
const restAddress = /^\/v1(?:[/?#]|$)/;

/** /v1 answers up to this size that say their length are buffered rather than streamed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export function createServing(options: ServingOptions): ShopServing {
  const { settings } = options;
  const security = baseSecurityHeaders(settings);
  const onError = options.onError ?? (() => {});

  return {
    isRest: (url) => restAddress.test(url ?? ''),

    identify(req) {
      // Downstream (rate limits, logs, Next's pages) reads these, never what the client claimed:
      // they overwrite whatever the client sent under these names.
      const client = resolveClient(req.socket.remoteAddress, req.headers['x-forwarded-for'], settings.TRUST_PROXY);
      Object.assign(req.headers, identityHeaders(client));
      req.headers[REQUEST_ID_HEADER] = requestIdFrom(firstValue(req.headers[REQUEST_ID_HEADER]));
    },

    async answerRest(req, res) {
      // handleRest sets its own X-Request-Id and security headers, the same whether this or Next's
      // route handler (npm run dev) calls it.
      try {
        const answer = await options.rest(toRestRequest(req, settings));
        settleUnreadBody(req, res);
        if (answer instanceof Response) await writeFetchResponse(req, res, answer);
        else writePlainAnswer(req, res, answer);
      } catch (error) {
        // A client that went away mid-answer is not a failure of ours.
        if (res.destroyed && res.headersSent) return;
        onError(error, `${req.method} ${req.url}`);
        if (res.headersSent) return void res.destroy();
        settleUnreadBody(req, res);
        const requestId = firstValue(req.headers[REQUEST_ID_HEADER]) ?? '';
        res.writeHead(500, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Cache-Control': 'private, no-store' });
        res.end(JSON.stringify(internalErrorBody(requestId)));
      }
    },

    async answerPage(req, res, next) {
      if (restAddress.test(req.url ?? '')) {
        // /v1 through Next's route handler (npm run dev) sets its own headers, as in production,
        // and goes out uncompressed, as in production: Next compresses what the client accepts.
        delete req.headers['accept-encoding'];
      } else {
        res.setHeader('X-Request-Id', firstValue(req.headers[REQUEST_ID_HEADER]) ?? '');
        for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
        // Pictures are what partners and the showcase's readers embed on their own pages.
        if (req.url?.startsWith('/images/')) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
        // Pages say frame-ancestors in their policy; this covers everything else Next answers.
        res.setHeader('X-Frame-Options', 'DENY');
      }
      keepConnectionInStep(req, res);
      try {
        await next(req, res);
      } catch (error) {
        onError(error, `${req.method} ${req.url}`);
        if (res.headersSent) return void res.destroy();
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('Internal Server Error');
      }
    },
  };
}

/**
 * What may be read and thrown away of a body answered early (413, 415, 401 before it was read) so
 * the connection can stay open: the largest JSON body the shop takes. A client may have up to
 * 20 MiB of upload still coming; reading that for nothing would cost more than a new connection.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024;

/**
 * A body Next's route handlers may answer before reading it all (the website's tRPC at its 64 KiB
 * limit, a staff photo refused for its type): the rest of it must never be read as the next request
 * on a kept-alive connection. Next writes its answer's head when it likes, so this decides before:
 * a body of unknown length or larger than DRAIN_LIMIT_BYTES ends its connection after the answer
 * (said up front with `Connection: close`); a smaller one is drained after the answer, the
 * connection kept.
 */
function keepConnectionInStep(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.complete) return;
  const declared = Number(req.headers['content-length']);
  const known = req.headers['transfer-encoding'] === undefined && Number.isSafeInteger(declared);
  if (known && declared === 0) return;
  if (!known || declared > DRAIN_LIMIT_BYTES) {
    res.setHeader('Connection', 'close');
    return;
  }
  res.once('finish', () => {
    if (!req.complete) req.resume();
  });
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The origin a request was addressed to, as a fetch Request needs one: its Host, else the shop's. */
function originOf(req: IncomingMessage, settings: ServingSettings): string {
  const forwardedProto = firstValue(req.headers['x-forwarded-proto'])?.split(',')[0]?.trim();
  // Believed only from a trusted proxy: the connection's own peer.
  const scheme = forwardedProto === 'https' && isTrustedHop(req.socket.remoteAddress ?? '', 0, settings.TRUST_PROXY) ? 'https' : 'http';
  const host = req.headers.host;
  if (host) {
    try {
      return new URL(`${scheme}://${host}`).origin;
    } catch {
      // a malformed Host: fall through
    }
  }
  return settings.PUBLIC_BASE_URL ? new URL(settings.PUBLIC_BASE_URL).origin : 'http://localhost';
}

/** What is known of a request body streamed to /v1. */
interface BodyState {
  /** Bytes received from the client so far. */
  received: number;
  /** The handler is done with the body (it cancelled the stream, or answered without reading it all). */
  abandoned: boolean;
}
const bodies = new WeakMap<IncomingMessage, BodyState>();

/**
 * The request body as a web stream. Unlike Readable.toWeb, cancelling it (a handler that stops at a
 * limit) does not destroy the request: the unread rest stays to drain or cut (settleUnreadBody).
 * Destroying it mid-body left the kept-alive connection with a parser out of step: the next
 * request on it got a 400 or nothing at all.
 */
function requestBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  const state: BodyState = { received: 0, abandoned: false };
  bodies.set(req, state);
  let listening = false;
  const settle = (finish: () => void) => {
    if (state.abandoned) return;
    state.abandoned = true;
    try {
      finish();
    } catch {
      // already closed by a cancel
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!listening) {
          listening = true;
          req.on('data', (chunk: Buffer) => {
            state.received += chunk.length;
            if (state.abandoned) return;
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 0) <= 0) req.pause();
          });
          req.once('end', () => settle(() => controller.close()));
          req.once('error', (error) => settle(() => controller.error(error)));
          req.once('close', () => {
            if (!req.complete) settle(() => controller.error(new Error('the client closed the connection mid-body')));
          });
        }
        req.resume();
      },
      cancel() {
        state.abandoned = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
}

/**
 * Before an answer goes out: when part of the request body is still unread, the rest is drained
 * (at most DRAIN_LIMIT_BYTES, and only when Content-Length says how much is left) and the
 * connection kept; otherwise the answer says `Connection: close` and Node ends the connection after
 * it. Either way the next request on the connection starts where the client meant it to, never in
 * the middle of this body.
 */
function settleUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const state = bodies.get(req);
  if (state) state.abandoned = true;
  const declared = Number(req.headers['content-length']);
  const left = req.headers['transfer-encoding'] === undefined && Number.isSafeInteger(declared) ? declared - (state?.received ?? 0) : Infinity;
  if (left > DRAIN_LIMIT_BYTES) res.setHeader('Connection', 'close');
  // Read and discard what comes meanwhile (a kept connection needs all of it; a closing one reads
  // on until the answer is out, so the client is not reset while it still sends).
  req.resume();
}

/** The IncomingMessage as /v1 reads it: its head, and the fetch Request (the body streamed, never read here) when asked. */
function toRestRequest(req: IncomingMessage, settings: ServingSettings): RestRequest {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', originOf(req, settings)).href;
  let whole: Request | undefined;
  return {
    method,
    url,
    headers,
    whole() {
      const hasBody = method !== 'GET' && method !== 'HEAD';
      whole ??= new Request(url, {
        method,
        headers,
        body: hasBody ? requestBody(req) : undefined,
        // Node's fetch needs this for a streamed request body.
        ...(hasBody ? { duplex: 'half' } : {}),
      } as RequestInit);
      return whole;
    },
  };
}

const hasNoBody = (req: IncomingMessage, status: number) => req.method === 'HEAD' || status === 204 || status === 304;

/** Writes a PlainAnswer to `res`: status, headers (each Set-Cookie apart) and the whole body with its length. */
function writePlainAnswer(req: IncomingMessage, res: ServerResponse, answer: PlainAnswer): void {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.cookies.length) res.setHeader('Set-Cookie', answer.cookies);
  if (answer.body === null || hasNoBody(req, answer.status)) return void res.end();
  res.setHeader('Content-Length', typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.byteLength);
  res.end(answer.body);
}

/** Writes a fetch Response to `res`: status, headers (each Set-Cookie apart), the body whole when it says a modest length, else streamed. */
async function writeFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('Set-Cookie', cookies);
  if (!response.body || hasNoBody(req, response.status)) {
    await response.body?.cancel();
    return void res.end();
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared <= MAX_BUFFERED_BYTES) {
    // Read whole and written in one go: far cheaper per request than a stream pipeline.
    res.end(Buffer.from(await response.arrayBuffer()));
    return;
  }
  await pipeline(Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>), res);
}

/**
 * Stopping an instance behind a load balancer (server.mjs, on SIGTERM): stop accepting
 * connections, let the requests in flight finish, close each kept-alive connection as soon as it is
 * idle, and give up on stragglers after `graceMs`. Resolves true when every request finished in time.
 */
export function gracefulStop(server: Server, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // A request that still arrives on an open kept-alive connection is answered, then that
    // connection ends, so the balancer retries elsewhere.
    server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
    // Answers in flight leave their connections idle when they finish: close those as they appear.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      server.closeAllConnections();
      done(false);
    }, graceMs);
    const done = (clean: boolean) => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve(clean);
    };
    server.close(() => done(true));
    server.closeIdleConnections();
  });
}
