import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { CHECKOUT_REMINDER_EVENT, CHECKOUT_UNPAID_CANCELLED_EVENT } from '@/server/checkouts/mail';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote } from '@/server/orders/mail';
import { lockingTransaction, lockOrder } from '@/server/orders/lock';
import { applyTransition } from '@/server/orders/status';
import { unpaidPayBy } from '@/shared/payment';

const DAY_MS = 86_400_000;

export interface UnpaidSettings {
  /** Days after its creation an unpaid order is reminded (UNPAID_REMIND_DAYS). */
  remindDays: number;
  /** Days after its creation an unpaid order is cancelled (UNPAID_CANCEL_DAYS). */
  cancelDays: number;
  now?: Date;
}

/** A pending order with nothing paid and no payment on its way: what the terms' 14 days are about. */
const unpaid = Prisma.sql`o.status = 'pending' AND o.paid_cents = 0
  AND NOT EXISTS (SELECT 1 FROM payment_sessions s WHERE s.order_id = o.id AND s.state IN ('processing', 'paid'))`;

type Due = { id: number; code: string; checkoutId: number | null; checkoutCode: string | null; cancel: boolean };

/**
 * Closes unpaid orders as the terms of sale say (decisions.md "Payments and refunds"): a reminder
 * `remindDays` after the order, a cancellation `cancelDays` after it, each an order event and an
 * e-mail in the order's language. The customer always has the whole gap between the two after the
 * reminder: an order the job reaches late (it was down) is reminded first and cancelled that many
 * days after. A payment on its way (a bank debit) is never cancelled. Each order changes under its
 * row lock, so two instances running this at once remind and cancel once; a payment that arrives
 * meanwhile wins.
 *
 * The orders of one basket, bought together, are reminded and cancelled together: each keeps its
 * own event, and the customer gets one e-mail for those of them it concerns (the basket's code as
 * the reference), not one per order.
 */
export async function closeUnpaidOrders(db: Db, settings: UnpaidSettings): Promise<{ reminded: number; cancelled: number }> {
  const now = settings.now ?? new Date();
  const remindBefore = new Date(now.getTime() - settings.remindDays * DAY_MS);
  const cancelBefore = new Date(now.getTime() - settings.cancelDays * DAY_MS);
  const remindedBefore = new Date(now.getTime() - (settings.cancelDays - settings.remindDays) * DAY_MS);
  const due = await db.$queryRaw<Due[]>(Prisma.sql`
    SELECT o.id, o.code, o.checkout_id AS "checkoutId", c.code AS "checkoutCode",
           (o.reminded_at IS NOT NULL AND o.created_at < ${cancelBefore} AND o.reminded_at < ${remindedBefore}) AS cancel
      FROM orders o LEFT JOIN checkouts c ON c.id = o.checkout_id
     WHERE ${unpaid} AND o.created_at < ${remindBefore}
       AND (o.reminded_at IS NULL OR (o.created_at < ${cancelBefore} AND o.reminded_at < ${remindedBefore}))
     ORDER BY o.created_at, o.id`);
  const result = { reminded: 0, cancelled: 0 };
  for (const group of together(due)) {
    const done = await db.$transaction(async (tx) => {
      const changed: { id: number; code: string; payBy: Date | null }[] = [];
      // In id order, as the payment webhook locks a basket's orders: two never wait on each other.
      for (const { code, cancel } of group) {
        const order = await lockOrder(tx, code);
        // Looked at again under the lock: paid, cancelled or reminded meanwhile is left alone.
        const [still] = await tx.$queryRaw<{ remindedAt: Date | null; createdAt: Date }[]>(
          Prisma.sql`SELECT o.reminded_at AS "remindedAt", o.created_at AS "createdAt" FROM orders o WHERE o.code = ${code} AND ${unpaid}`,
        );
        if (!order || !still || Boolean(still.remindedAt) !== cancel) continue;
        if (cancel) {
          await applyTransition(tx, order, { status: 'cancelled', note: moneyEventNote(order.locale, 'unpaidCancelled', { days: settings.cancelDays }) }, 'system');
          changed.push({ id: order.id, code, payBy: null });
          continue;
        }
        const payBy = unpaidPayBy({ createdAt: still.createdAt, remindedAt: now }, settings);
        await tx.order.update({ where: { id: order.id }, data: { remindedAt: now } });
        await tx.orderEvent.create({
          data: { orderId: order.id, status: 'pending', actor: 'system', at: now, note: moneyEventNote(order.locale, 'unpaidReminder', { date: payBy }) },
        });
        changed.push({ id: order.id, code, payBy });
      }
      const { cancel, checkoutId, checkoutCode } = group[0]!;
      if (checkoutId !== null && checkoutCode !== null && changed.length) {
        const orderIds = changed.map((order) => order.id);
        if (cancel) await enqueue(tx, CHECKOUT_UNPAID_CANCELLED_EVENT, { checkoutId, code: checkoutCode, orderIds });
        else await enqueue(tx, CHECKOUT_REMINDER_EVENT, { checkoutId, code: checkoutCode, orderIds, payBy: changed[0]!.payBy!.toISOString() });
      } else {
        for (const order of changed) {
          if (cancel) await enqueue(tx, 'shop/order.unpaid-cancelled', { orderId: order.id, code: order.code });
          else await enqueue(tx, 'shop/order.payment-reminder', { orderId: order.id, code: order.code, payBy: order.payBy!.toISOString() });
        }
      }
      return changed.length;
    }, lockingTransaction);
    result[group[0]!.cancel ? 'cancelled' : 'reminded'] += done;
  }
  if (result.reminded || result.cancelled) logger.info(result, 'unpaid orders: reminded and cancelled as the terms say');
  return result;
}

/** The due orders in groups that change together: a basket's orders at the same step, in id order; any other order alone. */
function together(due: Due[]): Due[][] {
  const groups = new Map<string, Due[]>();
  for (const order of due) {
    const key = order.checkoutId === null ? `order ${order.id}` : `basket ${order.checkoutId} ${order.cancel}`;
    groups.set(key, [...(groups.get(key) ?? []), order]);
  }
  return [...groups.values()].map((group) => group.sort((a, b) => a.id - b.id));
}
