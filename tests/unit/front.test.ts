import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { chooseEncoding, isCompressible, varyWithEncoding } from '@/server/front/compress';
import { createFront, type FrontOptions } from '@/server/front/front';
import { gracefulStop } from '@/server/front/shutdown';
import { clientOf } from '@/server/http/client';

// The front's request handling on a real node:http server on 127.0.0.1, with stand-ins for Next's
// handler and the /v1 handler (the real ones run behind it in the end-to-end suite).

const settings = { TRUST_PROXY: false, GOOGLE_ISSUER: 'https://accounts.google.com' };
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function start(options: Partial<FrontOptions>): Promise<{ port: number; server: http.Server }> {
  const front = createFront({
    next: options.next ?? ((_req, res) => void res.end('next')),
    rest: options.rest ?? (async () => Response.json({ ok: true })),
    settings: options.settings ?? settings,
    onError: options.onError,
  });
  const server = http.createServer((req, res) => void front(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, server };
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
function call(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunks?: string[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    // Several writes without a length: sent with Transfer-Encoding: chunked.
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end(options.body);
  });
}

const sha = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

test('/v1 goes to the REST handler with the client and request id the front resolved, overwriting what the client sent', async () => {
  const seen: Request[] = [];
  const { port } = await start({
    rest: async (request) => {
      seen.push(request);
      return Response.json({ ok: true });
    },
    next: () => {
      throw new Error('Next must not see /v1');
    },
  });
  const answer = await call(port, '/v1/artists?page=2', { headers: { 'x-shop-client': '203.0.113.9', 'x-shop-front': 'forged', 'x-request-id': 'lb-request-0001', 'x-forwarded-for': '198.51.100.7' } });
  expect(answer.status).toBe(200);
  expect(seen[0]!.headers.get('x-shop-client')).toBe('127.0.0.1');
  // The front's proof travels with it, so downstream trusts this value and no client's own claim.
  expect(clientOf(seen[0]!.headers)).toBe('127.0.0.1');
  expect(seen[0]!.headers.get('x-request-id')).toBe('lb-request-0001');
  expect(new URL(seen[0]!.url).pathname + new URL(seen[0]!.url).search).toBe('/v1/artists?page=2');

  await call(port, '/v1', { headers: { 'x-request-id': 'bad id with spaces' } });
  expect(seen[1]!.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(seen[1]!.url).toMatch(/\/v1$/);
  // Paths that only start like /v1 are pages.
  await call(port, '/v1beta');
  expect(seen).toHaveLength(2);
});

test('behind a trusted proxy the client is the last X-Forwarded-For entry, and the scheme its X-Forwarded-Proto', async () => {
  const seen: Request[] = [];
  const { port } = await start({
    settings: { ...settings, TRUST_PROXY: true },
    rest: async (request) => {
      seen.push(request);
      return new Response(null, { status: 204 });
    },
  });
  await call(port, '/v1/health', { headers: { 'x-forwarded-for': '10.0.0.1, 198.51.100.7', 'x-forwarded-proto': 'https' } });
  expect(seen[0]!.headers.get('x-shop-client')).toBe('198.51.100.7');
  expect(seen[0]!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1\/health$/);
});

test('a /v1 request body streams through; the answer keeps its status, every Set-Cookie, and HEAD has no body', async () => {
  const { port } = await start({
    rest: async (request) => {
      const text = await request.text();
      const headers = new Headers({ 'content-type': 'application/json' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/');
      return new Response(JSON.stringify({ method: request.method, length: text.length }), { status: 201, headers });
    },
  });
  const big = 'x'.repeat(200_000);
  const posted = await call(port, '/v1/orders', { method: 'POST', body: big, headers: { 'content-type': 'application/json' } });
  expect(posted.status).toBe(201);
  expect(JSON.parse(posted.body.toString())).toEqual({ method: 'POST', length: 200_000 });
  expect(posted.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  const chunked = await call(port, '/v1/uploads', { method: 'POST', chunks: ['a'.repeat(70_000), 'b'.repeat(70_000)], headers: { 'content-type': 'image/png' } });
  expect(JSON.parse(chunked.body.toString())).toEqual({ method: 'POST', length: 140_000 });

  const head = await call(port, '/v1/orders', { method: 'HEAD' });
  expect(head.status).toBe(201);
  expect(head.body.length).toBe(0);
});

test('a large /v1 JSON answer is compressed when the client accepts it; a small one is not', async () => {
  const list = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ slug: `work-${i}`, title: 'The Starry Night' })) });
  const { port } = await start({
    rest: async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/v1/big') return new Response(list, { headers: { 'content-type': 'application/json' } });
      // A public catalog answer says its length (and is written whole, not streamed).
      if (pathname === '/v1/sized') return new Response(list, { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(list)) } });
      return Response.json({ a: 1 });
    },
  });
  const sized = await call(port, '/v1/sized', { headers: { 'accept-encoding': 'gzip' } });
  expect(sized.headers['content-encoding']).toBe('gzip');
  expect(Number(sized.headers['content-length'])).toBe(sized.body.length);
  expect(zlib.gunzipSync(sized.body).toString()).toBe(list);
  const sizedPlain = await call(port, '/v1/sized');
  expect(sizedPlain.headers['content-length']).toBe(String(Buffer.byteLength(list)));
  expect(sizedPlain.body.toString()).toBe(list);
  const gzip = await call(port, '/v1/big', { headers: { 'accept-encoding': 'gzip, deflate' } });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
  expect(zlib.gunzipSync(gzip.body).toString()).toBe(list);
  const br = await call(port, '/v1/big', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(br.headers['content-encoding']).toBe('br');
  expect(zlib.brotliDecompressSync(br.body).toString()).toBe(list);
  const plain = await call(port, '/v1/big');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(list);
  const small = await call(port, '/v1/small', { headers: { 'accept-encoding': 'gzip' } });
  expect(small.headers['content-encoding']).toBeUndefined();
  expect(small.body.toString()).toBe('{"a":1}');
});

test('a REST handler that throws is a 500 in the error contract, its cause only in the log', async () => {
  const logged: unknown[] = [];
  const { port } = await start({
    rest: async () => {
      throw new Error('connection to 10.0.0.5:5432 refused, password=hunter2');
    },
    onError: (error) => logged.push(error),
  });
  const answer = await call(port, '/v1/artists');
  expect(answer.status).toBe(500);
  expect(JSON.parse(answer.body.toString())).toEqual({ error: { code: 'internal', message: expect.any(String) } });
  expect(answer.body.toString()).not.toMatch(/hunter2|5432/);
  expect(logged).toHaveLength(1);
});

const inline = 'self.__next_f.push([1,"hello"])';
const html = `<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async=""></script></head><body>${'<p>The Starry Night</p>'.repeat(100)}<script>${inline}</script><script type="application/ld+json">{"a":1}</script></body></html>`;

test('a page from Next gets the request id, the security headers and a policy with the hash of each of its inline scripts', async () => {
  const seen: http.IncomingHttpHeaders[] = [];
  const { port } = await start({
    next: (req, res) => {
      seen.push({ ...req.headers });
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.writeHead(200, { 'Cache-Control': 's-maxage=31536000', 'Content-Length': String(Buffer.byteLength(html)) });
      // Next streams a page in pieces; the hash needs all of them.
      const middle = html.indexOf(inline) + 5;
      res.write(html.slice(0, middle));
      res.write(Buffer.from(html.slice(middle)));
      res.end();
    },
  });
  const answer = await call(port, '/en', { headers: { 'x-shop-client': '203.0.113.9' } });
  expect(seen[0]!['x-shop-client']).toBe('127.0.0.1');
  expect(answer.status).toBe(200);
  expect(answer.body.toString()).toBe(html);
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(html));
  expect(answer.headers['x-request-id']).toBe(seen[0]!['x-request-id']);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(answer.headers['cache-control']).toBe('s-maxage=31536000');
  const csp = String(answer.headers['content-security-policy']);
  expect(csp).toContain(`script-src 'self' ${sha(inline)};`);
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
});

test('a page is compressed whole, with the policy of its plain HTML', async () => {
  const { port } = await start({
    next: (_req, res) => {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(html);
    },
  });
  const answer = await call(port, '/en/nowhere', { headers: { 'accept-encoding': 'br;q=1.0, gzip;q=0.5' } });
  expect(answer.status).toBe(404);
  expect(answer.headers['content-encoding']).toBe('br');
  expect(answer.headers.vary).toMatch(/Accept-Encoding/);
  expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
  expect(answer.body.length).toBeLessThan(Buffer.byteLength(html) / 4);
  expect(zlib.brotliDecompressSync(answer.body).toString()).toBe(html);
  expect(String(answer.headers['content-security-policy'])).toContain(sha(inline));
});

test('other answers from Next stream through: compressible ones compressed, others untouched, all framed out', async () => {
  const script = 'console.log("chunk");\n'.repeat(5_000);
  const png = Buffer.alloc(5_000, 7);
  const { port } = await start({
    next: (req, res) => {
      if (req.url === '/_next/static/chunks/a.js') {
        res.setHeader('Content-Type', 'application/javascript; charset=UTF-8');
        res.setHeader('Content-Length', Buffer.byteLength(script));
        Readable.from([script.slice(0, 50_000), script.slice(50_000)]).pipe(res);
      } else if (req.url === '/images/a.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(png.length) });
        res.end(png);
      } else {
        res.writeHead(304, { etag: '"abc"' });
        res.end();
      }
    },
  });
  const js = await call(port, '/_next/static/chunks/a.js', { headers: { 'accept-encoding': 'gzip' } });
  expect(js.headers['content-encoding']).toBe('gzip');
  expect(js.headers['content-length']).toBeUndefined();
  expect(js.headers['x-frame-options']).toBe('DENY');
  expect(js.headers['content-security-policy']).toBeUndefined();
  expect(zlib.gunzipSync(js.body).toString()).toBe(script);
  const unasked = await call(port, '/_next/static/chunks/a.js');
  expect(unasked.headers['content-encoding']).toBeUndefined();
  expect(unasked.headers.vary).toMatch(/Accept-Encoding/);
  expect(unasked.body.toString()).toBe(script);

  const image = await call(port, '/images/a.png', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(image.headers['content-encoding']).toBeUndefined();
  expect(image.headers['content-length']).toBe('5000');
  expect(image.body.equals(png)).toBe(true);
  expect(image.headers['x-request-id']).toBeTruthy();

  const notModified = await call(port, '/en', { headers: { 'accept-encoding': 'gzip' } });
  expect(notModified.status).toBe(304);
  expect(notModified.headers.etag).toBe('"abc"');
  expect(notModified.body.length).toBe(0);
});

test('Accept-Encoding: brotli first, then gzip, q=0 refuses, * stands for the rest', () => {
  expect(chooseEncoding(undefined)).toBeUndefined();
  expect(chooseEncoding('')).toBeUndefined();
  expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
  expect(chooseEncoding('gzip')).toBe('gzip');
  expect(chooseEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
  expect(chooseEncoding('BR;Q=0.1')).toBe('br');
  expect(chooseEncoding('identity')).toBeUndefined();
  expect(chooseEncoding('*')).toBe('br');
  expect(chooseEncoding('*, br;q=0')).toBe('gzip');
  expect(chooseEncoding('deflate, gzip;q=0')).toBeUndefined();
  expect(chooseEncoding('gzip;q=nonsense')).toBeUndefined();
  expect(isCompressible('text/html; charset=utf-8')).toBe(true);
  expect(isCompressible('application/json')).toBe(true);
  expect(isCompressible('application/manifest+json')).toBe(true);
  expect(isCompressible('image/svg+xml')).toBe(true);
  expect(isCompressible('text/x-component')).toBe(true);
  expect(isCompressible('image/webp')).toBe(false);
  expect(isCompressible('font/woff2')).toBe(false);
  expect(isCompressible(undefined)).toBe(false);
  expect(varyWithEncoding(undefined)).toBe('Accept-Encoding');
  expect(varyWithEncoding('RSC, Next-Router-State-Tree')).toBe('RSC, Next-Router-State-Tree, Accept-Encoding');
  expect(varyWithEncoding('accept-encoding')).toBe('accept-encoding');
});

test('a graceful stop lets the request in flight finish, refuses new connections and closes kept-alive ones', async () => {
  let release!: () => void;
  const { port, server } = await start({
    next: async (_req, res) => {
      await new Promise<void>((r) => (release = r));
      res.end('finished');
    },
  });
  const inFlight = call(port, '/en/slow');
  await new Promise((r) => setTimeout(r, 100));
  const stopped = gracefulStop(server, 5_000);
  await new Promise((r) => setTimeout(r, 100));
  await expect(call(port, '/en')).rejects.toThrow(/ECONNREFUSED/);
  release();
  const answer = await inFlight;
  expect(answer.body.toString()).toBe('finished');
  await expect(stopped).resolves.toBe(true);
});

test('a graceful stop gives up on a request that never finishes after the grace period', async () => {
  const { port, server } = await start({ next: () => new Promise(() => {}) });
  const hanging = call(port, '/en/forever').catch((error: Error) => error);
  await new Promise((r) => setTimeout(r, 100));
  const started = Date.now();
  await expect(gracefulStop(server, 300)).resolves.toBe(false);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(await hanging).toBeInstanceOf(Error);
});
