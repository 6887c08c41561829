import { z } from 'zod';
import { jsonBody, publicProcedure, router } from '@/server/api/trpc';
import { CreateOrder, OrderCreated, OrderLookup, OrderView, PriceTable } from './schema';
import { createOrder, lookupOrder, priceTable } from './service';

export const ordersRouter = router({
  create: publicProcedure
    .meta({
      successStatus: 201,
      openapi: {
        method: 'POST', path: '/orders', tags: ['orders'], protect: false,
        summary: 'Order a reproduction of a catalog artwork or a custom painting',
        description: 'The server computes the total from its own price table; any price sent is ignored.',
        successDescription: 'The order was taken',
        errorResponses: { 400: 'Invalid input, an unknown artwork slug, or an unknown or used upload' },
      },
    })
    .input(jsonBody(CreateOrder))
    .output(OrderCreated)
    .mutation(({ ctx, input }) => createOrder(ctx.db, input)),

  byCode: publicProcedure
    .meta({
      openapi: {
        method: 'GET', path: '/orders/{code}', tags: ['orders'], protect: false,
        summary: 'Look an order up by its code and the customer e-mail',
        description: 'Letter case is ignored in both. A wrong e-mail answers exactly like an unknown code.',
        errorResponses: { 400: 'Invalid input', 404: 'No order matches this code and e-mail' },
      },
    })
    .input(OrderLookup)
    .output(z.object({ order: OrderView }))
    .query(async ({ ctx, input }) => ({ order: await lookupOrder(ctx.db, input.code, input.email) })),

  pricing: publicProcedure
    .meta({
      openapi: {
        method: 'GET', path: '/pricing', tags: ['orders'], protect: false,
        summary: 'The price table the server charges by',
      },
    })
    .input(z.object({}))
    .output(PriceTable)
    .query(() => priceTable()),
});
