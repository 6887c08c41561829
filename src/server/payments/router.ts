import 'server-only';
import { z } from 'zod';
import { jsonBody, router, staffProcedure } from '@/server/api/trpc';
import { invalidInput } from '@/server/errors';
import { staffOrderDetail } from '@/server/orders/staff';
import { IdempotencyHeaders, RefundRequest, RefundView, StaffOrderDetail } from '@/shared/order-schema';
import { refundOrder } from './refunds';

/** The request's `Idempotency-Key`, checked by the same schema the document shows. */
function idempotencyKeyOf(headers: Headers | undefined): string | undefined {
  const parsed = IdempotencyHeaders.shape['Idempotency-Key'].safeParse(headers?.get('idempotency-key') ?? undefined);
  if (!parsed.success) throw invalidInput('Idempotency-Key is 1 to 255 characters.', [{ path: 'Idempotency-Key', message: '1 to 255 characters' }]);
  return parsed.data;
}

export const paymentsRouter = router({
  adminRefund: staffProcedure
    .meta({
      successStatus: 201,
      body: RefundRequest,
      openapi: {
        method: 'POST',
        path: '/admin/orders/{code}/refunds',
        tags: ['staff'],
        protect: true,
        requestHeaders: IdempotencyHeaders,
        summary: 'Give money back on an order (staff)',
        description:
          "By default all that is left to refund. When the order was paid through Stripe the money goes back through Stripe's Refunds API " +
          '(the Idempotency-Key passed on) and the refund is recorded once Stripe accepts it; otherwise it is recorded as manual (the studio ' +
          "pays it back itself). The customer is e-mailed in the order's language, and the order's timeline says the amount. A refund of " +
          'everything on an order that is pending or paid also cancels it. The same Idempotency-Key on the same order answers the first refund again.',
        successDescription: 'The refund was made (or, with the same Idempotency-Key, was made before)',
        errorResponses: {
          400: 'Invalid input (an amount that is not a whole number of cents from 1, an Idempotency-Key over 255 characters)',
          401: 'Missing or wrong staff token',
          404: 'No order has this code',
          409: 'Nothing paid or all of it refunded already (nothing_to_refund), more than is left (refund_too_large), or Stripe refused it (refund_refused)',
          503: 'Stripe did not answer (unavailable): nothing was recorded; try again with the same Idempotency-Key',
        },
      },
    })
    .input(jsonBody(RefundRequest, { code: z.string().min(1).max(20) }))
    .output(z.object({ refund: RefundView, order: StaffOrderDetail }))
    .mutation(async ({ ctx, input }) => {
      const { code, ...request } = input;
      const idempotencyKey = idempotencyKeyOf(ctx.req?.headers);
      const { refund, orderId } = await refundOrder(ctx.db, code, { ...request, idempotencyKey }, ctx.payments);
      return { refund, order: await staffOrderDetail(ctx.db, orderId) };
    }),
});
