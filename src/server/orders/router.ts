import 'server-only';
import { z } from 'zod';
import { jsonBody, publicProcedure, router, staffProcedure } from '@/server/api/trpc';
import {
  CheckoutOpened,
  CreateOrder,
  OrderCreated,
  OrderLookup,
  OrderView,
  PayLater,
  PriceTable,
  ShowcaseConsentChange,
  SketchDecision,
  StaffOrderDetail,
  StaffOrderPage,
  StaffOrderQuery,
  StatusChange,
} from '@/shared/order-schema';
import { orderViewSettings, payLater } from './payment';
import { placedByOf } from './placed-by';
import { changeShowcaseConsent } from './consent';
import { createOrder, lookupOrder, priceTable } from './service';
import { decideOnSketch } from './sketch';
import { listOrders } from './staff';
import { changeOrderStatus } from './status';

export const ordersRouter = router({
  create: publicProcedure
    .meta({
      successStatus: 201,
      rateLimit: 'orderCreate',
      body: CreateOrder,
      openapi: {
        method: 'POST',
        path: '/orders',
        tags: ['orders'],
        protect: false,
        summary: 'Order a reproduction of a catalog artwork or a custom painting',
        description: 'The server computes the total from its own price table; any price sent is ignored.',
        successDescription: 'The order was taken',
        errorResponses: { 400: 'Invalid input, an unknown artwork slug, or an unknown or used upload' },
      },
    })
    .input(jsonBody(CreateOrder))
    .output(OrderCreated)
    .mutation(async ({ ctx, input }) => createOrder(ctx.db, input, ctx.payments, await placedByOf(ctx))),

  byCode: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      openapi: {
        method: 'GET',
        path: '/orders/{code}',
        tags: ['orders'],
        protect: false,
        summary: 'Look an order up by its code and the customer e-mail',
        description: 'Letter case is ignored in both. A wrong e-mail answers exactly like an unknown code.',
        errorResponses: { 400: 'Invalid input', 404: 'No order matches this code and e-mail' },
      },
    })
    .input(OrderLookup)
    .output(z.object({ order: OrderView }))
    .query(async ({ ctx, input }) => ({ order: await lookupOrder(ctx.db, input.code, input.email, orderViewSettings(ctx.payments)) })),

  sketchDecision: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      body: SketchDecision,
      openapi: {
        method: 'POST',
        path: '/orders/{code}/sketch-decision',
        tags: ['orders'],
        protect: false,
        summary: 'Approve the sketch of a custom painting, or ask for changes',
        description:
          'Only when the studio has shown a sketch and it waits for the customer (sketchStatus pending). Records an event with the ' +
          'decision and the comment, and tells the studio. A wrong e-mail answers exactly like an unknown code.',
        errorResponses: {
          400: 'Invalid input (a comment over 2000 characters, an unknown decision)',
          404: 'No order matches this code and e-mail',
          409: 'Not a custom order, no sketch shown yet, or the sketch is decided on already',
        },
      },
    })
    .input(jsonBody(SketchDecision, { code: z.string().min(1).max(20) }))
    .output(z.object({ order: OrderView }))
    .mutation(async ({ ctx, input }) => {
      const { code, ...decision } = input;
      return { order: await decideOnSketch(ctx.db, code, decision, orderViewSettings(ctx.payments)) };
    }),

  showcaseConsent: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      body: ShowcaseConsentChange,
      openapi: {
        method: 'POST',
        path: '/orders/{code}/showcase-consent',
        tags: ['orders'],
        protect: false,
        summary: 'Allow the studio to show the finished painting, or take it back',
        description:
          'The same permission as showcaseConsent when ordering, changed at any time: taken back, the painting leaves the gallery at once and ' +
          "its finished photo is deleted with the order's other photos. A cancelled order can only take it back. " +
          'A wrong e-mail answers exactly like an unknown code.',
        errorResponses: {
          400: 'Invalid input',
          404: 'No order matches this code and e-mail',
          409: 'The order is cancelled: there is no painting to show',
        },
      },
    })
    .input(jsonBody(ShowcaseConsentChange, { code: z.string().min(1).max(20) }))
    .output(z.object({ order: OrderView }))
    .mutation(async ({ ctx, input }) => {
      const { code, ...change } = input;
      return { order: await changeShowcaseConsent(ctx.db, code, change, orderViewSettings(ctx.payments)) };
    }),

  checkout: publicProcedure
    .meta({
      rateLimit: 'orderLookup',
      body: PayLater,
      openapi: {
        method: 'POST',
        path: '/orders/{code}/checkout',
        tags: ['orders'],
        protect: false,
        summary: 'Pay a pending order later: a fresh checkout session',
        description:
          "Opens a new Stripe Checkout session for the order's total; every earlier session of the order that is still open is expired first, " +
          'and when one cannot be (it was paid, or its debit is on its way) no new session is opened. ' +
          'A wrong e-mail answers exactly like an unknown code.',
        errorResponses: {
          400: 'Invalid input',
          404: 'No order matches this code and e-mail',
          409:
            'The order is not pending (invalid_transition), no payment provider is configured (payment_unavailable), or a payment is on its way ' +
            '(payment_in_progress: a bank debit, or an earlier session paid before its webhook arrived)',
        },
      },
    })
    .input(jsonBody(PayLater, { code: z.string().min(1).max(20) }))
    .output(CheckoutOpened)
    .mutation(({ ctx, input }) => payLater(ctx.db, input.code, input.email, ctx.payments)),

  pricing: publicProcedure
    .meta({
      crossOrigin: true,
      openapi: {
        method: 'GET',
        path: '/pricing',
        tags: ['orders'],
        protect: false,
        summary: 'The price table the server charges by',
        description:
          'Integer US cents by size and finish, and how a custom painting is priced from them; every order total is computed from this table, whatever the client sends.',
      },
    })
    .input(z.object({}))
    .output(PriceTable)
    .query(() => priceTable()),

  adminList: staffProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/admin/orders',
        tags: ['staff'],
        protect: true,
        summary: 'List orders, newest first (staff)',
        description: "48 a page, with customer, totals and, for custom orders, the photo's upload id.",
        errorResponses: { 400: 'Invalid status or page', 401: 'Missing or wrong staff token' },
      },
    })
    .input(StaffOrderQuery)
    .output(StaffOrderPage)
    .query(({ ctx, input }) => listOrders(ctx.db, input)),

  adminChangeStatus: staffProcedure
    .meta({
      body: StatusChange,
      openapi: {
        method: 'POST',
        path: '/admin/orders/{code}/status',
        tags: ['staff'],
        protect: true,
        summary: 'Move an order to its next production step, or add a note (staff)',
        description:
          'Forward along pending → paid → sketching → painting → drying → shipped → delivered, skipping allowed; ' +
          'cancelled only from pending or paid; the same status records a note. Each change is one event in the ' +
          "customer's lookup. trackingNumber only with shipped or delivered; sketchStatus only for custom orders, with sketching.",
        errorResponses: {
          400: 'Invalid input, a tracking number or sketch status where none belongs',
          401: 'Missing or wrong staff token',
          404: 'No order has this code',
          409: 'The order cannot move there (backwards, or out of delivered or cancelled)',
        },
      },
    })
    .input(jsonBody(StatusChange, { code: z.string().min(1).max(20) }))
    .output(z.object({ order: StaffOrderDetail }))
    .mutation(async ({ ctx, input }) => {
      const { code, ...change } = input;
      return { order: await changeOrderStatus(ctx.db, code, change) };
    }),
});
