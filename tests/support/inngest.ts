import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 answering Inngest's event API (`POST /e/<event key>`) as Inngest
 * does, recording each event; `failWith` makes it answer like an outage.
 */
export async function startInngestEventServer() {
  const events: { id?: string; name: string; data: Record<string, unknown> }[] = [];
  const control = { failWith: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/e/')) return res.writeHead(404).end();
      if (control.failWith) {
        return res.writeHead(control.failWith, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unavailable', status: control.failWith }));
      }
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof events;
      events.push(...sent);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ids: sent.map((e, i) => e.id ?? `evt-${i}`), status: 200 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
