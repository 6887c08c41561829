import 'server-only';
import { z } from 'zod';
import { jsonBody, router, staffProcedure } from '@/server/api/trpc';
import { env, publicBaseUrl } from '@/server/env';
import { publishRun } from './publish';
import { PublishAnswer, PublishRequest, RecountAnswer, SeoStats } from './schema';
import { pipelineStats, refreshCounts } from './stats';

const unauthorized = { 401: 'Missing or wrong staff token' };

/** Staff SEO endpoints: the publication pipeline's figures, a publish now, a recount. */
export const pipelineRouter = router({
  stats: staffProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/seo/stats',
        tags: ['staff'],
        protect: true,
        summary: 'Queue, publication and browse-page statistics, and the last 30 publish runs (staff)',
        description:
          "What the dashboard's pipeline page shows: how many works wait at each step, how many were published today against the daily cap, and how each recent run went.",
        errorResponses: unauthorized,
      },
    })
    .input(z.object({}))
    .output(SeoStats)
    .query(({ ctx }) => pipelineStats(ctx.db, { perDay: env().PUBLISH_PER_DAY })),

  publish: staffProcedure
    .meta({
      body: PublishRequest,
      openapi: {
        method: 'POST',
        path: '/admin/seo/publish',
        tags: ['staff'],
        protect: true,
        summary: 'Publish up to `count` ready artworks now, within the daily cap (staff)',
        description:
          'Same rules as the scheduled run: public artists with fewer than 10 works first, a new artist only with a block of 10, ' +
          'most popular first; the cap PUBLISH_PER_DAY counts every path in the current UTC day. Search engines are notified after the answer.',
        errorResponses: { 400: 'Invalid count', ...unauthorized },
      },
    })
    .input(jsonBody(PublishRequest))
    .output(PublishAnswer)
    .mutation(({ ctx, input }) => publishRun(ctx.db, { perDay: env().PUBLISH_PER_DAY, baseUrl: publicBaseUrl(env()), trigger: 'staff', count: input.count })),

  refreshCounts: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/seo/refresh-counts',
        tags: ['staff'],
        protect: true,
        summary: 'Recount artist and browse-page sizes, answering the new counts (staff)',
        description:
          'The counts decide which artist and browse pages exist (at least 3 works) and their order; the job engine recounts after each publish, this does it now. Running it twice changes nothing the second time.',
        errorResponses: unauthorized,
      },
    })
    .input(z.object({}))
    .output(RecountAnswer)
    .mutation(({ ctx }) => refreshCounts(ctx.db)),
});
