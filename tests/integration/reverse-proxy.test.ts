import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReverseProxy, type ReverseProxy } from '../../scripts/lib/reverse-proxy';

/**
 * deploy/nginx.conf, run: Debian's nginx with the placeholders filled, in front of a stand-in for
 * the shop (a node:http server that counts what reaches it), and a fake .next/static on the disk.
 * Compression, precompressed build files, the forwarded client address, the cache and bodies are
 * checked through it with raw node:http requests (fetch would decompress what it receives).
 */

// A build file and its precompressed siblings, each with a marker saying which one was served.
const SCRIPT = `/* plain */\n${'export function paint(canvas) { return canvas.getContext("2d").fillRect(0, 0, 1, 1); }\n'.repeat(60)}`;
const SCRIPT_BR = zlib.brotliCompressSync(SCRIPT.replace('/* plain */', '/* br */'));
const SCRIPT_GZ = zlib.gzipSync(SCRIPT.replace('/* plain */', '/* gz */'));
// About 5 KB of JSON, as the catalog answers.
const ARTWORKS = JSON.stringify({
  items: Array.from({ length: 70 }, (_, i) => ({ id: `art-${i}`, title: `Water lilies ${i}`, artist: 'Claude Monet', year: 1900 + i })),
});
const PAGE = `<!doctype html><html lang="en"><body>${'<p>Prints of public-domain paintings.</p>'.repeat(60)}</body></html>`;

/** Requests that reached the upstream, by path and query. */
const hits = new Map<string, number>();
let upstream: http.Server;
let proxy: ReverseProxy | undefined;
let folder: string;
let port: number;

function answerAsShop(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = req.url ?? '/';
  hits.set(url, (hits.get(url) ?? 0) + 1);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const pathname = url.split('?')[0];
    if (pathname === '/v1/artworks') return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=60' }).end(ARTWORKS);
    if (pathname === '/v1/orders/x') return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'private, no-store' }).end('{"id":"x"}');
    if (pathname === '/echo') {
      const { host, 'x-forwarded-for': forwardedFor, 'x-forwarded-proto': forwardedProto, 'accept-encoding': acceptEncoding } = req.headers;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ host, forwardedFor, forwardedProto, acceptEncoding }));
    }
    if (pathname === '/v1/uploads') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ length: Buffer.concat(chunks).length }));
    if (pathname === '/en') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    res.writeHead(404).end();
  });
}

beforeAll(async () => {
  // A failure, not a skip: CI must not pass without having run this (startReverseProxy says what to install).
  folder = mkdtempSync(path.join(tmpdir(), 'art-prints-nginx-'));
  const staticDir = path.join(folder, 'static');
  mkdirSync(path.join(staticDir, 'chunks'), { recursive: true });
  writeFileSync(path.join(staticDir, 'chunks/app.js'), SCRIPT);
  writeFileSync(path.join(staticDir, 'chunks/app.js.br'), SCRIPT_BR);
  writeFileSync(path.join(staticDir, 'chunks/app.js.gz'), SCRIPT_GZ);

  upstream = http.createServer(answerAsShop);
  upstream.keepAliveTimeout = 65_000; // as the shop's (server.mjs)
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  proxy = await startReverseProxy({ upstream: `127.0.0.1:${(upstream.address() as AddressInfo).port}`, staticDir, folder });
  port = proxy.port;
});

afterAll(async () => {
  await proxy?.stop();
  if (upstream) {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  }
  if (folder) rmSync(folder, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request through nginx; the body exactly as it came over the wire. */
function request(pathname: string, options: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('deploy/nginx.conf in front of the shop', () => {
  test('compresses the JSON the shop sends uncompressed, and says it varies by Accept-Encoding', async () => {
    const answer = await request('/v1/artworks?check=gzip', { headers: { 'accept-encoding': 'gzip' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(answer.body).toString()).toBe(ARTWORKS);
    expect(ARTWORKS.length).toBeGreaterThan(5_000);
  });

  test('compresses pages too, and asks the shop for none (one plain copy in the cache)', async () => {
    const page = await request('/en', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.body).toString()).toBe(PAGE);
    const echo = await request('/echo', { headers: { 'accept-encoding': 'gzip' } });
    const received = echo.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(echo.body) : echo.body;
    expect(JSON.parse(received.toString()).acceptEncoding).toBeUndefined();
  });

  test('serves the build files from the disk with their precompressed siblings, cached for a year', async () => {
    const br = await request('/_next/static/chunks/app.js', { headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(SCRIPT_BR)).toBe(true);
    expect(zlib.brotliDecompressSync(br.body).toString()).toMatch(/^\/\* br \*\//);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-type']).toMatch(/javascript/);

    const gz = await request('/_next/static/chunks/app.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(SCRIPT_GZ)).toBe(true);
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await request('/_next/static/chunks/app.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    expect(hits.has('/_next/static/chunks/app.js')).toBe(false); // never the shop
    const missing = await request('/_next/static/chunks/none.js');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBeUndefined();
  });

  test('tells the shop the client address (one hop for TRUST_PROXY=1), the scheme and the host', async () => {
    const echo = JSON.parse((await request('/echo')).body.toString());
    expect(echo.forwardedFor).toMatch(/(^|, )127\.0\.0\.1$/);
    expect(echo.forwardedProto).toBe('http');
    expect(echo.host).toBe('127.0.0.1'); // $host: the name without the port
    // What the client claimed comes first; the address nginx saw is the last, believed, hop.
    const claimed = JSON.parse((await request('/echo', { headers: { 'x-forwarded-for': '203.0.113.9' } })).body.toString());
    expect(claimed.forwardedFor).toBe('203.0.113.9, 127.0.0.1');
  });

  test('caches a public answer: the second request is a HIT the shop never sees; a signed-in one bypasses', async () => {
    const first = await request('/v1/artworks');
    expect(first.headers['x-cache-status']).toBe('MISS');
    const second = await request('/v1/artworks');
    expect(second.headers['x-cache-status']).toBe('HIT');
    expect(second.body.toString()).toBe(ARTWORKS);
    expect(hits.get('/v1/artworks')).toBe(1);

    const withKey = await request('/v1/artworks', { headers: { authorization: 'Bearer partner-key' } });
    expect(withKey.headers['x-cache-status']).toBe('BYPASS');
    expect(hits.get('/v1/artworks')).toBe(2);
    const withSession = await request('/v1/artworks', { headers: { cookie: 'next-auth.session-token=abc' } });
    expect(withSession.headers['x-cache-status']).toBe('BYPASS');
    expect(hits.get('/v1/artworks')).toBe(3);
    // Neither was stored: the anonymous copy is still the shop's first answer.
    expect((await request('/v1/artworks')).headers['x-cache-status']).toBe('HIT');
    expect(hits.get('/v1/artworks')).toBe(3);
  });

  test('never caches a private, no-store answer', async () => {
    const first = await request('/v1/orders/x');
    const second = await request('/v1/orders/x');
    expect(first.status).toBe(200);
    expect(second.headers['x-cache-status']).not.toBe('HIT');
    expect(second.headers['cache-control']).toBe('private, no-store');
    expect(hits.get('/v1/orders/x')).toBe(2);
  });

  test('passes a 1 MiB upload body to the shop whole', async () => {
    const body = Buffer.alloc(1024 * 1024, 0x61);
    const answer = await request('/v1/uploads', { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(body.length) }, body });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body.toString())).toEqual({ length: body.length });
  });

  test('refuses a body over 21 MiB before the shop sees it', async () => {
    // A raw request announcing 22 MiB and sending none of it: nginx answers on the Content-Length alone.
    const head = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.write(`POST /v1/uploads?too=large HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${22 * 1024 * 1024}\r\n\r\n`);
    });
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(hits.has('/v1/uploads?too=large')).toBe(false);
  });
});
