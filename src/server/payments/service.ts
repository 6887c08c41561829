import 'server-only';
import type Stripe from 'stripe';
import type { Db } from '@/server/db/client';
import { logger } from '@/server/logger';
import { applyTransition, lockingTransaction, lockOrder } from '@/server/orders/status';

/** What a webhook event did: moved an order to paid, was seen before, or changed nothing. */
export type PaymentOutcome = 'paid' | 'duplicate' | 'unchanged' | 'ignored';

/** The checkout session of an event that means "this order's money arrived", or null. */
function paidSession(event: Stripe.Event): Stripe.Checkout.Session | null {
  if (event.type === 'checkout.session.completed') return event.data.object.payment_status === 'paid' ? event.data.object : null;
  if (event.type === 'checkout.session.async_payment_succeeded') return event.data.object;
  return null;
}

/**
 * Handles a verified Stripe event once (decisions.md "Orders"). Its id is recorded in the same
 * transaction as its effect, so a replay, or two deliveries racing, finds the row and changes
 * nothing. A paid checkout moves its order pending → paid through the same transition as staff
 * changes; an order already paid or further along (or cancelled) is left as it is.
 */
export async function handleStripeEvent(db: Db, event: Stripe.Event): Promise<PaymentOutcome> {
  const session = paidSession(event);
  const code = session ? (session.client_reference_id ?? session.metadata?.orderCode ?? null) : null;
  return db.$transaction(async (tx) => {
    const recorded = await tx.paymentEvent.createMany({
      data: [{ id: event.id, provider: 'stripe', type: event.type, orderCode: code }],
      skipDuplicates: true,
    });
    if (recorded.count === 0) return 'duplicate';
    if (!session) return 'ignored';
    const order = code ? await lockOrder(tx, code) : null;
    if (!order) {
      logger.warn({ stripeEvent: event.id, checkoutSession: session.id, orderCode: code }, 'Stripe: a paid checkout names no known order');
      return 'ignored';
    }
    if (order.status !== 'pending') {
      if (order.status === 'cancelled') logger.warn({ stripeEvent: event.id, orderCode: order.code }, 'Stripe: the order was cancelled before its payment arrived; refund it');
      return 'unchanged';
    }
    if (session.amount_total !== order.totalCents || session.currency?.toLowerCase() !== 'usd') {
      logger.warn(
        { stripeEvent: event.id, orderCode: order.code, paid: session.amount_total, currency: session.currency, totalCents: order.totalCents },
        'Stripe: the checkout paid another amount than the order total; left pending for staff',
      );
      return 'unchanged';
    }
    await applyTransition(tx, order, { status: 'paid' }, 'payment');
    return 'paid';
  }, lockingTransaction);
}
