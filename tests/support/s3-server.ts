import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 answering the three S3 object calls the shop makes (PUT, GET,
 * DELETE, path-style `/<bucket>/<key>`), keeping objects in memory. It records each request so a
 * test can see what the SDK sent (signed, with Content-Length and Content-Type).
 */
export async function startS3Server() {
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: { method: string; path: string; headers: Record<string, string | string[] | undefined> }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://s3.test').pathname);
      requests.push({ method: req.method ?? '', path, headers: req.headers });
      if (!req.headers.authorization?.startsWith('AWS4-HMAC-SHA256')) {
        res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
        return;
      }
      if (req.method === 'PUT') {
        objects.set(path, { body: Buffer.concat(chunks), contentType: String(req.headers['content-type'] ?? 'application/octet-stream') });
        res.writeHead(200, { etag: '"x"' }).end();
      } else if (req.method === 'GET') {
        const object = objects.get(path);
        if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>no</Message></Error>');
          return;
        }
        res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length }).end(object.body);
      } else if (req.method === 'DELETE') {
        objects.delete(path);
        res.writeHead(204).end();
      } else {
        res.writeHead(405).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
