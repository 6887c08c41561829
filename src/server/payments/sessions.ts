import 'server-only';
import type { PaymentSessionState } from '@/generated/prisma/client';
import { z } from 'zod';
import type { Db, Tx } from '@/server/db/client';
import { logger } from '@/server/logger';
import type { PaymentProvider } from './provider';

/**
 * How far a session has come. A state only moves to a later rank, so an event that arrives late
 * (Stripe sends no order) never undoes a later one: `expired` after `paid` changes nothing, a
 * `processing` after the debit `failed` neither.
 */
const rank: Record<PaymentSessionState, number> = { open: 0, expired: 1, processing: 1, paid: 2, failed: 2, refunded: 3 };

export const movesForward = (from: PaymentSessionState, to: PaymentSessionState) => rank[to] > rank[from];

/**
 * Keeps a session the shop opened, a row per order it pays with the order's share (one order, or
 * each order of a basket), so its webhook can be matched to the orders and to it.
 */
export async function recordSession(db: Db, sessionId: string, shares: { orderId: number; amountCents: number }[]): Promise<void> {
  await db.paymentSession.createMany({ data: shares.map((share) => ({ id: sessionId, ...share })), skipDuplicates: true });
}

/** The sessions of an order a customer may still pay into, newest first. */
export const openSessions = (db: Db | Tx, orderId: number) =>
  db.paymentSession.findMany({ where: { orderId, state: 'open' }, orderBy: { createdAt: 'desc' }, select: { id: true } });

const CloseCheckoutsPayload = z.object({ orderId: z.int(), code: z.string() });

/**
 * The job after a cancellation: expires the order's sessions still open at Stripe. One that
 * completed meanwhile is left as it is: its payment arrives by webhook and is refunded as a double
 * payment. Without a provider there is nothing to close. A failure throws, so the job is retried.
 */
export async function closeCheckouts(db: Db, payments: PaymentProvider | undefined, rawPayload: unknown): Promise<{ expired: number }> {
  const { orderId, code } = CloseCheckoutsPayload.parse(rawPayload);
  if (!payments) return { expired: 0 };
  let expired = 0;
  for (const session of await openSessions(db, orderId)) {
    if ((await payments.expire(session.id)) === 'complete') {
      logger.warn({ orderCode: code, checkoutSession: session.id }, "a cancelled order's checkout completed before it could be closed; its payment will be refunded");
      continue;
    }
    expired += (await db.paymentSession.updateMany({ where: { id: session.id, state: 'open' }, data: { state: 'expired' } })).count;
  }
  return { expired };
}
