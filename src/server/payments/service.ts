import 'server-only';
import type Stripe from 'stripe';
import type { Db, Tx } from '@/server/db/client';
import { providerRefund } from '@/server/integrations/stripe';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote, moneyIn, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { lockOrder, type LockedOrder } from '@/server/orders/lock';
import { applyTransition } from '@/server/orders/status';
import { recordDispute } from './disputes';
import type { PaymentProvider, ProviderRefund } from './provider';
import { moneyTransaction, recordProviderRefund } from './refunds';
import { movesForward } from './sessions';

/** What a webhook event did (the webhook's answer says it, for Stripe's dashboard and the logs). */
export const paymentOutcomes = [
  'paid',
  'processing',
  'failed',
  'expired',
  'double_payment_refunded',
  'refund_recorded',
  'dispute_opened',
  'dispute_closed',
  'duplicate',
  'unchanged',
  'ignored',
] as const;
export type PaymentOutcome = (typeof paymentOutcomes)[number];

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

type Session = Stripe.Checkout.Session;

/**
 * The order and the session a Checkout event is about, the order's row locked. The session is the
 * one the shop kept when it opened it; a session it never recorded (the shop stopped between
 * opening and keeping it) is kept now when money comes with it (`withMoney`), from the order its
 * `client_reference_id` names. An event whose session belongs to another order than it names is
 * refused: it matches neither.
 */
async function sessionAndOrder(tx: Tx, session: Session, withMoney = true) {
  const named = session.client_reference_id ?? session.metadata?.orderCode ?? null;
  const kept = await tx.paymentSession.findUnique({ where: { id: session.id }, select: { order: { select: { code: true } } } });
  if (kept && named && kept.order.code !== named) {
    logger.warn({ checkoutSession: session.id, orderCode: named, sessionOrder: kept.order.code }, 'Stripe: a checkout names another order than its session; ignored');
    return null;
  }
  if (!kept && !withMoney) return null;
  const order = await lockOrder(tx, kept?.order.code ?? named ?? '');
  if (!order) {
    logger.warn({ checkoutSession: session.id, orderCode: named }, 'Stripe: a checkout names no known order');
    return null;
  }
  const row =
    (await tx.paymentSession.findUnique({ where: { id: session.id } })) ??
    (await tx.paymentSession.create({ data: { id: session.id, orderId: order.id, amountCents: session.amount_total ?? 0, currency: session.currency ?? 'usd' } }));
  return { order, row };
}

/**
 * A session's money arrived. For a pending order not yet paid, with the order's total in dollars,
 * it pays the order. For an order paid already (by another session, or by a transfer staff
 * recorded) or cancelled, it is a double payment: refunded in full at once, under the order's lock,
 * with an idempotency key of the session's own, so a retried event gives back once.
 */
async function sessionPaid(tx: Tx, session: Session, provider: PaymentProvider | undefined): Promise<PaymentOutcome> {
  const found = await sessionAndOrder(tx, session);
  if (!found) return 'ignored';
  const { order, row } = found;
  if (!movesForward(row.state, 'paid')) return 'unchanged';
  const paymentIntent = idOf(session.payment_intent);
  const amount = session.amount_total ?? 0;
  if (order.status !== 'pending' || order.paidCents > 0) return refundDoublePayment(tx, order, { id: row.id, paymentIntent, amount }, provider);

  await tx.paymentSession.update({ where: { id: row.id }, data: { state: 'paid', paymentIntent } });
  if (amount !== order.totalCents || session.currency?.toLowerCase() !== 'usd') {
    logger.warn(
      { checkoutSession: row.id, orderCode: order.code, paid: amount, currency: session.currency, totalCents: order.totalCents },
      'Stripe: the checkout paid another amount than the order total; left pending for staff',
    );
    return 'unchanged';
  }
  await applyTransition(tx, { ...order, paidCents: amount }, { status: 'paid' }, 'payment');
  return 'paid';
}

async function refundDoublePayment(
  tx: Tx,
  order: LockedOrder,
  session: { id: string; paymentIntent: string | null; amount: number },
  provider: PaymentProvider | undefined,
): Promise<PaymentOutcome> {
  const why = order.status === 'cancelled' ? 'the order was cancelled' : 'the order was paid already';
  if (!provider || !session.paymentIntent) {
    // Without a way to give it back, it is kept as paid and the studio is told to refund it by hand.
    await tx.paymentSession.update({ where: { id: session.id }, data: { state: 'paid', paymentIntent: session.paymentIntent } });
    logger.error({ orderCode: order.code, checkoutSession: session.id }, 'Stripe: a double payment could not be refunded (no provider or payment); refund it by hand');
    await enqueue(tx, STUDIO_NOTICE_EVENT, {
      orderId: order.id,
      code: order.code,
      subject: `Order ${order.code}: a second payment needs a refund by hand`,
      lines: [
        `Checkout session ${session.id} paid ${moneyIn('en', session.amount)} for order ${order.code}, but ${why}. The shop could not refund it: refund it in Stripe's dashboard.`,
      ],
    });
    return 'unchanged';
  }
  const refund = await provider.refund({
    paymentIntent: session.paymentIntent,
    amountCents: session.amount,
    idempotencyKey: `double-payment-${session.id}`,
    metadata: { orderCode: order.code, doublePayment: session.id },
  });
  await tx.paymentSession.update({ where: { id: session.id }, data: { state: 'refunded', paymentIntent: session.paymentIntent, refundId: refund.id } });
  await tx.orderEvent.create({
    data: { orderId: order.id, status: order.status, actor: 'payment', note: moneyEventNote(order.locale, 'doublePayment', { cents: session.amount }) },
  });
  await enqueue(tx, STUDIO_NOTICE_EVENT, {
    orderId: order.id,
    code: order.code,
    subject: `Order ${order.code}: a second payment was refunded`,
    lines: [
      `Checkout session ${session.id} paid ${moneyIn('en', session.amount)} for order ${order.code}, but ${why}.`,
      `The shop refunded it in full at once (Stripe refund ${refund.id}). Nothing else is needed; the customer may ask why.`,
    ],
  });
  logger.warn({ orderCode: order.code, checkoutSession: session.id, stripeRefund: refund.id }, 'Stripe: a double payment was refunded in full');
  return 'double_payment_refunded';
}

/** A session whose bank debit started (completed, still unpaid): no new payment is offered meanwhile. */
async function sessionProcessing(tx: Tx, session: Session): Promise<PaymentOutcome> {
  const found = await sessionAndOrder(tx, session);
  if (!found || !movesForward(found.row.state, 'processing')) return found ? 'unchanged' : 'ignored';
  const { order, row } = found;
  await tx.paymentSession.update({ where: { id: row.id }, data: { state: 'processing', paymentIntent: idOf(session.payment_intent) } });
  if (order.status === 'pending')
    await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor: 'payment', note: moneyEventNote(order.locale, 'processing') } });
  return 'processing';
}

/** A bank debit that failed: the order is unpaid again, and paying later opens a new session at once. */
async function sessionFailed(tx: Tx, session: Session): Promise<PaymentOutcome> {
  const found = await sessionAndOrder(tx, session, false);
  if (!found || !movesForward(found.row.state, 'failed')) return found ? 'unchanged' : 'ignored';
  const { order, row } = found;
  await tx.paymentSession.update({ where: { id: row.id }, data: { state: 'failed' } });
  if (order.status === 'pending')
    await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor: 'payment', note: moneyEventNote(order.locale, 'paymentFailed') } });
  return 'failed';
}

async function sessionExpired(tx: Tx, session: Session): Promise<PaymentOutcome> {
  const found = await sessionAndOrder(tx, session, false);
  if (!found || !movesForward(found.row.state, 'expired')) return found ? 'unchanged' : 'ignored';
  await tx.paymentSession.update({ where: { id: found.row.id }, data: { state: 'expired' } });
  return 'expired';
}

/**
 * The refunds a `charge.refunded` is about. Since API version 2022-11-15 a charge carries no list
 * of its refunds, so they are asked of Stripe (before the transaction: no lock is held over the
 * call); a charge that does carry them (older versions, the tests' own) is read as it is.
 */
async function refundsOfCharge(charge: Stripe.Charge, provider: PaymentProvider | undefined): Promise<ProviderRefund[]> {
  const paymentIntent = idOf(charge.payment_intent);
  if (provider && paymentIntent) return provider.refundsOf(paymentIntent);
  return (charge.refunds?.data ?? []).map(providerRefund);
}

async function recordRefunds(tx: Tx, refunds: ProviderRefund[]): Promise<PaymentOutcome> {
  let changed = false;
  for (const refund of refunds) changed = (await recordProviderRefund(tx, refund)) || changed;
  return changed ? 'refund_recorded' : 'unchanged';
}

/**
 * Handles a verified Stripe event once (decisions.md "Payments and refunds"), whatever order events
 * come in, repeated or late. Its id is recorded in the same transaction as its effect, so a replay,
 * or two deliveries racing, finds the row and changes nothing; a failure (Stripe not answering a
 * double payment's refund) rolls both back, and Stripe delivers the event again later.
 */
export async function handleStripeEvent(db: Db, event: Stripe.Event, provider?: PaymentProvider): Promise<PaymentOutcome> {
  if ((await db.paymentEvent.count({ where: { id: event.id } })) > 0) return 'duplicate';
  const chargeRefunds = event.type === 'charge.refunded' ? await refundsOfCharge(event.data.object, provider) : [];
  return db.$transaction(async (tx) => {
    const recorded = await tx.paymentEvent.createMany({ data: [{ id: event.id, provider: 'stripe', type: event.type, orderCode: orderCodeOf(event) }], skipDuplicates: true });
    if (recorded.count === 0) return 'duplicate';
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object;
        if (session.payment_status === 'paid') return sessionPaid(tx, session, provider);
        return session.payment_status === 'unpaid' ? sessionProcessing(tx, session) : 'ignored';
      }
      case 'checkout.session.async_payment_succeeded':
        return sessionPaid(tx, event.data.object, provider);
      case 'checkout.session.async_payment_failed':
        return sessionFailed(tx, event.data.object);
      case 'checkout.session.expired':
        return sessionExpired(tx, event.data.object);
      case 'charge.refunded':
        return recordRefunds(tx, chargeRefunds);
      case 'refund.created':
      case 'refund.updated':
      case 'refund.failed':
        return recordRefunds(tx, [providerRefund(event.data.object)]);
      case 'charge.dispute.created':
        return recordDispute(tx, event.data.object, false);
      case 'charge.dispute.closed':
        return recordDispute(tx, event.data.object, true);
      default:
        return 'ignored';
    }
  }, moneyTransaction);
}

/** The order an event names, for the record of events (a refund or a dispute names it through its payment). */
function orderCodeOf(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; client_reference_id?: string | null; metadata?: Record<string, string> | null };
  const code = (object.object === 'checkout.session' ? object.client_reference_id : null) ?? object.metadata?.orderCode ?? null;
  return code ? code.slice(0, 20) : null;
}
