import 'server-only';
import { accountRouter } from '@/server/accounts/router';
import { catalogRouter } from '@/server/catalog/router';
import { checkoutsRouter } from '@/server/checkouts/router';
import { healthRouter } from '@/server/health/router';
import { ordersRouter } from '@/server/orders/router';
import { paymentsRouter } from '@/server/payments/router';
import { pipelineRouter } from '@/server/pipeline/router';
import { seoRouter } from '@/server/seo/router';
import { showcaseRouter } from '@/server/showcase/router';
import { router } from './trpc';

/** Every procedure of the shop; the website calls it through tRPC, outside clients through /v1. */
export const appRouter = router({
  catalog: catalogRouter,
  orders: ordersRouter,
  checkouts: checkoutsRouter,
  payments: paymentsRouter,
  seo: seoRouter,
  pipeline: pipelineRouter,
  account: accountRouter,
  health: healthRouter,
  showcase: showcaseRouter,
});

export type AppRouter = typeof appRouter;
