/**
 * The shop's server process: Next as a custom server behind the front (src/front/front.ts). Built
 * to dist/front/serve.mjs with the site (scripts/lib/site-build.ts), so production runs built
 * JavaScript; `npm start` runs it once the database is ready and the site is built, `npm run dev`
 * runs it from source with `--dev` (Next's development server behind the same front).
 *
 *   node dist/front/serve.mjs [--port 3000] [--hostname 0.0.0.0] [--dev]
 *
 * It imports nothing of src/server: the app's code lives in Next's bundle, and the front takes what
 * it needs from there once Next has started (src/front/bridge.ts). Expects NODE_ENV=production (or
 * --dev), DATABASE_URL and NEXTAUTH_SECRET in the environment (scripts/start.ts sets them).
 * SIGTERM or SIGINT: stop accepting, finish the requests in flight (at most SHUTDOWN_GRACE_MS,
 * default 10 s), exit 0.
 *
 * SERVER_PROCESSES (default 1) above 1 serves from that many processes sharing the port
 * (node:cluster): a page render holds a process's one thread for 20–30 ms, so on a machine with
 * more cores one process leaves them idle while a crawler waits (docs/deploy.md, "Processes").
 * Each process is an instance as docs/deploy.md describes them: its own caches and job worker, all
 * safe side by side. This process then only starts them, replaces one that dies, and passes a stop
 * signal on.
 */
import cluster from 'node:cluster';
import http from 'node:http';
import path from 'node:path';
import next from 'next';
import { whenOffered } from './bridge';
import { createFront } from './front';
import { gracefulStop } from './shutdown';
import { loadStaticAssets } from './static-assets';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  if (at >= 0) return process.argv[at + 1];
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
}

async function main() {
  const dev = process.argv.includes('--dev');
  const port = Number(option('port') ?? process.env.PORT ?? 3000);
  const hostname = option('hostname');
  const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);

  const server = http.createServer();
  const app = next({ dev, dir: process.cwd(), hostname: hostname ?? 'localhost', port, httpServer: server });
  const handle = app.getRequestHandler();
  await app.prepare();
  // Next runs src/instrumentation.ts while it starts: the app offers its handler and settings there.
  const bridge = await whenOffered(60_000);
  const { log } = bridge;
  if (!dev && process.env.NODE_ENV !== 'production') log.warn(`NODE_ENV is ${process.env.NODE_ENV}, not production: run this through npm start, or set NODE_ENV=production`);

  const front = createFront({
    next: handle,
    // In development Next reloads the app's code on each change; its route handler calls the
    // reloaded handleRest, where the one offered at start would be stale.
    rest: dev ? undefined : bridge.rest,
    // Compressed when the site was built (a development server has none: Next serves them).
    staticAssets: dev ? undefined : loadStaticAssets(path.join(process.cwd(), '.next', 'static')),
    settings: bridge.settings,
    onError: (error, where) => log.error(`front: ${where} failed`, error),
  });
  server.on('request', (req, res) => void front(req, res));
  // Longer than a load balancer's idle timeout (typically 60 s), so the balancer closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, hostname, resolve);
  });
  log.info(`serving on http://${hostname ?? 'localhost'}:${port} (front + Next, ${dev ? 'development' : 'production'})`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: finishing the requests in flight, then stopping`);
    const clean = await gracefulStop(server, graceMs);
    if (!clean) log.warn(`stopped after ${graceMs} ms with requests still open`);
    await app.close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

const logLine = (level: 'info' | 'error', msg: string) =>
  (level === 'error' ? console.error : console.log)(JSON.stringify({ level, time: new Date().toISOString(), pid: process.pid, msg }));

/** Starts `count` serving processes and keeps that many running until a stop signal, which each gets. */
function superviseProcesses(count: number) {
  let stopping = false;
  // Processes that keep ending (a wrong setting, a database that is gone) are not restarted
  // forever: more than `count` × 3 ends within a minute stops the server, as one process would.
  let ends: number[] = [];
  for (let i = 0; i < count; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const now = Date.now();
    ends = [...ends.filter((at) => now - at < 60_000), now];
    if (ends.length > count * 3) {
      logLine('error', `serving process ${worker.process.pid} ended (${signal ?? code}), the ${ends.length}th within a minute: stopping`);
      process.exit(1);
    }
    logLine('error', `serving process ${worker.process.pid} ended (${signal ?? code}): starting another`);
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logLine('info', `serving from ${count} processes (SERVER_PROCESSES)`);
}

const processes = process.argv.includes('--dev') ? 1 : Number(process.env.SERVER_PROCESSES ?? 1);
if (processes > 1 && cluster.isPrimary) {
  superviseProcesses(processes);
} else {
  main().catch((error: unknown) => {
    logLine('error', `could not serve: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
