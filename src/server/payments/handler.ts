import 'server-only';
import { readBodyAtMost } from '@/server/api/body';
import type { RequestHandlerRoute } from '@/server/api/route-types';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError } from '@/server/errors';
import { configuredPayments, verifyStripeEvent } from '@/server/integrations/stripe';
import { handleStripeEvent, paymentOutcomes } from './service';

/** Stripe's events are a few KiB; a body past this is not one of them. */
export const MAX_WEBHOOK_BYTES = 512 * 1024;

async function rawBody(request: Request): Promise<Buffer> {
  const body = await readBodyAtMost(request, MAX_WEBHOOK_BYTES);
  if (body === null) throw new DomainError('payload_too_large', 'A webhook body is at most 512 KiB.');
  return body;
}

/**
 * `POST /v1/payments/stripe-webhook`: the signature is checked on the exact bytes Stripe sent
 * (which is why this is not a JSON procedure), then the event is handled once.
 */
export function stripeWebhookRoute(settings: () => { webhookSecret?: string } = () => ({ webhookSecret: env().STRIPE_WEBHOOK_SECRET })): RequestHandlerRoute {
  return {
    method: 'POST',
    path: '/payments/stripe-webhook',
    async handle(request, _params, context) {
      const body = await rawBody(request);
      const event = verifyStripeEvent(body, request.headers.get('stripe-signature'), settings().webhookSecret);
      // The request's payment provider (the configured one), which refunds a double payment.
      const outcome = await handleStripeEvent(context?.db ?? db(), event, context?.payments ?? configuredPayments());
      return Response.json({ received: true, outcome });
    },
    openapi: {
      operationId: 'payments-stripe-webhook',
      summary: 'Stripe webhook (signature verified)',
      description:
        'Called by Stripe. The Stripe-Signature header is verified over the raw body with STRIPE_WEBHOOK_SECRET (tolerance 5 minutes). ' +
        'Checkout events are matched to the order and to the session the shop opened: a paid session (checkout.session.completed with ' +
        'payment_status paid, checkout.session.async_payment_succeeded) moves a pending order to paid; one for an order paid already or ' +
        'cancelled is refunded in full at once (a double payment). A completed but unpaid session marks the payment processing; ' +
        'checkout.session.async_payment_failed makes it unpaid again. charge.refunded and refund.created/updated/failed record refunds made ' +
        "in Stripe's dashboard; charge.dispute.created/closed hold and release the order. Events may come in any order, late or repeated: " +
        'each event id is handled once (a replay answers 200 and changes nothing), and a late event never undoes a later one. Other event types are ignored.',
      tags: ['payments'],
      parameters: [{ in: 'header', name: 'Stripe-Signature', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe event, exactly as Stripe signed it' } } } },
      responses: {
        '200': {
          description: 'Received',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['received', 'outcome'],
                properties: {
                  received: { type: 'boolean', const: true },
                  outcome: { type: 'string', enum: [...paymentOutcomes], description: 'What the event did' },
                },
              },
            },
          },
        },
        '400': { description: 'The signature does not verify (invalid_signature), or the body is not JSON' },
        '413': { description: 'Body over 512 KiB' },
      },
    },
  };
}
