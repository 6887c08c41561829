import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, expect, test } from 'vitest';
import type { PlainAnswer, RestRequest } from '@/server/http/answers';
import { clientOf } from '@/server/http/client';
import { parseTrustProxy, resolveClient } from '@/server/http/identity';
import { createServing, gracefulStop, type NextHandler, type ServingOptions } from '@/server/http/serving';

// The shop's request handling (src/server/http/serving.ts) on a real node:http server on
// 127.0.0.1, routed as server.mjs routes it, with stand-ins for Next's handler and the /v1 handler
// (the real ones run behind it in the end-to-end suite).

const settings = { TRUST_PROXY: 0 };
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

interface Options extends Partial<ServingOptions> {
  next?: NextHandler;
  /** `npm run dev`: /v1 goes to Next's route handler too. */
  dev?: boolean;
}

async function start(options: Options): Promise<{ port: number; server: http.Server }> {
  const shop = createServing({
    rest: options.rest ?? (async () => Response.json({ ok: true })),
    settings: options.settings ?? settings,
    onError: options.onError,
  });
  const next: NextHandler = options.next ?? ((_req, res) => void res.end('next'));
  // As server.mjs does.
  const server = http.createServer((req, res) => {
    shop.identify(req);
    if (!options.dev && shop.isRest(req.url)) void shop.answerRest(req, res);
    else void shop.answerPage(req, res, next);
  });
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

test('/v1 goes to the REST handler with the client and request id resolved once, overwriting what the client sent', async () => {
  const seen: RestRequest[] = [];
  const { port } = await start({
    rest: async (request) => {
      seen.push(request);
      return Response.json({ ok: true });
    },
    next: () => {
      throw new Error('Next must not see /v1');
    },
  });
  const answer = await call(port, '/v1/artists?page=2', {
    headers: { 'x-shop-client': '203.0.113.9', 'x-shop-proof': 'forged', 'x-request-id': 'lb-request-0001', 'x-forwarded-for': '198.51.100.7' },
  });
  expect(answer.status).toBe(200);
  expect(seen[0]!.headers.get('x-shop-client')).toBe('127.0.0.1');
  // The proof travels with it, so downstream trusts this value and no client's own claim.
  expect(clientOf(seen[0]!.headers)).toBe('127.0.0.1');
  expect(seen[0]!.headers.get('x-request-id')).toBe('lb-request-0001');
  expect(new URL(seen[0]!.url).pathname + new URL(seen[0]!.url).search).toBe('/v1/artists?page=2');
  // The fetch Request is made when asked, once, with the same head.
  const whole = seen[0]!.whole();
  expect(whole).toBe(seen[0]!.whole());
  expect([whole.method, whole.url, whole.headers.get('x-request-id'), whole.body]).toEqual(['GET', seen[0]!.url, 'lb-request-0001', null]);

  await call(port, '/v1', { headers: { 'x-request-id': 'bad id with spaces' } });
  expect(seen[1]!.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(seen[1]!.url).toMatch(/\/v1$/);
  // Paths that only start like /v1 are pages.
  await call(port, '/v1beta');
  expect(seen).toHaveLength(2);
});

test('behind a trusted proxy the client is the last X-Forwarded-For entry, and the scheme its X-Forwarded-Proto', async () => {
  const seen: RestRequest[] = [];
  const { port } = await start({
    settings: { ...settings, TRUST_PROXY: 1 },
    rest: async (request) => {
      seen.push(request);
      return new Response(null, { status: 204 });
    },
  });
  await call(port, '/v1/health', { headers: { 'x-forwarded-for': '10.0.0.1, 198.51.100.7', 'x-forwarded-proto': 'https' } });
  expect(seen[0]!.headers.get('x-shop-client')).toBe('198.51.100.7');
  expect(seen[0]!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/v1\/health$/);
});

test('TRUST_PROXY as hops: the client is that many hops out in X-Forwarded-For (1 is the last entry), never a claim left of it', () => {
  const chain = '203.0.113.9, 198.51.100.7, 10.0.0.1'; // a claim, the client as the CDN saw it, the CDN as the balancer saw it
  expect(resolveClient('10.0.0.2', chain, 0)).toBe('10.0.0.2');
  expect(resolveClient('10.0.0.2', chain, 1)).toBe('10.0.0.1');
  expect(resolveClient('10.0.0.2', chain, 2)).toBe('198.51.100.7');
  // Behind a CDN and a balancer every client used to be the CDN's address: one bucket for all.
  expect(resolveClient('10.0.0.2', '198.51.100.8, 10.0.0.1', 2)).toBe('198.51.100.8');
  // Fewer entries than hops: the leftmost; no header: the connection; an entry that is no address stops at the proxy that passed it.
  expect(resolveClient('10.0.0.2', '198.51.100.7', 3)).toBe('198.51.100.7');
  expect(resolveClient('::ffff:10.0.0.2', undefined, 2)).toBe('10.0.0.2');
  expect(resolveClient('10.0.0.2', 'garbage, 10.0.0.1', 2)).toBe('10.0.0.1');
  expect(resolveClient('10.0.0.2', ['198.51.100.7', '10.0.0.1'], 2)).toBe('198.51.100.7');
});

test('TRUST_PROXY as networks: hops inside them are proxies, the first outside is the client; an untrusted connection is the client itself', () => {
  const trust = parseTrustProxy('10.0.0.0/8, 2001:db8:cd::/48, 192.0.2.10')!;
  expect(trust).toEqual(['10.0.0.0/8', '2001:db8:cd::/48', '192.0.2.10']);
  expect(resolveClient('10.0.0.2', '203.0.113.9, 198.51.100.7, 192.0.2.10, 10.0.0.1', trust)).toBe('198.51.100.7');
  expect(resolveClient('2001:db8:cd::1', '2001:db8:1::5', trust)).toBe('2001:db8:1::5');
  // A client that reaches the shop directly names whatever it likes: not believed.
  expect(resolveClient('198.51.100.7', '10.0.0.1', trust)).toBe('198.51.100.7');
  expect(resolveClient('10.0.0.2', '10.0.0.1, 10.0.0.3', trust)).toBe('10.0.0.1');
});

test('TRUST_PROXY parses 1/true as one hop, numbers as hops, lists as networks, and nothing else', () => {
  for (const off of [undefined, '', '0', 'false', 'off']) expect(parseTrustProxy(off)).toBe(0);
  for (const one of ['1', 'true', 'TRUE', 'yes', ' on ']) expect(parseTrustProxy(one)).toBe(1);
  expect(parseTrustProxy('2')).toBe(2);
  expect(parseTrustProxy('::1/128,127.0.0.1')).toEqual(['::1/128', '127.0.0.1']);
  for (const bad of ['maybe', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/8,', '10.0.0/8', '10.0.0.0/8/1', '-1', '1.5', '500'])
    expect(parseTrustProxy(bad), bad).toBeUndefined();
});

test('behind two trusted hops the client is the second entry from the right; X-Forwarded-Proto only from a trusted connection', async () => {
  const seen: RestRequest[] = [];
  const rest = async (request: RestRequest) => {
    seen.push(request);
    return new Response(null, { status: 204 });
  };
  const hops = await start({ settings: { ...settings, TRUST_PROXY: 2 }, rest });
  await call(hops.port, '/v1/health', { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.0.0.1', 'x-forwarded-proto': 'https' } });
  expect(seen[0]!.headers.get('x-shop-client')).toBe('198.51.100.7');
  expect(seen[0]!.url).toMatch(/^https:/);
  // The connection (127.0.0.1) is not in the trusted networks: its headers are claims.
  const networks = await start({ settings: { ...settings, TRUST_PROXY: ['10.0.0.0/8'] }, rest });
  await call(networks.port, '/v1/health', { headers: { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https' } });
  expect(seen[1]!.headers.get('x-shop-client')).toBe('127.0.0.1');
  expect(seen[1]!.url).toMatch(/^http:/);
});

test('a /v1 request body streams through; the answer keeps its status, every Set-Cookie, and HEAD has no body', async () => {
  const { port } = await start({
    rest: async (request) => {
      const text = await request.whole().text();
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

test("a /v1 answer goes out as it is, whatever the client accepts: compressing is the reverse proxy's (issue 40)", async () => {
  const list = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ slug: `work-${i}`, title: 'The Starry Night' })) });
  const { port } = await start({
    rest: async (request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/v1/big') return new Response(list, { headers: { 'content-type': 'application/json' } });
      return new Response(list, { headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(list)) } });
    },
  });
  for (const path of ['/v1/big', '/v1/sized']) {
    const answer = await call(port, path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe(list);
  }
});

test('a plain answer (no fetch Response) goes out with its status, headers and every Set-Cookie, as it is, without a body for HEAD and 304', async () => {
  const list = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ slug: `work-${i}` })) });
  const brotli = zlib.brotliCompressSync(list);
  const answers: Record<string, PlainAnswer> = {
    '/v1/list': { status: 200, headers: { 'content-type': 'application/json', 'x-kind': 'list' }, cookies: ['a=1; Path=/', 'b=2; Path=/'], body: list },
    '/v1/small': { status: 201, headers: { 'content-type': 'application/json' }, cookies: [], body: new TextEncoder().encode('{"a":1}') },
    '/v1/kept': {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': String(brotli.length), vary: 'Accept-Encoding' },
      cookies: [],
      body: new Uint8Array(brotli),
    },
    '/v1/same': { status: 304, headers: { etag: 'W/"x"' }, cookies: [], body: null },
  };
  const { port } = await start({ rest: async (request) => answers[new URL(request.url).pathname]! });

  const gzip = await call(port, '/v1/list', { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.status).toBe(200);
  expect(gzip.headers['x-kind']).toBe('list');
  expect(gzip.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  expect(gzip.headers['content-encoding']).toBeUndefined();
  expect(gzip.body.toString()).toBe(list);

  const plain = await call(port, '/v1/list');
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString()).toBe(list);
  expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(list));

  const small = await call(port, '/v1/small', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(small.status).toBe(201);
  expect(small.headers['content-encoding']).toBeUndefined();
  expect(small.body.toString()).toBe('{"a":1}');

  const kept = await call(port, '/v1/kept', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(kept.headers['content-encoding']).toBe('br');
  expect(kept.headers.vary).toBe('Accept-Encoding');
  expect(zlib.brotliDecompressSync(kept.body).toString()).toBe(list);

  const head = await call(port, '/v1/list', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  const same = await call(port, '/v1/same');
  expect(same.status).toBe(304);
  expect(same.headers.etag).toBe('W/"x"');
  expect(same.body.length).toBe(0);
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

const html = `<!DOCTYPE html><html><head></head><body>${'<p>The Starry Night</p>'.repeat(100)}<script>self.__next_f.push([1,"hello"])</script></body></html>`;

test("a page goes to Next with the client and request id resolved once, and its answer is Next's own, streamed, with the headers every answer carries", async () => {
  const seen: http.IncomingHttpHeaders[] = [];
  let written = 0;
  const { port } = await start({
    next: (req, res) => {
      seen.push({ ...req.headers });
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 's-maxage=300', 'Content-Security-Policy': "script-src 'self' 'nonce-abc'" });
      // Next streams a page in pieces: each goes out as it comes, nothing is held back.
      res.write(html.slice(0, 100), () => (written += 1));
      setTimeout(() => res.end(html.slice(100)), 20);
    },
  });
  const answer = await call(port, '/en', { headers: { 'x-shop-client': '203.0.113.9', 'accept-encoding': 'gzip' } });
  expect(seen[0]!['x-shop-client']).toBe('127.0.0.1');
  expect(clientOf(new Headers(seen[0] as Record<string, string>))).toBe('127.0.0.1');
  expect(written).toBe(1);
  expect(answer.status).toBe(200);
  expect(answer.body.toString()).toBe(html);
  expect(answer.headers['transfer-encoding']).toBe('chunked');
  expect(answer.headers['x-request-id']).toBe(seen[0]!['x-request-id']);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(answer.headers['x-frame-options']).toBe('DENY');
  expect(answer.headers['cache-control']).toBe('s-maxage=300');
  // The page's policy is whatever Next (src/proxy.ts, the page cache) gave it.
  expect(answer.headers['content-security-policy']).toBe("script-src 'self' 'nonce-abc'");
});

test('under npm run dev /v1 goes to Next (its route handler), with the same client and request id, and never compressed', async () => {
  const seen: string[] = [];
  let answered: http.OutgoingHttpHeaders = {};
  const { port } = await start({
    dev: true,
    next: (req, res) => {
      seen.push(`${req.url} ${String(req.headers['x-shop-client'])} ${req.headers['accept-encoding'] ?? 'identity'}`);
      answered = res.getHeaders();
      res.end('{}');
    },
  });
  expect((await call(port, '/v1/artists', { headers: { 'accept-encoding': 'gzip, br' } })).status).toBe(200);
  expect(seen).toEqual(['/v1/artists 127.0.0.1 identity']);
  // handleRest sets its own headers there, as in production: none of the pages' are set before.
  expect(answered['x-frame-options']).toBeUndefined();
  // A page keeps what the client accepts: Next compresses it.
  await call(port, '/en', { headers: { 'accept-encoding': 'gzip, br' } });
  expect(seen[1]).toBe('/en 127.0.0.1 gzip, br');
  expect(answered['x-frame-options']).toBe('DENY');
});

test('a large body Next may answer early ends its connection after the answer; a small one keeps it', async () => {
  const { port } = await start({
    next: (_req, res) => void res.writeHead(413, { 'content-type': 'application/json' }).end('{}'),
  });
  const large = await call(port, '/api/trpc/orders.create', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(100 * 1024) });
  expect(large.status).toBe(413);
  expect(large.headers.connection).toBe('close');
  const chunked = await call(port, '/api/trpc/orders.create', { method: 'POST', chunks: ['{"a":', '1}'] });
  expect(chunked.headers.connection).toBe('close');
  // (A request of its own keeps the connection only when it asks to: `call` uses no agent.)
  const small = await call(port, '/api/trpc/orders.create', { method: 'POST', headers: { 'content-type': 'application/json', connection: 'keep-alive' }, body: '{"a":1}' });
  expect(small.headers.connection).not.toBe('close');
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
