import 'server-only';
import type Stripe from 'stripe';
import type { Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote, moneyIn, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { lockOrder, type LockedOrder } from '@/server/orders/lock';

const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : (value?.id ?? null));

/**
 * The orders a dispute is about, found through the payment it disputes: the order's own paying
 * session, or a basket's, which paid all of its orders (a chargeback on it holds every one).
 */
async function disputedOrders(tx: Tx, dispute: Stripe.Dispute): Promise<LockedOrder[]> {
  const paymentIntent = idOf(dispute.payment_intent);
  const sessions = paymentIntent
    ? await tx.paymentSession.findMany({ where: { paymentIntent, state: 'paid' }, orderBy: { orderId: 'asc' }, select: { order: { select: { code: true } } } })
    : [];
  const codes = sessions.length ? sessions.map((session) => session.order.code) : dispute.metadata?.orderCode ? [dispute.metadata.orderCode] : [];
  const orders: LockedOrder[] = [];
  for (const code of codes) {
    const order = await lockOrder(tx, code);
    if (order) orders.push(order);
  }
  if (!orders.length) logger.warn({ stripeDispute: dispute.id, paymentIntent }, 'Stripe: a dispute names no known payment of an order');
  return orders;
}

/**
 * `charge.dispute.created` and `charge.dispute.closed` (decisions.md "Payments and refunds"): an
 * open dispute holds the order where it is (status.ts refuses forward moves), the studio is told,
 * and the order's timeline says so. A closed dispute is never opened again by a late `created`;
 * a lost one counts as refunded (summary.ts). `warning_closed` (an inquiry that never became a
 * chargeback) closes as won: no money moved. A dispute of a basket's payment is recorded on each of
 * its orders, the disputed amount shared out over them in their order, each up to what it paid.
 */
export async function recordDispute(tx: Tx, dispute: Stripe.Dispute, closing: boolean): Promise<'dispute_opened' | 'dispute_closed' | 'unchanged' | 'ignored'> {
  const orders = await disputedOrders(tx, dispute);
  if (!orders.length) return 'ignored';
  const state = !closing ? 'open' : dispute.status === 'lost' ? 'lost' : 'won';
  const closedAt = state === 'open' ? null : new Date();
  let left = dispute.amount;
  let changed = false;
  for (const [index, order] of orders.entries()) {
    const share = index === orders.length - 1 ? left : Math.min(left, order.paidCents);
    left -= share;
    const key = { id_orderId: { id: dispute.id, orderId: order.id } };
    const existing = await tx.dispute.findUnique({ where: key });
    if (existing && (existing.state !== 'open' || state === 'open')) continue;
    const amountCents = existing?.amountCents ?? share;
    await tx.dispute.upsert({
      where: key,
      create: { id: dispute.id, orderId: order.id, amountCents, state, reason: dispute.reason?.slice(0, 100) ?? null, closedAt },
      update: { state, closedAt },
    });
    await tellOfDispute(tx, order, state, amountCents, dispute.reason);
    changed = true;
  }
  if (!changed) return 'unchanged';
  return state === 'open' ? 'dispute_opened' : 'dispute_closed';
}

/** The order's timeline and the studio hear of a dispute opened or closed. */
async function tellOfDispute(tx: Tx, order: LockedOrder, state: 'open' | 'won' | 'lost', cents: number, reason: string | null | undefined): Promise<void> {
  const amount = moneyIn('en', cents);
  const [note, subject, line] =
    state === 'open'
      ? [
          moneyEventNote(order.locale, 'disputeOpened', { cents }),
          `Order ${order.code}: a payment dispute of ${amount} was opened`,
          `The customer's bank disputes ${amount} of order ${order.code} (${reason}). The order cannot move forward until the dispute closes; answer it in Stripe's dashboard.`,
        ]
      : state === 'won'
        ? [
            moneyEventNote(order.locale, 'disputeWon'),
            `Order ${order.code}: the payment dispute was won`,
            `The dispute of ${amount} on order ${order.code} closed in the studio's favour: the order can move on.`,
          ]
        : [
            moneyEventNote(order.locale, 'disputeLost', { cents }),
            `Order ${order.code}: the payment dispute was lost`,
            `The dispute of ${amount} on order ${order.code} was lost: the amount counts as refunded. Decide whether the painting still ships.`,
          ];
  await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor: 'payment', note } });
  await enqueue(tx, STUDIO_NOTICE_EVENT, { orderId: order.id, code: order.code, subject, lines: [line] });
}
