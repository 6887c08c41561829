import 'server-only';
import type { Db } from '@/server/db/client';
import { db } from '@/server/db/client';
import { env, publicBaseUrl } from '@/server/env';
import type { SearchNotifier } from '@/server/integrations/indexnow';
import type { LanguageModel } from '@/server/integrations/llm';
import { configuredMailer, type Mailer } from '@/server/integrations/mailer';
import { photoStorage } from '@/server/integrations/storage';
import type { WikidataSource } from '@/server/integrations/wikidata';
import { orderMailKinds, sendOrderMail, sendSketchDecisionMail, sendStudioNotice, STUDIO_NOTICE_EVENT, type OrderMailEvent } from '@/server/orders/mail';
import { configuredPaymentOptions } from '@/server/orders/payment';
import { checkoutMailKinds, sendCheckoutMail, type CheckoutMailEvent } from '@/server/checkouts/mail';
import { SKETCH_DECIDED_EVENT } from '@/server/orders/sketch';
import { configuredPayments } from '@/server/integrations/stripe';
import { CLOSE_CHECKOUTS_EVENT } from '@/server/orders/status';
import type { PaymentProvider } from '@/server/payments/provider';
import { closeCheckouts } from '@/server/payments/sessions';
import { closeUnpaidOrders } from '@/server/payments/unpaid';
import { configuredModel, configuredNotifier } from '@/server/pipeline/config';
import { STORIES_EVENT } from '@/server/pipeline/ingest';
import { notifySearchEngines } from '@/server/pipeline/notify';
import { NOTIFY_EVENT } from '@/server/pipeline/publish';
import { writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';
import { deletePhotosPastRetention } from '@/server/uploads/retention';
import type { PaymentOptions } from '@/shared/payment';

/** What the jobs need from the outside world; tests hand in their own. */
export interface JobDeps {
  db: Db;
  mailer: Mailer | null;
  baseUrl: string;
  /** Where messages for the studio go (SHOP_EMAIL). */
  studioEmail?: string;
  /** How customers pay, for the order-received e-mail. */
  payment?: PaymentOptions;
  /** The payment provider, to close a cancelled order's checkouts; absent when none is configured. */
  payments?: PaymentProvider;
  /** Search-engine notification (IndexNow); null or absent: not configured. */
  notifier?: SearchNotifier | null;
  /** The language model for stories; null or absent: factual templates. */
  model?: LanguageModel | null;
  /** Wikidata for the ingest; PUBLISH_PER_DAY for publish runs. */
  wikidata?: WikidataSource;
  perDay?: number;
}

export function configuredJobDeps(): JobDeps {
  // No Wikidata here: the ingest makes its source when it runs, so a missing WIKIDATA_CONTACT stops
  // the ingest alone, never an order e-mail that shares these dependencies.
  return {
    db: db(),
    mailer: configuredMailer(),
    baseUrl: publicBaseUrl(env()),
    studioEmail: env().SHOP_EMAIL,
    payment: configuredPaymentOptions(),
    payments: configuredPayments(),
    notifier: configuredNotifier(),
    model: configuredModel(),
    perDay: env().PUBLISH_PER_DAY,
  };
}

type Job = (payload: unknown, deps: JobDeps) => Promise<unknown>;

/**
 * The domain function behind each outbox event name. The in-process worker calls these directly;
 * with Inngest configured, the Inngest functions (functions.ts) call the very same ones.
 */
export const jobs: Record<string, Job> = {
  ...Object.fromEntries(
    (Object.keys(orderMailKinds) as OrderMailEvent[]).map((name) => [
      name,
      (payload: unknown, deps: JobDeps) => sendOrderMail(deps.db, deps.mailer, name, payload, { baseUrl: deps.baseUrl, payment: deps.payment }),
    ]),
  ),
  // A basket taken → its one order-received e-mail, every order in it; its unpaid orders reminded or
  // cancelled together → one e-mail for them.
  ...Object.fromEntries(
    (Object.keys(checkoutMailKinds) as CheckoutMailEvent[]).map((name) => [
      name,
      (payload: unknown, deps: JobDeps) => sendCheckoutMail(deps.db, deps.mailer, name, payload, { baseUrl: deps.baseUrl, payment: deps.payment }),
    ]),
  ),
  // A customer's sketch decision → the studio.
  [SKETCH_DECIDED_EVENT]: (payload, deps) =>
    sendSketchDecisionMail(deps.db, deps.mailer, payload, { baseUrl: deps.baseUrl, studioEmail: deps.studioEmail ?? env().SHOP_EMAIL }),
  // A cancelled order's open checkouts → expired at Stripe.
  [CLOSE_CHECKOUTS_EVENT]: (payload, deps) => closeCheckouts(deps.db, deps.payments, payload),
  // A double payment refunded, a dispute opened or closed → the studio.
  [STUDIO_NOTICE_EVENT]: (payload, deps) => sendStudioNotice(deps.mailer, payload, { baseUrl: deps.baseUrl, studioEmail: deps.studioEmail ?? env().SHOP_EMAIL }),
  // New page addresses after a publish run → IndexNow (failures are recorded, not thrown).
  [NOTIFY_EVENT]: (payload, deps) => notifySearchEngines(deps.db, deps.notifier ?? null, payload),
  // Stories after an ingest added works (templates when no language model is configured), then titles.
  [STORIES_EVENT]: (_payload, deps) => writeStoriesAndTitles(deps),
};

/**
 * The worker's stories job: every story, then title passes until every work has its six titles.
 * A pass that completes nothing while titles still wait (the model down or cut off) throws, so the
 * outbox tries the event again with its back-off until the model answers: there is no publish tick
 * in the worker to take them up.
 */
export async function writeStoriesAndTitles(deps: JobDeps) {
  const stories = await writeStories(deps.db, deps.model ?? null);
  let translated = 0;
  for (;;) {
    const titles = await translateTitles(deps.db, deps.model ?? null);
    translated += titles.translated + titles.fallback;
    if (titles.remaining === 0) break;
    if (titles.completed === 0) {
      throw new Error(`titles: ${titles.remaining} works still wait for their titles (${titles.errors[0] ?? 'no title came back'}); tried again later`);
    }
  }
  return { ...stories, translated };
}

/** Reminds and cancels unpaid orders as the terms say (decisions.md "Payments and refunds"); hourly on Inngest, with retention in the worker. */
export const runUnpaidOrders = (deps: JobDeps) => closeUnpaidOrders(deps.db, { remindDays: env().UNPAID_REMIND_DAYS, cancelDays: env().UNPAID_CANCEL_DAYS });

/** Deletes photos past their retention (decisions.md "Images and retention"); daily on Inngest, every few hours in the worker. */
export const runRetention = (deps: JobDeps) => deletePhotosPastRetention(deps.db, photoStorage(), { retentionDays: env().PHOTO_RETENTION_DAYS });

/** Runs the job an outbox event names; an event nobody handles is an error (it stays and is retried). */
export async function runJob(name: string, payload: unknown, deps: JobDeps): Promise<unknown> {
  const job = jobs[name];
  if (!job) throw new Error(`No job handles the event ${name}.`);
  return job(payload, deps);
}
