import 'server-only';
import type { Inngest } from 'inngest';
import { db } from '@/server/db/client';
import { env, inngestConfigured, type Env } from '@/server/env';
import { configuredMailer } from '@/server/integrations/mailer';
import { logger } from '@/server/logger';
import { translateTitles } from '@/server/pipeline/translations';
import { configuredJobDeps, jobs, runJob, runRetention, runUnpaidOrders, type JobDeps } from './registry';
import { startOutboxLoop, type OutboxHandler, type OutboxLoop } from './worker';

/** Hands an outbox row to Inngest; the row id is the event id, so a repeated send is one event. */
export const relayTo =
  (client: Pick<Inngest.Any, 'send'>): OutboxHandler =>
  async (row) =>
    client.send({ id: row.id, name: row.name, data: (row.payload ?? {}) as Record<string, unknown> });

/** Runs an outbox row's job right here (no Inngest configured). */
export const runHere =
  (deps: () => JobDeps): OutboxHandler =>
  async (row) =>
    runJob(row.name, row.payload, deps());

const holder = globalThis as unknown as { __artPrintsJobs?: OutboxLoop };

/**
 * Starts, once per server process, what takes events out of the outbox: the relay to Inngest when
 * Inngest is configured, the in-process worker otherwise. Called from src/instrumentation.ts.
 */
export async function startJobs(): Promise<void> {
  if (holder.__artPrintsJobs) return;
  const e = env();
  if (!process.env.DATABASE_URL) {
    logger.warn('jobs: not started, DATABASE_URL is unset (start the shop with npm start)');
    return;
  }
  if (!configuredMailer()) logger.info('mail: off (SMTP_URL unset); order e-mails are logged, not sent, and the shop carries on');
  const mode = jobMode(e);
  logger.info(mode.line);
  if (mode.mode === 'inngest') {
    const { inngest } = await import('./client');
    holder.__artPrintsJobs = startOutboxLoop(db(), relayTo(inngest));
  } else {
    const outbox = startOutboxLoop(db(), runHere(configuredJobDeps), { names: Object.keys(jobs) });
    const housekeeping = startHousekeepingTimer();
    holder.__artPrintsJobs = { stop: async () => (housekeeping.stop(), outbox.stop()) };
  }
}

/** Which of the two takes outbox events out, and the one log line that says so at start. */
export function jobMode(e: Env): { mode: 'inngest' | 'worker'; line: string } {
  if (inngestConfigured(e)) {
    const where = e.INNGEST_BASE_URL ?? (e.INNGEST_DEV ? 'the local Inngest dev server' : 'Inngest Cloud');
    return { mode: 'inngest', line: `jobs: Inngest mode; outbox events are relayed to ${where} and run by the functions at /api/inngest` };
  }
  return { mode: 'worker', line: 'jobs: in-process worker (INNGEST_EVENT_KEY and INNGEST_DEV unset); outbox events such as order e-mail are run by this server' };
}

export async function stopJobs(): Promise<void> {
  await holder.__artPrintsJobs?.stop();
  holder.__artPrintsJobs = undefined;
}

/**
 * The worker's stand-in for the scheduled Inngest functions: unpaid orders, then photo retention,
 * then one title pass (published works missing a language, works whose stories job gave up), a
 * minute after start and every six hours (a reminder or a cancellation comes at most six hours late).
 */
const HOUSEKEEPING_EVERY_MS = 6 * 3_600_000;

function startHousekeepingTimer(): { stop(): void } {
  const run = () =>
    void runUnpaidOrders(configuredJobDeps())
      .catch((error: unknown) => logger.warn({ err: error }, 'unpaid orders: the run failed; tried again at the next run'))
      .then(() => runRetention(configuredJobDeps()))
      .then(
        (result) => (result.unusedUploads || result.photos) && logger.info(result, 'photo retention: deleted what was past its time'),
        (error: unknown) => logger.warn({ err: error }, 'photo retention failed; tried again at the next run'),
      )
      .then(() => {
        const deps = configuredJobDeps();
        return translateTitles(deps.db, deps.model ?? null);
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'titles: the pass failed; tried again at the next run'));
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, HOUSEKEEPING_EVERY_MS);
  first.unref();
  every.unref();
  return { stop: () => (clearTimeout(first), clearInterval(every)) };
}
