/**
 * Next.js calls this once when a server process starts, inside its bundle. On the Node.js runtime it
 * leaves the app's own request handling (src/server/http/serving.ts: who is asking, /v1 beside
 * Next's router, pages to Next) where the shop's server (server.mjs) takes it, so the app's code
 * is loaded once per process; and it starts what takes events out of the outbox (the relay to
 * Inngest, or the in-process worker). Not during `next build`, and never on the edge runtime.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const [{ createServing, gracefulStop }, { answerRest }, { env }, { logger }, { startJobs }] = await Promise.all([
    import('./server/http/serving'),
    import('./server/api/rest'),
    import('./server/env'),
    import('./server/logger'),
    import('./server/jobs/runner'),
  ]);
  const settings = env();
  const serving = createServing({
    rest: (request) => answerRest(request),
    settings: { TRUST_PROXY: settings.TRUST_PROXY, PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL },
    onError: (error, where) => logger.error({ err: error }, `${where} failed`),
  });
  // The slot server.mjs reads (a plain key on globalThis: server.mjs is outside Next's bundle).
  Object.assign(globalThis, {
    [Symbol.for('atelier-prints.serving')]: {
      ...serving,
      gracefulStop,
      log: { info: (message: string) => logger.info(message), warn: (message: string) => logger.warn(message) },
    },
  });
  await startJobs();
}
