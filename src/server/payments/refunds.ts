import 'server-only';
import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { Refund as RefundRow, RefundState } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { DomainError, notFound } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote, moneyIn, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { lockOrder, type LockedOrder } from '@/server/orders/lock';
import { applyTransition, type Actor } from '@/server/orders/status';
import type { PaymentProvider, ProviderRefund } from './provider';
import { countedRefundStates } from './summary';

/**
 * A transaction that may wait on Stripe while it holds the order's row lock: a refund is decided
 * and recorded under the lock (so two refunds at once never give back more than was paid), and
 * Stripe's answer is part of that decision. The client's own timeout (15 s, one retry) fits in it.
 */
export const moneyTransaction = { maxWait: 20_000, timeout: 60_000 } as const;

/** Stripe's refund statuses in the shop's four; `requires_action` is still on its way. */
export function refundStateOf(status: string): RefundState {
  if (status === 'succeeded' || status === 'failed' || status === 'canceled') return status;
  return 'pending';
}

/** A refund's state only moves on: a late `pending` never undoes `succeeded`, nor either of them `failed`. */
const refundRank: Record<RefundState, number> = { pending: 0, succeeded: 1, failed: 2, canceled: 2 };
const counts = (state: RefundState) => (countedRefundStates as readonly RefundState[]).includes(state);

/** Cents given back on an order's own payment: refunds that count, and disputes lost. */
export async function refundedCents(tx: Tx, orderId: number): Promise<number> {
  const [refunds, lost] = await Promise.all([
    tx.refund.aggregate({ where: { orderId, state: { in: [...countedRefundStates] } }, _sum: { amountCents: true } }),
    tx.dispute.aggregate({ where: { orderId, state: 'lost' }, _sum: { amountCents: true } }),
  ]);
  return (refunds._sum.amountCents ?? 0) + (lost._sum.amountCents ?? 0);
}

/**
 * What follows money going back, in the transaction that recorded it: an order event whose note
 * says the amount (and the studio's note), the customer's e-mail, and, once everything paid is
 * back on an order not yet in production, its cancellation (decisions.md "Payments and refunds").
 */
export async function afterRefund(tx: Tx, order: LockedOrder, amountCents: number, actor: Actor, note?: string | null): Promise<void> {
  const said = moneyEventNote(order.locale, 'refunded', { cents: amountCents });
  await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor, note: note ? `${said} ${note}` : said } });
  await enqueue(tx, 'shop/order.refunded', { orderId: order.id, code: order.code, amountCents });
  if ((order.status === 'pending' || order.status === 'paid') && (await refundedCents(tx, order.id)) >= order.paidCents) {
    await applyTransition(tx, order, { status: 'cancelled', note: moneyEventNote(order.locale, 'cancelledRefunded') }, actor);
  }
}

export interface RefundView {
  id: string;
  amount: number;
  method: 'stripe' | 'manual';
  note: string | null;
  at: string;
}

const refundView = (row: RefundRow): RefundView => ({ id: row.id, amount: row.amountCents, method: row.method, note: row.note, at: row.createdAt.toISOString() });

/** Stripe's refusal in the contract's words: it said no (refund_refused), or it did not answer (unavailable, safe to retry). */
async function askStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripeCardError) {
      throw new DomainError('refund_refused', `Stripe refused the refund: ${error.message}`);
    }
    logger.error({ err: error }, 'Stripe did not answer a refund');
    throw new DomainError('unavailable', 'Stripe did not answer, so nothing was recorded. Try again with the same Idempotency-Key: the money goes back once.');
  }
}

/**
 * A refund by the studio (`POST /v1/admin/orders/{code}/refunds`): by default all that is left.
 * Through Stripe's Refunds API when the order was paid through Stripe (the idempotency key passed
 * on), recorded as `manual` otherwise (a bank transfer: the studio pays it back itself). The same
 * `idempotencyKey` on the same order answers the first refund again and moves no money.
 */
export async function refundOrder(
  db: Db,
  code: string,
  request: { amount?: number; note?: string; idempotencyKey?: string },
  provider: PaymentProvider | undefined,
): Promise<{ refund: RefundView; orderId: number }> {
  return db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order) throw notFound('No order has this code.');
    const { idempotencyKey } = request;
    if (idempotencyKey) {
      const earlier = await tx.refund.findUnique({ where: { orderId_idempotencyKey: { orderId: order.id, idempotencyKey } } });
      if (earlier) return { refund: refundView(earlier), orderId: order.id };
    }
    const left = order.paidCents - (await refundedCents(tx, order.id));
    if (left <= 0)
      throw new DomainError('nothing_to_refund', order.paidCents === 0 ? 'Nothing was paid for this order.' : 'Everything paid for this order was refunded already.');
    const amountCents = request.amount ?? left;
    if (amountCents > left) throw new DomainError('refund_too_large', `At most ${moneyIn('en', left)} is left to refund on this order (${left} cents).`);

    const paying = await tx.paymentSession.findFirst({ where: { orderId: order.id, state: 'paid', paymentIntent: { not: null } }, select: { paymentIntent: true } });
    const byStripe = provider && paying?.paymentIntent;
    const given = byStripe
      ? await askStripe(() =>
          provider.refund({
            paymentIntent: paying.paymentIntent!,
            amountCents,
            idempotencyKey: `refund-${order.code}-${idempotencyKey ?? randomUUID()}`,
            metadata: { orderCode: order.code },
          }),
        )
      : null;
    if (given && !counts(refundStateOf(given.status))) throw new DomainError('refund_refused', `Stripe answered the refund as ${given.status}.`);
    // Stripe's webhook for this refund waits on the order's lock, then finds this row by Stripe's id.
    const row = await tx.refund.create({
      data: {
        orderId: order.id,
        amountCents,
        method: given ? 'stripe' : 'manual',
        state: given ? refundStateOf(given.status) : 'succeeded',
        note: request.note ?? null,
        stripeRefundId: given?.id ?? null,
        idempotencyKey: idempotencyKey ?? null,
      },
    });
    await afterRefund(tx, order, amountCents, 'staff', request.note);
    logger.info({ orderCode: order.code, amountCents, method: row.method }, 'the studio refunded an order');
    return { refund: refundView(row), orderId: order.id };
  }, moneyTransaction);
}

/**
 * A refund Stripe reports (`refund.*`, `charge.refunded`): made in Stripe's dashboard, or one the
 * shop made whose event comes after it. Recorded once, by Stripe's id; a later state only moves
 * it on. A double payment's refund is on its session, not here. The order is the one the refund's
 * metadata names (the shop's own refunds name it), else the one its payment paid; a refund made in
 * the dashboard on a basket's payment names none, and is shared out over the basket's orders in
 * their order, each up to what is left on it. Answers whether money counted as refunded changed.
 */
export async function recordProviderRefund(tx: Tx, refund: ProviderRefund): Promise<boolean> {
  const sessions = refund.paymentIntent
    ? await tx.paymentSession.findMany({
        where: { paymentIntent: refund.paymentIntent },
        orderBy: { orderId: 'asc' },
        select: { state: true, refundId: true, order: { select: { code: true } } },
      })
    : [];
  if (refund.metadata.doublePayment || sessions.some((session) => session.refundId === refund.id)) return false;
  const named = refund.metadata.orderCode;
  const codes = named ? [named] : sessions.filter((session) => session.state !== 'refunded').map((session) => session.order.code);
  const orders: LockedOrder[] = [];
  for (const code of codes) {
    const order = await lockOrder(tx, code);
    if (order) orders.push(order);
  }
  if (!orders.length) {
    logger.warn({ stripeRefund: refund.id, paymentIntent: refund.paymentIntent }, 'Stripe: a refund names no known order');
    return false;
  }

  const state = refundStateOf(refund.status);
  const existing = await tx.refund.findMany({ where: { stripeRefundId: refund.id } });
  if (existing.length) return refundMovedOn(tx, existing, state, orders);

  let changed = false;
  let left = refund.amountCents;
  for (const [index, order] of orders.entries()) {
    const last = index === orders.length - 1;
    const share = last ? left : Math.min(left, order.paidCents - (await refundedCents(tx, order.id)));
    if (share <= 0) continue;
    left -= share;
    await tx.refund.create({ data: { orderId: order.id, amountCents: share, method: 'stripe', state, stripeRefundId: refund.id } });
    if (!counts(state)) continue;
    await afterRefund(tx, order, share, 'payment');
    changed = true;
  }
  return changed;
}

/** A later state of a refund recorded already (on each order it was shared out over). */
async function refundMovedOn(tx: Tx, rows: RefundRow[], state: RefundState, orders: LockedOrder[]): Promise<boolean> {
  let changed = false;
  for (const existing of rows) {
    if (refundRank[state] <= refundRank[existing.state]) continue;
    await tx.refund.update({ where: { id: existing.id }, data: { state } });
    if (!counts(existing.state) || counts(state)) continue;
    const order = orders.find((o) => o.id === existing.orderId);
    if (!order) continue;
    logger.error({ orderCode: order.code, stripeRefund: existing.stripeRefundId, state }, 'Stripe: a refund did not go through after all');
    await enqueue(tx, STUDIO_NOTICE_EVENT, {
      orderId: order.id,
      code: order.code,
      subject: `Order ${order.code}: a refund of ${moneyIn('en', existing.amountCents)} ${state}`,
      lines: [`Stripe reports the refund ${existing.stripeRefundId} of ${moneyIn('en', existing.amountCents)} on order ${order.code} as ${state}: the money did not go back.`],
    });
    changed = true;
  }
  return changed;
}
