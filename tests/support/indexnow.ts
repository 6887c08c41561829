import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP server on 127.0.0.1 receiving IndexNow submissions (`POST /indexnow`) and recording them. */
export async function startIndexNowServer() {
  const submissions: { host: string; key: string; keyLocation: string; urlList: string[] }[] = [];
  const control = { failWith: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/indexnow') return res.writeHead(404).end();
      if (control.failWith) return res.writeHead(control.failWith).end();
      submissions.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/indexnow`,
    submissions,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
