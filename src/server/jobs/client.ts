import 'server-only';
import { Inngest } from 'inngest';
import { env } from '@/server/env';

const e = env();

/**
 * The shop's Inngest client. It is used only when Inngest is configured (INNGEST_EVENT_KEY for
 * Inngest Cloud or a self-hosted server at INNGEST_BASE_URL, or INNGEST_DEV=1 for the dev server);
 * otherwise the in-process worker runs the same jobs (src/server/jobs/runner.ts).
 */
export const inngest = new Inngest({
  id: 'atelier-prints',
  eventKey: e.INNGEST_EVENT_KEY,
  signingKey: e.INNGEST_SIGNING_KEY,
  baseUrl: e.INNGEST_BASE_URL,
  isDev: e.INNGEST_DEV,
});
