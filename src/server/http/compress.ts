import 'server-only';
import zlib from 'node:zlib';

/**
 * Compression of /v1 answers, which the front answers without Next (Next compresses its pages
 * itself: `compress` in next.config.mjs). Public catalog answers are compressed once and kept with
 * the answer (src/server/api/response-cache.ts); the front compresses the rest on the way out
 * (src/front/compress.ts says which answers shrink).
 */
export type Encoding = 'br' | 'gzip';

/** Below this a compressed answer saves less than its own headers and CPU cost. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * The encoding to answer in, from the request's Accept-Encoding: brotli when accepted, else gzip,
 * else none. A coding listed with `q=0` is refused; `*` stands for any coding not listed.
 */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: Encoding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return undefined;
}

/**
 * How hard to compress. `request`: a request waits for it (a kept catalog answer or page is
 * compressed once, by its first client; anything else on every request), so brotli at a middle
 * quality, near gzip's speed and smaller. `build`: once, when the site is built, where the best
 * qualities' seconds cost no request anything.
 */
export type Effort = 'request' | 'build';
const options: Record<Effort, { br: zlib.BrotliOptions; gzip: zlib.ZlibOptions }> = {
  request: { br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }, gzip: { level: 6 } },
  build: { br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }, gzip: { level: 9 } },
};

/** A streaming compressor for an answer whose length is not known up front. */
export function compressor(encoding: Encoding): zlib.BrotliCompress | zlib.Gzip {
  return encoding === 'br' ? zlib.createBrotliCompress(options.request.br) : zlib.createGzip(options.request.gzip);
}

/** Compresses a whole buffered answer (a page) on libuv's thread pool. */
export function compressBuffer(body: Buffer, encoding: Encoding, effort: Effort = 'request'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'br') zlib.brotliCompress(body, options[effort].br, done);
    else zlib.gzip(body, options[effort].gzip, done);
  });
}
