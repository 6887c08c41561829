import { catalogRouter } from '@/server/catalog/router';
import { ordersRouter } from '@/server/orders/router';
import { seoRouter } from '@/server/seo/router';
import { router } from './trpc';

/** Every procedure of the shop; the website calls it through tRPC, outside clients through /v1. */
export const appRouter = router({
  catalog: catalogRouter,
  orders: ordersRouter,
  seo: seoRouter,
});

export type AppRouter = typeof appRouter;
