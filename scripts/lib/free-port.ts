import { createServer } from 'node:net';

/**
 * A TCP port of 127.0.0.1 that nothing listens on at the moment of asking, for the servers tests,
 * the benchmark and Lighthouse start (shops, stand-ins, databases). Another program could take it
 * before the caller listens; on a machine that runs only these, that does not happen in practice.
 * Not for production code: the shop's own embedded PostgreSQL finds its port by trying
 * (src/server/db/embedded.ts).
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
