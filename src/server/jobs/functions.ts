import 'server-only';
import { NonRetriableError, RetryAfterError, type Inngest } from 'inngest';
import { RateLimitedError } from '@/server/integrations/http';
import { checkoutMailKinds } from '@/server/checkouts/mail';
import { orderMailKinds, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { SKETCH_DECIDED_EVENT } from '@/server/orders/sketch';
import { CLOSE_CHECKOUTS_EVENT } from '@/server/orders/status';
import { configuredWikidata } from '@/server/pipeline/config';
import {
  finishIngest,
  ingestPainter,
  ingestResult,
  IngestRequest,
  PAINTER_RULE,
  PAINTERS_OUT_OF_TIME,
  planIngest,
  STORIES_EVENT,
  tooManyOutOfTime,
  type IngestPlan,
  type PainterStep,
} from '@/server/pipeline/ingest';
import { notifySearchEngines } from '@/server/pipeline/notify';
import {
  finishPainterListRefresh,
  painterListDue,
  refreshSlice,
  SLICES_OUT_OF_TIME,
  startPainterListRefresh,
  tooManySlicesOutOfTime,
  type PainterListRefresh,
  type SliceStep,
} from '@/server/pipeline/painter-list';
import { NOTIFY_EVENT, publishRun } from '@/server/pipeline/publish';
import { refreshCounts } from '@/server/pipeline/stats';
import { writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';
import { ConfigError, env } from '@/server/env';
import { inngest } from './client';
import { configuredJobDeps, runJob, runRetention, runUnpaidOrders, type JobDeps } from './registry';

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
      triggers: [...Object.keys(orderMailKinds), ...Object.keys(checkoutMailKinds)].map((event) => ({ event })),
    },
    async ({ event, step }) => step.run('send the e-mail', () => runJob(event.name, event.data, deps())),
  );

  const studioEmail = client.createFunction(
    {
      id: 'studio-email',
      name: "E-mail to the studio: a customer's sketch decision, a double payment, a dispute",
      retries: 20,
      triggers: [{ event: SKETCH_DECIDED_EVENT }, { event: STUDIO_NOTICE_EVENT }],
    },
    async ({ event, step }) => step.run('send the e-mail', () => runJob(event.name, event.data, deps())),
  );

  // ── Catalog pipeline (decisions.md "Catalog pipeline"): each a few named steps around a domain service.
  const ingest = client.createFunction(
    {
      id: 'catalog.ingest',
      name: 'Catalog: ingest painters from Wikidata',
      retries: 3,
      concurrency: { limit: 1 },
      triggers: [{ cron: '15 0 * * *' }, { event: 'catalog/ingest.requested' }],
    },
    async ({ event, step }) => {
      const request = IngestRequest.parse(event.data ?? {});
      const d = deps();
      let wikidata = d.wikidata;
      try {
        wikidata ??= configuredWikidata();
      } catch (error) {
        // WIKIDATA_CONTACT missing for the public endpoint: retrying cannot help until it is set.
        if (error instanceof ConfigError) throw new NonRetriableError(error.message);
        throw error;
      }
      const source = wikidata;
      // One step to plan, one per painter, one to finish: each is its own short call, retried
      // alone (a cut call repeats one painter, never the night), and a 429 waits as long as WDQS asks.
      const waitingOut = async <T>(work: () => Promise<T>): Promise<T> => {
        try {
          return await work();
        } catch (error) {
          if (error instanceof RateLimitedError) throw new RetryAfterError(error.message, new Date(Date.now() + error.retryAfterMs), { cause: error });
          throw error;
        }
      };
      // The stored painter list, refreshed first when a week old (never refreshed: the first night).
      const trigger = event.name === 'catalog/ingest.requested' ? 'staff' : 'schedule';
      if (await step.run('is the painter list due', () => painterListDue(d.db, new Date()))) {
        const refresh = (await step.run('start the painter list', () => startPainterListRefresh(d.db, PAINTER_RULE, { trigger }))) as PainterListRefresh;
        const slices: SliceStep[] = [];
        for (const [index, slice] of refresh.slices.entries()) {
          slices.push(
            (await step.run(`painter list, died ${slice.from ?? ''}-${slice.to}`, () =>
              waitingOut(() => refreshSlice(d.db, source, refresh, index, PAINTER_RULE)),
            )) as SliceStep,
          );
          if (tooManySlicesOutOfTime(slices)) {
            // The service is struggling: the night ends here, and the next one tries the list again.
            await step.run('stop the painter list', () =>
              finishPainterListRefresh(d.db, refresh, slices, new Error(`${SLICES_OUT_OF_TIME} slices in a row ran out of time: the query service is struggling`)),
            );
            return { painterList: 'failed' as const };
          }
        }
        await step.run('finish the painter list', () => finishPainterListRefresh(d.db, refresh, slices));
      }
      const plan = (await step.run('plan the run', () =>
        waitingOut(() => planIngest(d.db, source, { painters: request.painters, force: request.force, trigger })),
      )) as IngestPlan;
      if (plan.skipped) return ingestResult(plan, []);
      const steps: PainterStep[] = [];
      for (const [index, painter] of plan.work.entries()) {
        steps.push((await step.run(`painter ${painter.qid}`, () => waitingOut(() => ingestPainter(d.db, source, plan, index)))) as PainterStep);
        if (tooManyOutOfTime(steps)) {
          await step.run('stop the run', () =>
            finishIngest(d.db, plan, new Error(`${PAINTERS_OUT_OF_TIME} painters in a row ran out of time: the query service is struggling`)),
          );
          return ingestResult(plan, steps);
        }
      }
      await step.run('finish the run', () => finishIngest(d.db, plan));
      return ingestResult(plan, steps);
    },
  );

  const writeStoriesFn = client.createFunction(
    {
      id: 'catalog.write-stories',
      name: 'Catalog: write stories for queued artworks',
      retries: 5,
      concurrency: { limit: 1 },
      idempotency: 'event.id',
      triggers: [{ event: STORIES_EVENT }],
    },
    async ({ step }) => {
      let written = 0;
      let translated = 0;
      let storiesDone = false;
      let titlesDone = false;
      // Each batch its own steps: stories, then the titles (a work is ready with both). A pass that
      // completes nothing (the model down) ends the job: the publish ticks take the titles up again.
      for (let batch = 1; batch <= 100 && !(storiesDone && titlesDone); batch++) {
        if (!storiesDone) {
          const done = await step.run(`write stories, batch ${batch}`, () => writeStories(deps().db, deps().model ?? null, { limit: 200 }));
          written += done.written;
          storiesDone = done.remaining === 0 || done.written === 0;
        }
        if (!titlesDone) {
          const titles = await step.run(`complete titles, batch ${batch}`, () => translateTitles(deps().db, deps().model ?? null, { limit: 200 }));
          translated += titles.translated + titles.fallback;
          titlesDone = titles.remaining === 0 || titles.completed === 0;
        }
      }
      return { written, translated };
    },
  );

  const publish = client.createFunction(
    {
      id: 'catalog.publish',
      name: 'Catalog: publish ready artworks within the daily cap',
      retries: 2,
      concurrency: { limit: 1 },
      idempotency: 'event.id',
      triggers: [{ cron: '*/10 * * * *' }, { event: 'catalog/publish.requested' }],
    },
    async ({ event, step }) => {
      const requested = (event.data as { count?: unknown } | undefined)?.count;
      const count = typeof requested === 'number' && requested >= 1 ? Math.floor(requested) : undefined;
      // Titles first, one bounded pass a tick (at most 30 model calls): what a pass cut off is
      // finished by the next tick, and only works with their six titles are published.
      await step.run('complete titles', () => translateTitles(deps().db, deps().model ?? null));
      const result = await step.run('publish', () => {
        const d = deps();
        return publishRun(d.db, {
          perDay: d.perDay ?? env().PUBLISH_PER_DAY,
          baseUrl: d.baseUrl,
          trigger: event.name === 'catalog/publish.requested' ? 'staff' : 'schedule',
          count,
        });
      });
      if (result.published > 0) await step.sendEvent('ask for a recount', { name: 'catalog/counts.refresh-requested', data: { publishLogId: result.publishLogId } });
      return result;
    },
  );

  const recount = client.createFunction(
    {
      id: 'catalog.refresh-counts',
      name: 'Catalog: recount artist and browse-page sizes',
      retries: 3,
      concurrency: { limit: 1 },
      triggers: [{ cron: '0 * * * *' }, { event: 'catalog/counts.refresh-requested' }],
    },
    async ({ step }) => step.run('recount', () => refreshCounts(deps().db)),
  );

  const closeCheckouts = client.createFunction(
    { id: 'orders.close-checkouts', name: "Orders: close a cancelled order's open checkouts", retries: 20, triggers: [{ event: CLOSE_CHECKOUTS_EVENT }] },
    async ({ event, step }) => step.run('expire the open sessions', () => runJob(event.name, event.data, deps())),
  );

  const unpaid = client.createFunction(
    { id: 'orders.unpaid', name: 'Orders: remind, then cancel, unpaid orders', retries: 3, concurrency: { limit: 1 }, triggers: [{ cron: '20 * * * *' }] },
    async ({ step }) => step.run('remind and cancel unpaid orders', () => runUnpaidOrders(deps())),
  );

  const retention = client.createFunction(
    { id: 'photos.retention', name: 'Photos: delete what is past its retention', retries: 3, concurrency: { limit: 1 }, triggers: [{ cron: '30 3 * * *' }] },
    async ({ step }) => step.run('delete photos past retention', () => runRetention(deps())),
  );

  const notify = client.createFunction(
    {
      id: 'seo.notify',
      name: 'SEO: submit new page addresses to IndexNow',
      retries: 5,
      idempotency: 'event.id',
      triggers: [{ event: NOTIFY_EVENT }],
    },
    async ({ event, step }) => step.run('submit to IndexNow', () => notifySearchEngines(deps().db, deps().notifier ?? null, event.data)),
  );

  return [orderEmail, studioEmail, closeCheckouts, unpaid, retention, ingest, writeStoriesFn, publish, recount, notify];
}

export const functions = createFunctions(inngest, configuredJobDeps);
