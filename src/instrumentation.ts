/**
 * Next.js calls this once when a server process starts, inside its bundle. On the Node.js runtime it
 * hands the front (src/front) the bundle's own /v1 handler and settings, so the front answers /v1
 * without loading the server's code a second time (src/front/bridge.ts), and it starts what takes
 * events out of the outbox (the relay to Inngest, or the in-process worker). Not during
 * `next build`, and never on the edge runtime.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const [{ offerToFront }, { formActionSources }, { answerRest }, { env }, { logger }, { startJobs }] = await Promise.all([
    import('./front/bridge'),
    import('./front/csp'),
    import('./server/api/rest'),
    import('./server/env'),
    import('./server/logger'),
    import('./server/jobs/runner'),
  ]);
  const settings = env();
  offerToFront({
    rest: (request) => answerRest(request),
    settings: { TRUST_PROXY: settings.TRUST_PROXY, PUBLIC_BASE_URL: settings.PUBLIC_BASE_URL },
    formActions: formActionSources(settings),
    log: {
      info: (message) => logger.info(message),
      warn: (message) => logger.warn(message),
      error: (message, error) => logger.error({ err: error }, message),
    },
  });
  await startJobs();
}
