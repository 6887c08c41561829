/**
 * Next.js calls this once when a server process starts. On the Node.js runtime it starts what
 * takes events out of the outbox (the relay to Inngest, or the in-process worker); not during
 * `next build`, and never on the edge runtime.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build') return;
  const { startJobs } = await import('./server/jobs/runner');
  await startJobs();
}
