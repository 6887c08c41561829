import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote, moneyIn, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { lockOrder } from '@/server/orders/lock';

const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : (value?.id ?? null));

/** A dispute's order, found through the payment it disputes (the order's own paying session). */
async function disputedOrder(tx: Tx, dispute: Stripe.Dispute) {
  const paymentIntent = idOf(dispute.payment_intent);
  const session = paymentIntent ? await tx.paymentSession.findUnique({ where: { paymentIntent }, select: { order: { select: { code: true } } } }) : null;
  const code = session?.order.code ?? dispute.metadata?.orderCode;
  const order = code ? await lockOrder(tx, code) : null;
  if (!order) logger.warn({ stripeDispute: dispute.id, paymentIntent }, 'Stripe: a dispute names no known payment of an order');
  return order;
}

/**
 * `charge.dispute.created` and `charge.dispute.closed` (decisions.md "Payments and refunds"): an
 * open dispute holds the order where it is (status.ts refuses forward moves), the studio is told,
 * and the order's timeline says so. A closed dispute is never opened again by a late `created`;
 * a lost one counts as refunded (summary.ts). `warning_closed` (an inquiry that never became a
 * chargeback) closes as won: no money moved.
 */
export async function recordDispute(tx: Tx, dispute: Stripe.Dispute, closing: boolean): Promise<'dispute_opened' | 'dispute_closed' | 'unchanged' | 'ignored'> {
  const order = await disputedOrder(tx, dispute);
  if (!order) return 'ignored';
  const state = !closing ? 'open' : dispute.status === 'lost' ? 'lost' : 'won';
  const existing = await tx.dispute.findUnique({ where: { id: dispute.id } });
  if (existing && (existing.state !== 'open' || state === 'open')) return 'unchanged';
  const closedAt = state === 'open' ? null : new Date();
  await tx.dispute.upsert({
    where: { id: dispute.id },
    create: { id: dispute.id, orderId: order.id, amountCents: dispute.amount, state, reason: dispute.reason?.slice(0, 100) ?? null, closedAt },
    update: { state, closedAt },
  });
  const amount = moneyIn('en', dispute.amount);
  const [note, subject, line] =
    state === 'open'
      ? [
          moneyEventNote(order.locale, 'disputeOpened', { cents: dispute.amount }),
          `Order ${order.code}: a payment dispute of ${amount} was opened`,
          `The customer's bank disputes ${amount} of order ${order.code} (${dispute.reason}). The order cannot move forward until the dispute closes; answer it in Stripe's dashboard.`,
        ]
      : state === 'won'
        ? [
            moneyEventNote(order.locale, 'disputeWon'),
            `Order ${order.code}: the payment dispute was won`,
            `The dispute of ${amount} on order ${order.code} closed in the studio's favour: the order can move on.`,
          ]
        : [
            moneyEventNote(order.locale, 'disputeLost', { cents: dispute.amount }),
            `Order ${order.code}: the payment dispute was lost`,
            `The dispute of ${amount} on order ${order.code} was lost: the amount counts as refunded. Decide whether the painting still ships.`,
          ];
  await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor: 'payment', note } });
  await enqueue(tx, STUDIO_NOTICE_EVENT, { orderId: order.id, code: order.code, subject, lines: [line] });
  return state === 'open' ? 'dispute_opened' : 'dispute_closed';
}
