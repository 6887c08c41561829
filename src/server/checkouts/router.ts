import 'server-only';
import { z } from 'zod';
import { jsonBody, publicProcedure, router } from '@/server/api/trpc';
import { orderViewSettings, payBasketLater } from '@/server/orders/payment';
import { placedByOf } from '@/server/orders/placed-by';
import { CheckoutCreated, CheckoutView, CreateCheckout } from '@/shared/checkout-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';
import { CheckoutOpened, OrderLookup, PayLater } from '@/shared/order-schema';
import { createCheckout, lookupCheckout } from './service';

/** A basket counts one order per item against the order allowance (at most the most a basket holds). */
const ordersIn = (raw: unknown) => {
  const items = (raw as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? Math.min(Math.max(items.length, 1), MAX_CHECKOUT_ITEMS) : 1;
};

/** The basket (decisions.md "A basket: several works, one payment"): thin, the rules are in service.ts. */
export const checkoutsRouter = router({
  create: publicProcedure
    .meta({
      successStatus: 201,
      rateLimit: 'orderCreate',
      rateCount: ordersIn,
      body: CreateCheckout,
      openapi: {
        method: 'POST',
        path: '/checkouts',
        tags: ['orders'],
        protect: false,
        summary: 'Order several works at once and pay them in one payment (a basket)',
        description:
          'Each item becomes an ordinary order with its own code, priced by the server as POST /orders would price it. All or nothing: ' +
          'one invalid item refuses the whole basket and creates nothing, the message naming the item (items[2].artworkSlug: …). ' +
          'Each order counts against the order allowance. With a payment provider, checkoutUrl is one Stripe Checkout session with a line per order.',
        successDescription: 'The basket and its orders were taken',
        errorResponses: { 400: 'Invalid input, 0 or more than 10 items, an unknown artwork slug, an unknown or used upload, or one upload in two items' },
      },
    })
    .input(jsonBody(CreateCheckout))
    .output(CheckoutCreated)
    .mutation(async ({ ctx, input }) => createCheckout(ctx.db, input, ctx.payments, await placedByOf(ctx))),

  byCode: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      openapi: {
        method: 'GET',
        path: '/checkouts/{code}',
        tags: ['orders'],
        protect: false,
        summary: 'Look a basket up by its code and the customer e-mail',
        description: 'Each of its orders as its own lookup shows it. Letter case is ignored in both. A wrong e-mail answers exactly like an unknown code.',
        errorResponses: { 400: 'Invalid input', 404: 'No basket matches this code and e-mail' },
      },
    })
    .input(OrderLookup)
    .output(z.object({ checkout: CheckoutView }))
    .query(async ({ ctx, input }) => ({ checkout: await lookupCheckout(ctx.db, input.code, input.email, orderViewSettings(ctx.payments)) })),

  checkout: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      body: PayLater,
      openapi: {
        method: 'POST',
        path: '/checkouts/{code}/checkout',
        tags: ['orders'],
        protect: false,
        summary: 'Pay a basket later: one fresh checkout session for its orders still waiting for payment',
        description:
          'The rules of paying an order later (POST /orders/{code}/checkout), for the whole basket: every earlier session of its orders that is still open is ' +
          'expired first, and when one cannot be no new session is opened. Orders cancelled or paid meanwhile are left out. ' +
          "An order's own pay later on an order of a basket answers the same as this. A wrong e-mail answers exactly like an unknown code.",
        errorResponses: {
          400: 'Invalid input',
          404: 'No basket matches this code and e-mail',
          409: 'No order of the basket is pending (invalid_transition), no payment provider is configured (payment_unavailable), or a payment is on its way (payment_in_progress)',
        },
      },
    })
    .input(jsonBody(PayLater, { code: z.string().min(1).max(20) }))
    .output(CheckoutOpened)
    .mutation(({ ctx, input }) => payBasketLater(ctx.db, input.code, input.email, ctx.payments)),
});
