import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { baseSecurityHeaders, internalErrorBody, type PlainAnswer, type RestRequest } from '@/server/http/answers';
import { chooseEncoding, compressBuffer, compressor, MIN_COMPRESS_BYTES } from '@/server/http/compress';
import { frontHeaders, isTrustedHop, REQUEST_ID_HEADER, requestIdFrom, resolveClient, type TrustProxy } from '@/server/http/identity';
import { isCompressible, varyWithEncoding } from './compress';
import { answerStatic, STATIC_PREFIX, type StaticAssets } from './static-assets';

/** What the front reads of the configuration (a subset of src/server/env.ts's Env, handed over by the app). */
export interface FrontSettings {
  /** Which proxies' X-Forwarded-For and X-Forwarded-Proto are believed (identity.ts). */
  TRUST_PROXY: TrustProxy;
  PUBLIC_BASE_URL?: string;
}

export interface FrontOptions {
  /** Next's request handler (`app.getRequestHandler()`); tests pass a stand-in. */
  next: (req: IncomingMessage, res: ServerResponse) => Promise<unknown> | unknown;
  /**
   * The /v1 surface (`handleRest`), answered by the front itself; without it (`npm run dev`, where
   * Next reloads the app's code on every change) /v1 goes to Next's route handler, which calls the
   * same function.
   */
  rest?: (request: RestRequest) => Promise<Response | PlainAnswer>;
  /** The build's precompressed client files (static-assets.ts), answered by the front; the rest of /_next/static is Next's. */
  staticAssets?: StaticAssets;
  settings: FrontSettings;
  /** Where a failure the client cannot be told about goes (the log). */
  onError?: (error: unknown, where: string) => void;
}

/** /v1 answers up to this size that say their length are buffered rather than streamed. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

export const isRestPath = (pathname: string) => pathname === '/v1' || pathname.startsWith('/v1/');

/**
 * The production front: one node:http handler in front of Next (a custom server, as Next
 * documents it), never reaching into Next's answers. It
 * names the client and the request once, sets the headers every answer carries, answers /v1 itself
 * (Next's router costs more per request than a cached catalog read) and the build's precompressed
 * scripts and styles (static-assets.ts), and hands everything else to Next: Next streams and
 * compresses its pages,
 * and src/proxy.ts gives them their policy.
 */
export function createFront(options: FrontOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { settings } = options;
  const security = baseSecurityHeaders(settings);
  const onError = options.onError ?? (() => {});

  return async (req, res) => {
    // Downstream (rate limits, logs, Next's pages) reads these two, never what the client claimed.
    const client = resolveClient(req.socket.remoteAddress, req.headers['x-forwarded-for'], settings.TRUST_PROXY);
    const requestId = requestIdFrom(firstValue(req.headers[REQUEST_ID_HEADER]));
    // Overwrites what the client sent under these names, so only the front's values pass on.
    Object.assign(req.headers, frontHeaders(client));
    req.headers[REQUEST_ID_HEADER] = requestId;

    const pathname = pathOf(req.url);
    if (options.rest && pathname !== undefined && isRestPath(pathname)) {
      // handleRest sets its own X-Request-Id and security headers, the same whether the front or
      // Next's route handler (npm run dev) calls it. Its answers go out as they are: compressing
      // is the reverse proxy's (docs/deploy.md), never our code's (issue 40).
      const encoding = undefined;
      try {
        const answer = await options.rest(toRestRequest(req, settings));
        settleUnreadBody(req, res);
        if (answer instanceof Response) await writeFetchResponse(req, res, answer, encoding);
        else await writePlainAnswer(req, res, answer, encoding);
      } catch (error) {
        // A client that went away mid-answer is not a failure of ours.
        if (res.destroyed && res.headersSent) return;
        onError(error, `${req.method} ${pathname}`);
        if (!res.headersSent) {
          settleUnreadBody(req, res);
          res.writeHead(500, { 'Content-Type': 'application/json', 'X-Request-Id': requestId, 'Cache-Control': 'private, no-store' });
          res.end(JSON.stringify(internalErrorBody(requestId)));
        } else {
          res.destroy();
        }
      }
      return;
    }

    res.setHeader('X-Request-Id', requestId);
    for (const [name, value] of Object.entries(security)) res.setHeader(name, value);
    // Pages say frame-ancestors in their policy; this covers everything else Next answers.
    res.setHeader('X-Frame-Options', 'DENY');
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    if (options.staticAssets && pathname?.startsWith(STATIC_PREFIX) && answerStatic(options.staticAssets, req, res, pathname, encoding)) return;
    keepConnectionInStep(req, res);
    try {
      await options.next(req, res);
    } catch (error) {
      onError(error, `${req.method} ${pathname ?? req.url}`);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('Internal Server Error');
      } else {
        res.destroy();
      }
    }
  };
}

/**
 * A body Next's route handlers may answer before reading it all (the website's tRPC at its 64 KiB
 * limit, a staff photo refused for its type): the rest of it must never be read as the next request
 * on a kept-alive connection. The front cannot see when Next writes its head, so it decides before:
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

function pathOf(url: string | undefined): string | undefined {
  try {
    return new URL(url ?? '/', 'http://front.invalid').pathname;
  } catch {
    return undefined;
  }
}

/** The origin a request was addressed to, as a fetch Request needs one: its Host, else the shop's. */
function originOf(req: IncomingMessage, settings: FrontSettings): string {
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

/** What the front knows of a request body it streams to /v1. */
interface BodyState {
  /** Bytes received from the client so far. */
  received: number;
  /** The handler is done with the body (it cancelled the stream, or answered without reading it all). */
  abandoned: boolean;
}
const bodies = new WeakMap<IncomingMessage, BodyState>();

/**
 * The request body as a web stream. Unlike Readable.toWeb, cancelling it (a handler that stops at a
 * limit) does not destroy the request: the unread rest stays the front's to drain or cut
 * (settleUnreadBody). Destroying it mid-body left the kept-alive connection with a parser out of
 * step: the next request on it got a 400 or nothing at all.
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
 * What the front may read and throw away of a body answered early (413, 415, 401 before it was
 * read) so the connection can stay open: the largest JSON body the shop takes. A client may have
 * up to 20 MiB of upload still coming; reading that for nothing would cost more than a new connection.
 */
export const DRAIN_LIMIT_BYTES = 64 * 1024;

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
export function toRestRequest(req: IncomingMessage, settings: FrontSettings): RestRequest {
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

/** Writes a PlainAnswer to `res`: status, headers (each Set-Cookie apart), the body compressed when worth it. */
export async function writePlainAnswer(req: IncomingMessage, res: ServerResponse, answer: PlainAnswer, encoding: ReturnType<typeof chooseEncoding>): Promise<void> {
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (answer.cookies.length) res.setHeader('Set-Cookie', answer.cookies);
  const compressible = isCompressible(answer.headers['content-type']);
  if (compressible) res.setHeader('Vary', varyWithEncoding(res.getHeader('vary')));
  if (answer.body === null || req.method === 'HEAD' || answer.status === 204 || answer.status === 304) {
    res.end();
    return;
  }
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength);
  await endWhole(res, body, compressible && !answer.headers['content-encoding'] ? encoding : undefined);
}

/** Ends `res` with a whole body and its length, compressed in `encoding` when given and worth it. */
async function endWhole(res: ServerResponse, body: Buffer, encoding: ReturnType<typeof chooseEncoding>): Promise<void> {
  if (encoding && body.length >= MIN_COMPRESS_BYTES) {
    body = await compressBuffer(body, encoding);
    res.setHeader('Content-Encoding', encoding);
  }
  res.setHeader('Content-Length', body.length);
  res.end(body);
}

/** Writes a fetch Response to `res`: status, headers (each Set-Cookie apart), body streamed and compressed when worth it. */
export async function writeFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response, encoding: ReturnType<typeof chooseEncoding>): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('Set-Cookie', cookies);

  const type = response.headers.get('content-type') ?? undefined;
  if (isCompressible(type)) res.setHeader('Vary', varyWithEncoding(res.getHeader('vary')));
  if (!response.body || req.method === 'HEAD' || response.status === 204 || response.status === 304) {
    await response.body?.cancel();
    res.end();
    return;
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const compress = Boolean(encoding && isCompressible(type) && !response.headers.has('content-encoding'));
  if (declared <= MAX_BUFFERED_BYTES) {
    // A body of known, modest size (a hand-written handler's that says its length): read whole and
    // written in one go, which costs far less per request than a stream pipeline.
    await endWhole(res, Buffer.from(await response.arrayBuffer()), compress ? encoding : undefined);
    return;
  }
  const reader = (response.body as unknown as WebReadableStream<Uint8Array>).getReader();
  // Most answers do not say their length (Response.json): read up to the threshold first, so a small
  // error body goes out as it is instead of growing under gzip's framing.
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  if (!(declared >= MIN_COMPRESS_BYTES)) {
    while (headBytes < MIN_COMPRESS_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      head.push(value);
      headBytes += value.byteLength;
    }
  }
  if (ended) {
    res.setHeader('Content-Length', headBytes);
    res.end(Buffer.concat(head));
    return;
  }
  const body = Readable.from(
    (async function* () {
      try {
        yield* head;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          yield value;
        }
      } finally {
        await reader.cancel().catch(() => {});
      }
    })(),
    { objectMode: false },
  );
  if (compress) {
    res.removeHeader('content-length');
    res.setHeader('Content-Encoding', encoding!);
    await pipeline(body, compressor(encoding!), res);
  } else {
    await pipeline(body, res);
  }
}
