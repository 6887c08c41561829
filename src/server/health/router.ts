import 'server-only';
import { z } from 'zod';
import { publicProcedure, router } from '@/server/api/trpc';
import { checkHealth } from './service';

export const HealthAnswer = z.object({ status: z.literal('ok'), database: z.literal('ok'), migrations: z.literal('current') }).meta({ id: 'Health' });

export const healthRouter = router({
  check: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/health',
        tags: ['meta'],
        protect: false,
        summary: 'For load balancers: the database answers and its schema is current',
        description: 'Never cached, never rate limited. 503 (code unavailable) when the database does not answer within 2 s or a migration of this version is not applied.',
      },
    })
    .input(z.object({}))
    .output(HealthAnswer)
    .query(({ ctx }) => checkHealth(ctx.db)),
});
