/**
 * The production server: Next as a custom server behind the shop's front (src/server/front).
 * `npm start` runs it once the database is ready and the site is built; the Docker image runs it
 * the same way (through `npm start -- --prebuilt`).
 *
 *   node --import tsx scripts/serve.ts [--port 3000] [--hostname 0.0.0.0]
 *
 * Expects NODE_ENV=production, DATABASE_URL and NEXTAUTH_SECRET in the environment (scripts/start.ts
 * sets them).
 * SIGTERM or SIGINT: stop accepting, finish the requests in flight (at most SHUTDOWN_GRACE_MS,
 * default 10 s), exit 0.
 */
import http from 'node:http';
import next from 'next';
import { handleRest } from '@/server/api/rest';
import { env } from '@/server/env';
import { createFront } from '@/server/front/front';
import { gracefulStop } from '@/server/front/shutdown';
import { logger } from '@/server/logger';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0) return process.argv[at + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

async function main() {
  const settings = env();
  // React and Next pick their production builds from NODE_ENV when they load, before this line.
  if (settings.NODE_ENV !== 'production') logger.warn(`NODE_ENV is ${settings.NODE_ENV}, not production: run this through npm start, or set NODE_ENV=production`);
  const port = Number(option('port') ?? settings.PORT);
  const hostname = option('hostname');
  const graceMs = settings.SHUTDOWN_GRACE_MS;

  const server = http.createServer();
  const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port, httpServer: server });
  const handle = app.getRequestHandler();
  await app.prepare();

  const front = createFront({
    next: handle,
    rest: handleRest,
    settings,
    onError: (error, where) => logger.error('front: %s failed: %s', where, error),
  });
  server.on('request', (req, res) => void front(req, res));
  // Longer than a load balancer's idle timeout (typically 60 s), so the balancer closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  logger.info(`serving on http://${hostname ?? 'localhost'}:${port} (front + Next, production)`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing the requests in flight, then stopping`);
    const clean = await gracefulStop(server, graceMs);
    if (!clean) logger.warn(`stopped after ${graceMs} ms with requests still open`);
    await app.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  logger.error(`could not serve: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
