import 'server-only';
import type { PaymentSessionState } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';

/**
 * How far a session has come. A state only moves to a later rank, so an event that arrives late
 * (Stripe sends no order) never undoes a later one: `expired` after `paid` changes nothing, a
 * `processing` after the debit `failed` neither.
 */
const rank: Record<PaymentSessionState, number> = { open: 0, expired: 1, processing: 1, paid: 2, failed: 2, refunded: 3 };

export const movesForward = (from: PaymentSessionState, to: PaymentSessionState) => rank[to] > rank[from];

/** Keeps a session the shop opened for an order, so its webhook can be matched to the order and to it. */
export async function recordSession(db: Db, session: { id: string; orderId: number; amountCents: number }): Promise<void> {
  await db.paymentSession.upsert({ where: { id: session.id }, create: session, update: {} });
}

/** The sessions of an order a customer may still pay into, newest first. */
export const openSessions = (db: Db | Tx, orderId: number) =>
  db.paymentSession.findMany({ where: { orderId, state: 'open' }, orderBy: { createdAt: 'desc' }, select: { id: true } });
