/**
 * The shop's server: Next's documented custom server, which sends /v1 to trpc-to-openapi's handler
 * and everything else to Next. `npm start` and `npm run dev` run it (scripts/start.ts, once the
 * database is ready and the site built), one process per SERVER_PROCESSES.
 *
 *   node server.mjs [--dev]      (PORT: where it listens, on every interface; SHUTDOWN_GRACE_MS)
 *
 * It loads nothing of the app itself: Next does, inside its bundle, and src/instrumentation.ts
 * leaves the app's own request handling (src/server/http/serving.ts) in one slot here, so the
 * app's code and its database pool exist once per process.
 */
import http from 'node:http';
import next from 'next';

const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? 3000);
const graceMs = Number(process.env.SHUTDOWN_GRACE_MS ?? 10_000);
const SLOT = Symbol.for('atelier-prints.serving');

const server = http.createServer();
const app = next({ dev, hostname: 'localhost', port, httpServer: server });
const handle = app.getRequestHandler();
await app.prepare();
const shop = await offeredServing();

server.on('request', (req, res) => {
  shop.identify(req);
  // Under `npm run dev` /v1 goes through Next's route handler (src/app/v1), which runs the code as
  // it is now, not as it was when the server started; it calls the same handler.
  if (!dev && shop.isRest(req.url)) void shop.answerRest(req, res);
  else void shop.answerPage(req, res, handle);
});
// Longer than a load balancer's idle timeout (typically 60 s), so the balancer closes first.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.listen(port, () => shop.log.info(`serving on http://localhost:${port} (${dev ? 'development' : 'production'})`));

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  shop.log.info(`${signal}: finishing the requests in flight, then stopping`);
  if (!(await shop.gracefulStop(server, graceMs))) shop.log.warn(`stopped after ${graceMs} ms with requests still open`);
  await app.close().catch(() => {});
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

/** What src/instrumentation.ts offers once Next has run it (it may finish after `app.prepare()`). */
async function offeredServing() {
  for (let waited = 0; waited < 60_000; waited += 50) {
    if (globalThis[SLOT]) return globalThis[SLOT];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('src/instrumentation.ts offered the server nothing within 60 s');
}
