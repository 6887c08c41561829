import type { Server } from 'node:http';

/**
 * Stopping an instance behind a load balancer: stop accepting connections, let the requests in
 * flight finish, close each kept-alive connection as soon as it is idle, and give up on stragglers
 * after `graceMs`. Resolves true when every request finished in time.
 */
export function gracefulStop(server: Server, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    // A request that still arrives on an open kept-alive connection is answered, then that
    // connection ends, so the balancer retries elsewhere.
    server.on('request', (_req, res) => res.setHeader('Connection', 'close'));
    // Answers in flight leave their connections idle when they finish: close those as they appear.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const timer = setTimeout(() => {
      server.closeAllConnections();
      done(false);
    }, graceMs);
    const done = (clean: boolean) => {
      clearInterval(sweep);
      clearTimeout(timer);
      resolve(clean);
    };
    server.close(() => done(true));
    server.closeIdleConnections();
  });
}
