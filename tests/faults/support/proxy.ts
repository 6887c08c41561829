import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'silent';

/**
 * A TCP proxy on 127.0.0.1 in front of one of the local stand-ins (SMTP, the language model,
 * IndexNow, SPARQL), so a test can take the service away without touching it: `up` forwards,
 * `down` drops every connection at once (like a service that crashed), `silent` accepts and never
 * answers (like one that hangs). Switching mode also ends the connections already open, so kept-
 * alive HTTP connections cannot slip past a fault.
 */
export async function startFaultyProxy(target: string) {
  const { hostname, port } = new URL(target);
  let mode: ProxyMode = 'up';
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'down') return client.destroy();
    if (mode === 'silent') return; // held open, never answered
    const upstream = connect(Number(port), hostname);
    open.add(upstream);
    upstream.on('close', () => (open.delete(upstream), client.destroy()));
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    /** The stand-in's address with the proxy's port (same scheme, credentials and path). */
    url: url.toString(),
    get mode() {
      return mode;
    },
    set(next: ProxyMode) {
      mode = next;
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
