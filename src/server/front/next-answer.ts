import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compressBuffer, compressor, isCompressible, MIN_COMPRESS_BYTES, varyWithEncoding, type Encoding } from './compress';

type Mode = 'undecided' | 'page' | 'plain' | 'compressed';
type Callback = (error?: Error | null) => void;

/**
 * Takes over what Next writes to `res` so the front can finish each answer:
 * - an HTML page is held back whole, then sent with the header `policyFor(html)` computes (the
 *   Content-Security-Policy with its script hashes) and, when the client accepts it, compressed;
 * - anything else (static files, RSC payloads, route handlers) streams through untouched, or through
 *   a compressor when its type compresses well and the client accepts an encoding.
 * Next decides its headers before its first write, so the choice is made at the first writeHead,
 * write, end or flushHeaders.
 */
export function shapeNextAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  options: { encoding: Encoding | undefined; pageHeaders: (html: Buffer) => Record<string, string> },
): void {
  const writeHead = res.writeHead.bind(res) as (status: number) => ServerResponse;
  const write = res.write.bind(res) as (chunk: unknown, encoding?: BufferEncoding, callback?: Callback) => boolean;
  const end = res.end.bind(res) as (chunk?: unknown, encoding?: BufferEncoding, callback?: () => void) => ServerResponse;
  const flushHeaders = res.flushHeaders.bind(res);

  let mode: Mode = 'undecided';
  // Set once the front lets Node write the head: from then on writeHead is Node's own again (Node
  // itself calls res.writeHead when the first write comes without one).
  let headOpen = false;
  const held: Buffer[] = [];
  let squeezer: ReturnType<typeof compressor> | undefined;

  const decide = () => {
    if (mode !== 'undecided') return;
    // Next answers before the whole body arrived (a route handler's 413 at its body limit, which
    // stops reading): the connection ends after this answer, so the body's rest is never taken for
    // the next request on it.
    if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
    const type = String(res.getHeader('content-type') ?? '');
    const noBody = req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304;
    const encoded = res.hasHeader('content-encoding');
    if (/^text\/html\b/i.test(type) && !noBody && !encoded) {
      mode = 'page';
      return;
    }
    headOpen = true;
    if (isCompressible(type)) res.setHeader('Vary', varyWithEncoding(res.getHeader('vary')));
    const length = Number(res.getHeader('content-length') ?? Infinity);
    const noTransform = /\bno-transform\b/i.test(String(res.getHeader('cache-control') ?? ''));
    if (options.encoding && isCompressible(type) && !noBody && !encoded && !noTransform && length >= MIN_COMPRESS_BYTES) {
      mode = 'compressed';
      res.removeHeader('content-length');
      res.setHeader('Content-Encoding', options.encoding);
      squeezer = compressor(options.encoding);
      squeezer.on('data', (chunk: Buffer) => write(chunk));
      squeezer.on('error', (error) => res.destroy(error));
    } else {
      mode = 'plain';
    }
  };

  res.writeHead = function (this: ServerResponse, status: number, reasonOrHeaders?: unknown, maybeHeaders?: unknown) {
    if (headOpen) return (writeHead as (...args: unknown[]) => ServerResponse)(status, reasonOrHeaders, maybeHeaders);
    // Fold what Next passes here into the response's headers, so the choice (and the page's
    // policy) sees every header, then write the head from those.
    res.statusCode = status;
    if (typeof reasonOrHeaders === 'string') res.statusMessage = reasonOrHeaders;
    const headers = (typeof reasonOrHeaders === 'string' ? maybeHeaders : reasonOrHeaders) as OutgoingHttpHeaders | unknown[] | undefined;
    if (Array.isArray(headers)) {
      if (Array.isArray(headers[0])) for (const [name, value] of headers as [string, string][]) res.appendHeader(name, value);
      else for (let i = 0; i + 1 < headers.length; i += 2) res.appendHeader(String(headers[i]), headers[i + 1] as string);
    } else if (headers) {
      for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    }
    decide();
    return mode === 'page' ? res : writeHead(res.statusCode);
  } as ServerResponse['writeHead'];

  res.write = function (chunk: unknown, encodingOrCallback?: BufferEncoding | Callback, callback?: Callback) {
    decide();
    const [encoding, done] = typeof encodingOrCallback === 'function' ? [undefined, encodingOrCallback] : [encodingOrCallback, callback];
    if (mode === 'plain') return write(chunk, encoding, done);
    const buffer = toBuffer(chunk, encoding);
    if (mode === 'page') {
      held.push(buffer);
      if (done) process.nextTick(done);
      return true;
    }
    // Compressed: the compressor's backpressure is Next's backpressure ('drain' comes from res).
    const ok = squeezer!.write(buffer, done);
    if (!ok) squeezer!.once('drain', () => res.emit('drain'));
    return ok;
  } as ServerResponse['write'];

  res.end = function (chunk?: unknown, encodingOrCallback?: BufferEncoding | (() => void), callback?: () => void) {
    if (typeof chunk === 'function') [chunk, encodingOrCallback, callback] = [undefined, undefined, chunk as () => void];
    const [encoding, done] = typeof encodingOrCallback === 'function' ? [undefined, encodingOrCallback] : [encodingOrCallback, callback];
    decide();
    if (mode === 'plain') return end(chunk, encoding, done);
    if (chunk !== undefined && chunk !== null) held.push(toBuffer(chunk, encoding));
    if (mode === 'compressed') {
      squeezer!.once('end', () => end(undefined, undefined, done));
      squeezer!.end(held.length ? Buffer.concat(held.splice(0)) : undefined);
      return res;
    }
    void finishPage(Buffer.concat(held.splice(0)), done);
    return res;
  } as ServerResponse['end'];

  res.flushHeaders = function () {
    decide();
    // A page's head waits for its body: its policy depends on it.
    if (mode !== 'page') flushHeaders();
  };

  async function finishPage(html: Buffer, done: (() => void) | undefined) {
    try {
      for (const [name, value] of Object.entries(options.pageHeaders(html))) res.setHeader(name, value);
      res.setHeader('Vary', varyWithEncoding(res.getHeader('vary')));
      let body = html;
      if (options.encoding && html.length >= MIN_COMPRESS_BYTES) {
        body = await compressBuffer(html, options.encoding);
        res.setHeader('Content-Encoding', options.encoding);
      }
      res.setHeader('Content-Length', body.length);
      headOpen = true;
      end(body, undefined, done);
    } catch (error) {
      res.destroy(error as Error);
    }
  }
}

function toBuffer(chunk: unknown, encoding: BufferEncoding | undefined): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError('Unexpected chunk type written to the response');
}
