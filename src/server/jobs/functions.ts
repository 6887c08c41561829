import type { Inngest } from 'inngest';
import { orderMailKinds } from '@/server/orders/mail';
import { inngest } from './client';
import { configuredJobDeps, runJob, type JobDeps } from './registry';

/**
 * The Inngest functions: thin, one named step around the same domain function the in-process
 * worker calls. Events come from the outbox relay with the outbox row id as event id, so a relay
 * that sends twice starts one run. A failed step is retried by Inngest with its backoff.
 */
export function createFunctions(client: Inngest.Any, deps: () => JobDeps) {
  const orderEmail = client.createFunction(
    {
      id: 'order-email',
      name: 'Order e-mail to the customer',
      retries: 20,
      triggers: Object.keys(orderMailKinds).map((event) => ({ event })),
    },
    async ({ event, step }) => step.run('send the e-mail', () => runJob(event.name, event.data, deps())),
  );
  return [orderEmail];
}

export const functions = createFunctions(inngest, configuredJobDeps);
