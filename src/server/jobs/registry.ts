import type { Db } from '@/server/db/client';
import { db } from '@/server/db/client';
import { env, publicBaseUrl } from '@/server/env';
import { configuredMailer, type Mailer } from '@/server/integrations/mailer';
import { orderMailKinds, sendOrderMail, type OrderMailEvent } from '@/server/orders/mail';

/** What the jobs need from the outside world; tests hand in their own. */
export interface JobDeps {
  db: Db;
  mailer: Mailer | null;
  baseUrl: string;
}

export function configuredJobDeps(): JobDeps {
  return { db: db(), mailer: configuredMailer(), baseUrl: publicBaseUrl(env()) };
}

type Job = (payload: unknown, deps: JobDeps) => Promise<unknown>;

/**
 * The domain function behind each outbox event name. The in-process worker calls these directly;
 * with Inngest configured, the Inngest functions (functions.ts) call the very same ones.
 */
export const jobs: Record<string, Job> = Object.fromEntries(
  (Object.keys(orderMailKinds) as OrderMailEvent[]).map((name) => [
    name,
    (payload: unknown, deps: JobDeps) => sendOrderMail(deps.db, deps.mailer, name, payload, { baseUrl: deps.baseUrl }),
  ]),
);

/** Runs the job an outbox event names; an event nobody handles is an error (it stays and is retried). */
export async function runJob(name: string, payload: unknown, deps: JobDeps): Promise<unknown> {
  const job = jobs[name];
  if (!job) throw new Error(`No job handles the event ${name}.`);
  return job(payload, deps);
}
