import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { compressBuffer, isCompressible, MIN_COMPRESS_BYTES, varyWithEncoding, type Encoding } from './compress';
import { pageCacheBytes } from './page-cache-size';

/**
 * Next compresses every answer on every request (`compress` in next.config.mjs), a page from its
 * cache as much as one it just rendered: about 0.8 ms of the ~2.5 ms a cached page costs
 * (docs/benchmarks/compression-2026-11-25.md), and only in gzip. A page Next serves whole from its
 * cache (ISR: the `x-nextjs-cache` header, the ETag of its payload) is compressed here instead,
 * once per version and coding, and the compressed bytes are kept for the next client.
 *
 * The seam is the one Next's compression itself leaves: an answer that already says its
 * `Content-Encoding` is passed through untouched. When Next names the ETag of a cached page, the
 * front says the encoding, takes the body Next writes, and sends the kept (or newly compressed)
 * bytes with their length. Everything else (a streamed render, static files, route handlers, a
 * client without gzip or brotli, HEAD) is Next's, compressed by Next as before.
 */
export class CompressedPages {
  private readonly bodies = new Map<string, Buffer>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const body = this.bodies.get(key);
    if (body) {
      // Map order is the recency order.
      this.bodies.delete(key);
      this.bodies.set(key, body);
    }
    return body;
  }

  set(key: string, body: Buffer): void {
    if (body.length > this.maxBytes / 8 || this.bodies.has(key)) return;
    this.bodies.set(key, body);
    this.bytes += body.length;
    for (const [oldKey, old] of this.bodies) {
      if (this.bytes <= this.maxBytes) break;
      this.bodies.delete(oldKey);
      this.bytes -= old.length;
    }
  }

  size(): { entries: number; bytes: number } {
    return { entries: this.bodies.size, bytes: this.bytes };
  }
}

/** The memory for compressed pages: a quarter of the page cache's. A page compresses to about a sixth of its HTML, kept in at most two codings. */
export function compressedPagesBytes(env: NodeJS.ProcessEnv = process.env): number {
  return pageCacheBytes(env) / 4;
}

type WriteCallback = (error?: Error | null) => void;

function toBuffer(chunk: unknown, encoding?: BufferEncoding): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk), encoding);
}

/**
 * Readies `res` for Next: if Next answers with a cached page (it sets `x-nextjs-cache`, then the
 * payload's ETag), the page goes out compressed in `encoding` from `kept`. Must run before Next's
 * own compression wraps `res`, so that its pass-through lands here.
 */
export function compressCachedPage(req: IncomingMessage, res: ServerResponse, encoding: Encoding | undefined, kept: CompressedPages, onError: (error: unknown) => void): void {
  if (!encoding || req.method !== 'GET') return;
  const setHeader = res.setHeader.bind(res);
  res.setHeader = function (name: string, value: number | string | readonly string[]) {
    if (name.toLowerCase() === 'etag' && res.getHeader('x-nextjs-cache') !== undefined && !res.headersSent) {
      res.setHeader = setHeader;
      holdBody(req, res, `${req.url} ${String(value)} ${encoding}`, encoding, kept, onError);
    }
    return setHeader(name, value);
  } as ServerResponse['setHeader'];
}

/** From here on the body is collected, then sent compressed (or plain, if it turns out not to be a 200 worth compressing). */
function holdBody(req: IncomingMessage, res: ServerResponse, key: string, encoding: Encoding, kept: CompressedPages, onError: (error: unknown) => void): void {
  // What answers for real once the body is in: by now Next's compression has wrapped these.
  const writeHead = res.writeHead.bind(res);
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  // Next's compression looks for this when the head goes out, and then leaves the body alone.
  res.setHeader('Content-Encoding', encoding);
  const chunks: Buffer[] = [];
  let status: number | undefined;
  let headersGiven: OutgoingHttpHeaders | undefined;
  let ended = false;

  res.writeHead = function (statusCode: number, ...rest: unknown[]) {
    status = statusCode;
    const headers = rest.find((r) => r !== null && typeof r === 'object');
    if (headers && !Array.isArray(headers)) headersGiven = headers as OutgoingHttpHeaders;
    return res;
  } as ServerResponse['writeHead'];
  res.write = function (chunk: unknown, encodingOrCallback?: BufferEncoding | WriteCallback, callback?: WriteCallback) {
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    chunks.push(toBuffer(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined));
    if (done) process.nextTick(done);
    return true;
  } as ServerResponse['write'];
  res.end = function (chunk?: unknown, encodingOrCallback?: BufferEncoding | (() => void), callback?: () => void) {
    if (ended) return res;
    ended = true;
    if (typeof chunk === 'function') {
      callback = chunk as () => void;
      chunk = undefined;
    }
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, typeof encodingOrCallback === 'string' ? encodingOrCallback : undefined));
    void send().then(done, (error: unknown) => {
      onError(error);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.removeHeader('Content-Encoding');
        res.removeHeader('Content-Length');
      }
      res.end();
    });
    return res;
  } as ServerResponse['end'];

  async function send() {
    // Everything below writes for real.
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
    for (const [name, value] of Object.entries(headersGiven ?? {})) if (value !== undefined) res.setHeader(name, value);
    const statusCode = status ?? res.statusCode;
    const body = Buffer.concat(chunks);
    const type = res.getHeader('content-type');
    if (statusCode !== 200 || !isCompressible(typeof type === 'string' ? type : undefined) || body.length < MIN_COMPRESS_BYTES) {
      // A 304 for the same ETag, or nothing worth compressing: as Next would have sent it.
      res.removeHeader('Content-Encoding');
      if (statusCode === 200) res.setHeader('Content-Length', body.length);
      res.writeHead(statusCode);
      res.end(body.length ? body : undefined);
      return;
    }
    let compressed = kept.get(key);
    if (!compressed) {
      compressed = await compressBuffer(body, encoding);
      kept.set(key, compressed);
    }
    if (res.destroyed) return;
    // One ETag for every coding of the page, so a weak one (RFC 9110 8.8.3.3); Next's freshness
    // check takes it back (If-None-Match: W/"…" matches "…").
    const etag = res.getHeader('etag');
    if (typeof etag === 'string' && !etag.startsWith('W/')) res.setHeader('ETag', `W/${etag}`);
    res.setHeader('Vary', varyWithEncoding(res.getHeader('vary')));
    res.setHeader('Content-Length', compressed.length);
    res.writeHead(statusCode);
    res.end(compressed);
  }
}
