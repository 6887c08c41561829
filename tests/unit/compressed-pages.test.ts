import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import { CompressedPages } from '@/front/compressed-pages';
import { createFront } from '@/front/front';

// The front in front of a stand-in for Next that answers as Next 16 does: its own compression
// middleware (the one Next bundles, applied per request as its router does), a cached page sent
// the way `sendRenderResult` sends it (x-nextjs-cache, the payload's ETag, a 304 when the client
// holds it, Content-Type, Content-Length, `end(payload)`), and a streamed render without ETag.
// The production server behind the front runs in the end-to-end suite (tests/e2e/security.spec.ts).

// eslint-disable-next-line @typescript-eslint/no-require-imports
const compression = require('next/dist/compiled/compression') as () => (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

const page = `<!DOCTYPE html><html lang="de"><body>${'<article class="card"><h2>Sternennacht</h2><p>Vincent van Gogh, 1889</p></article>'.repeat(200)}</body></html>`;
const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 16)}"`;

function nextStandIn(req: http.IncomingMessage, res: http.ServerResponse): void {
  compression()(req, res, () => {});
  if (req.url === '/de/streamed') {
    // A render streamed as it is made: no ETag, Next's compression flushes each part.
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.write(page.slice(0, 4000));
    (res as unknown as { flush: () => void }).flush();
    res.end(page.slice(4000));
    return;
  }
  if (req.url === '/de/gone') {
    res.statusCode = 404;
    res.setHeader('x-nextjs-cache', 'HIT');
    res.setHeader('ETag', etagOf('gone'));
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(page);
    return;
  }
  res.setHeader('x-nextjs-cache', 'HIT');
  res.setHeader('Vary', 'rsc, next-router-state-tree, next-router-prefetch');
  const etag = etagOf(page);
  res.setHeader('ETag', etag);
  const asked = req.headers['if-none-match'];
  if (asked && asked.replace(/^W\//, '') === etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(page));
  if (req.method === 'HEAD') {
    res.end(null);
    return;
  }
  res.end(page);
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

async function start(kept: CompressedPages): Promise<number> {
  const front = createFront({ next: nextStandIn, settings: { TRUST_PROXY: 0 }, compressedPages: kept });
  const server = http.createServer((req, res) => void front(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function call(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a page Next serves from its cache is compressed once per coding, kept, and sent with its length', async () => {
  const kept = new CompressedPages(1024 * 1024);
  const port = await start(kept);
  const first = await call(port, '/de', { 'accept-encoding': 'gzip, deflate, br' });
  expect(first.status).toBe(200);
  expect(first.headers['content-encoding']).toBe('br');
  expect(Number(first.headers['content-length'])).toBe(first.body.length);
  expect(zlib.brotliDecompressSync(first.body).toString()).toBe(page);
  // One ETag for every coding: weak, and still the page's.
  expect(first.headers.etag).toBe(`W/${etagOf(page)}`);
  expect(first.headers.vary).toMatch(/next-router-state-tree/);
  expect(first.headers.vary).toMatch(/Accept-Encoding/);
  expect(first.headers['x-frame-options']).toBe('DENY');
  expect(kept.size()).toEqual({ entries: 1, bytes: first.body.length });

  // The next client gets the kept bytes; a client of gzip (Chrome over http) a second entry.
  const again = await call(port, '/de', { 'accept-encoding': 'br' });
  expect(again.body.equals(first.body)).toBe(true);
  expect(kept.size().entries).toBe(1);
  const gzip = await call(port, '/de', { 'accept-encoding': 'gzip, deflate' });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(zlib.gunzipSync(gzip.body).toString()).toBe(page);
  expect(kept.size().entries).toBe(2);

  // The weak ETag it was given brings a 304, without a body or a coding.
  const fresh = await call(port, '/de', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
  expect(fresh.status).toBe(304);
  expect(fresh.body.length).toBe(0);
  expect(fresh.headers['content-encoding']).toBeUndefined();
});

test('anything else is compressed by Next as before: a client without compression, HEAD, a streamed render, not a 200', async () => {
  const kept = new CompressedPages(1024 * 1024);
  const port = await start(kept);
  const plain = await call(port, '/de');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(page);
  expect(plain.headers.etag).toBe(etagOf(page));

  const head = await call(port, '/de', { 'accept-encoding': 'br' }, 'HEAD');
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);

  // Streamed: Next's gzip (its middleware knows no brotli), flushed part by part.
  const streamed = await call(port, '/de/streamed', { 'accept-encoding': 'gzip, br' });
  expect(streamed.headers['content-encoding']).toBe('gzip');
  expect(streamed.headers['content-length']).toBeUndefined();
  expect(zlib.gunzipSync(streamed.body).toString()).toBe(page);

  // A cached answer that is not a 200 goes out as Next wrote it, compressed by Next.
  const gone = await call(port, '/de/gone', { 'accept-encoding': 'gzip' });
  expect(gone.status).toBe(404);
  expect(zlib.gunzipSync(gone.body).toString()).toBe(page);
  expect(kept.size().entries).toBe(0);
});

test('the kept pages stay within their memory, least recently used out', () => {
  const kept = new CompressedPages(8 * 1000);
  for (let i = 0; i < 10; i++) kept.set(`/de/${i}`, Buffer.alloc(900));
  expect(kept.size().bytes).toBeLessThanOrEqual(8 * 1000);
  expect(kept.get('/de/0')).toBeUndefined();
  expect(kept.get('/de/9')?.length).toBe(900);
  // Larger than an eighth of the memory: never kept.
  kept.set('/de/huge', Buffer.alloc(1001));
  expect(kept.get('/de/huge')).toBeUndefined();
});
