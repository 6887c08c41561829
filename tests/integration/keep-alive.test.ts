import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answerRest } from '@/server/api/rest';
import { createServing } from '@/server/http/serving';

/**
 * An early answer (413, 415, 401 sent before the request body was read) on a kept-alive
 * connection: the client has sent, or is still sending, the rest of that body. Whatever the server
 * does with those bytes (drain them or close the connection and say so), the next request on the
 * connection must get its own, right answer, never one parsed out of the previous body.
 * A real node:http server with the production request handling and the real /v1 handler, and a raw client.
 */

let server: http.Server;
let port: number;
beforeAll(async () => {
  // Next's stand-in answers /api/* at once without reading the body, as a route handler's body limit does.
  const next = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url?.startsWith('/api/'))
      return void res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"code":"payload_too_large","message":"Too large."}}');
    res.end('next');
  };
  const shop = createServing({ rest: answerRest, settings: { TRUST_PROXY: 0 } });
  // As server.mjs routes.
  server = http.createServer((req, res) => {
    shop.identify(req);
    if (shop.isRest(req.url)) void shop.answerRest(req, res);
    else void shop.answerPage(req, res, next);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw HTTP/1.1 connection that reads one answer at a time. */
function connection() {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = Buffer.alloc(0);
  let closed = false;
  const waiters: (() => void)[] = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake();
  });
  socket.on('close', () => {
    closed = true;
    wake();
  });
  socket.on('error', () => {
    closed = true;
    wake();
  });
  const more = () => new Promise<void>((resolve) => waiters.push(resolve));

  async function answer(): Promise<Parsed | null> {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = buffer.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(head[0]!.split(' ')[1]);
        const headers: Record<string, string> = {};
        for (const line of head.slice(1)) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
        let rest = buffer.subarray(end + 4);
        if (headers['transfer-encoding'] === 'chunked') {
          const body: Buffer[] = [];
          for (;;) {
            const lineEnd = rest.indexOf('\r\n');
            if (lineEnd < 0) break;
            const size = parseInt(rest.subarray(0, lineEnd).toString(), 16);
            if (rest.length < lineEnd + 2 + size + 2) break;
            if (size === 0) {
              buffer = rest.subarray(lineEnd + 4);
              return { status, headers, body: Buffer.concat(body).toString() };
            }
            body.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
            rest = rest.subarray(lineEnd + 2 + size + 2);
          }
        } else {
          const length = Number(headers['content-length'] ?? 0);
          if (rest.length >= length) {
            buffer = rest.subarray(length);
            return { status, headers, body: rest.subarray(0, length).toString() };
          }
        }
      }
      if (closed) return null;
      await more();
    }
  }
  return {
    socket,
    answer,
    write: (data: string | Buffer) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.write(data, () => resolve()))),
    closedSoon: async (ms = 3_000) => {
      const deadline = Date.now() + ms;
      while (!closed && Date.now() < deadline) await Promise.race([more(), new Promise((r) => setTimeout(r, 50))]);
      return closed;
    },
  };
}

const health = 'GET /v1/health HTTP/1.1\r\nHost: shop.test\r\n\r\n';

/**
 * Sends `head` and `body` the way a keep-alive client does, reads the first answer, then either
 * sees the connection end (the server said Connection: close) or sends the next request on it and
 * expects that request's own answer.
 */
async function earlyAnswerThenNext(head: string, body: Buffer | string, expected: number) {
  const c = connection();
  // The whole request in one go, as a client that does not wait for an early answer sends it (not
  // awaited: a server that stops reading leaves a large write unfinished).
  void c.write(Buffer.concat([Buffer.from(head), Buffer.from(body)]));
  const first = await c.answer();
  expect(first?.status).toBe(expected);
  if (first!.headers.connection?.toLowerCase() === 'close') {
    expect(await c.closedSoon()).toBe(true);
    c.socket.destroy();
    return 'closed';
  }
  await c.write(health);
  const second = await c.answer();
  c.socket.destroy();
  expect(second?.status, JSON.stringify(second)).toBe(200);
  expect(JSON.parse(second!.body)).toMatchObject({ status: 'ok' });
  return 'kept';
}

/** A JSON text that, read as the start of a request, is a valid request of its own (a smuggled one). */
const smuggling = (size: number) => {
  const inner = 'GET /v1/pricing HTTP/1.1\r\nHost: shop.test\r\n\r\n';
  return inner + ' '.repeat(Math.max(0, size - inner.length));
};

describe('an early answer on a kept-alive connection', () => {
  test('413 on a declared Content-Length over the /v1 JSON limit (the body is never read)', async () => {
    const body = smuggling(200 * 1024);
    await earlyAnswerThenNext(`POST /v1/orders HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body, 413);
  });

  test('413 on a chunked body that passes the limit while it is read', async () => {
    const chunk = 'x'.repeat(32 * 1024);
    const chunks = Array.from({ length: 4 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('') + '0\r\n\r\n';
    await earlyAnswerThenNext(`POST /v1/orders HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, chunks, 413);
  });

  test('415 on an upload whose type is refused before its bytes are read', async () => {
    const body = smuggling(100 * 1024);
    await earlyAnswerThenNext(`POST /v1/uploads HTTP/1.1\r\nHost: shop.test\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`, body, 415);
  });

  test('401 on a staff operation before its body is read', async () => {
    const body = smuggling(2 * 1024 * 1024);
    await earlyAnswerThenNext(`GET /v1/admin/orders HTTP/1.1\r\nHost: shop.test\r\nAuthorization: Bearer wrong\r\nContent-Length: ${body.length}\r\n\r\n`, body, 401);
  });

  test('a small body answered early is drained and the connection kept', async () => {
    const body = smuggling(2 * 1024);
    expect(await earlyAnswerThenNext(`POST /v1/uploads HTTP/1.1\r\nHost: shop.test\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`, body, 415)).toBe(
      'kept',
    );
  });

  test("413 from one of Next's route handlers (the website's tRPC) before the body was read", async () => {
    const body = smuggling(200 * 1024);
    expect(
      await earlyAnswerThenNext(
        `POST /api/trpc/orders.create HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
        413,
      ),
    ).toBe('closed');
  });

  test('an ordinary request keeps the connection', async () => {
    expect(await earlyAnswerThenNext('GET /v1/pricing HTTP/1.1\r\nHost: shop.test\r\n\r\n', '', 200)).toBe('kept');
  });
});
