import 'server-only';
import type Stripe from 'stripe';
import type { PaymentSession } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { providerRefund } from '@/server/integrations/stripe';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import { moneyEventNote, moneyIn, STUDIO_NOTICE_EVENT } from '@/server/orders/mail';
import { lockOrder, type LockedOrder } from '@/server/orders/lock';
import { applyTransition } from '@/server/orders/status';
import { normalizeOrderCode } from '@/shared/orders';
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
 * The orders a Checkout event is about, each with its share of the session, their rows locked in
 * the order of their ids (a basket's session pays several; two events of one basket queue up
 * without a deadlock). The shares are the ones the shop kept when it opened the session; a session
 * it never recorded (the shop stopped between opening and keeping it) is kept now when money comes
 * with it (`withMoney`), from the order or basket its `client_reference_id` names, a share per
 * order of its total. An event whose session belongs to another order or basket than it names is
 * refused: it matches neither.
 */
async function sessionAndOrders(tx: Tx, session: Session, withMoney = true): Promise<{ order: LockedOrder; row: PaymentSession }[] | null> {
  const named = session.client_reference_id ?? session.metadata?.checkoutCode ?? session.metadata?.orderCode ?? null;
  const kept = await tx.paymentSession.findMany({
    where: { id: session.id },
    orderBy: { orderId: 'asc' },
    select: { order: { select: { code: true, checkout: { select: { code: true } } } } },
  });
  if (kept.length && named && !kept.some(({ order }) => order.code === named || order.checkout?.code === named)) {
    logger.warn({ checkoutSession: session.id, reference: named, sessionOrder: kept[0]!.order.code }, 'Stripe: a checkout names another order than its session; ignored');
    return null;
  }
  if (!kept.length && !withMoney) return null;
  const codes = kept.length ? kept.map(({ order }) => order.code) : await ordersNamed(tx, named);
  const found: { order: LockedOrder; row: PaymentSession }[] = [];
  for (const code of codes) {
    const order = await lockOrder(tx, code);
    if (!order) continue;
    const row =
      (await tx.paymentSession.findUnique({ where: { id_orderId: { id: session.id, orderId: order.id } } })) ??
      (await tx.paymentSession.create({ data: { id: session.id, orderId: order.id, amountCents: order.totalCents, currency: session.currency ?? 'usd' } }));
    found.push({ order, row });
  }
  if (!found.length) {
    logger.warn({ checkoutSession: session.id, reference: named }, 'Stripe: a checkout names no known order');
    return null;
  }
  return found;
}

/** The codes of the orders a reference names: an order's own code, or every order of a basket (by id). */
async function ordersNamed(tx: Tx, reference: string | null): Promise<string[]> {
  if (!reference) return [];
  const code = normalizeOrderCode(reference);
  const basket = await tx.checkout.findUnique({ where: { code }, select: { orders: { orderBy: { id: 'asc' }, select: { code: true } } } });
  return basket ? basket.orders.map((order) => order.code) : [code];
}

/**
 * A session's money arrived. Each order of it that is pending and not yet paid is paid with its
 * share, when the session paid the shares' sum in dollars. For an order paid already (by another
 * session, or by a transfer staff recorded) or cancelled, its share is a double payment: refunded
 * at once, under the order's lock, with an idempotency key of the session's own (and the order's,
 * in a basket), so a retried event gives back once.
 */
async function sessionPaid(tx: Tx, session: Session, provider: PaymentProvider | undefined): Promise<PaymentOutcome> {
  const found = await sessionAndOrders(tx, session);
  if (!found) return 'ignored';
  const paymentIntent = idOf(session.payment_intent);
  const amount = session.amount_total ?? 0;
  const asked = found.reduce((sum, { row }) => sum + row.amountCents, 0);
  const outcomes: PaymentOutcome[] = [];
  for (const { order, row } of found) {
    if (!movesForward(row.state, 'paid')) continue;
    const share = found.length === 1 ? amount : row.amountCents;
    const refundKey = found.length === 1 ? `double-payment-${row.id}` : `double-payment-${row.id}-${order.code}`;
    if (order.status !== 'pending' || order.paidCents > 0) {
      outcomes.push(await refundDoublePayment(tx, order, { id: row.id, paymentIntent, amount: share, refundKey }, provider));
      continue;
    }
    await tx.paymentSession.update({ where: { id_orderId: { id: row.id, orderId: order.id } }, data: { state: 'paid', paymentIntent } });
    if (amount !== asked || share !== order.totalCents || session.currency?.toLowerCase() !== 'usd') {
      logger.warn(
        { checkoutSession: row.id, orderCode: order.code, paid: amount, asked, currency: session.currency, totalCents: order.totalCents },
        'Stripe: the checkout paid another amount than the order total; left pending for staff',
      );
      outcomes.push('unchanged');
      continue;
    }
    await applyTransition(tx, { ...order, paidCents: share }, { status: 'paid' }, 'payment');
    outcomes.push('paid');
  }
  return strongest(outcomes);
}

/** What a webhook did to the orders of its session, in one word: the most that happened to any. */
function strongest(outcomes: PaymentOutcome[]): PaymentOutcome {
  for (const outcome of ['paid', 'double_payment_refunded', 'processing', 'failed', 'expired'] as const) if (outcomes.includes(outcome)) return outcome;
  return 'unchanged';
}

async function refundDoublePayment(
  tx: Tx,
  order: LockedOrder,
  session: { id: string; paymentIntent: string | null; amount: number; refundKey: string },
  provider: PaymentProvider | undefined,
): Promise<PaymentOutcome> {
  const why = order.status === 'cancelled' ? 'the order was cancelled' : 'the order was paid already';
  const row = { id_orderId: { id: session.id, orderId: order.id } };
  if (!provider || !session.paymentIntent) {
    // Without a way to give it back, it is kept as paid and the studio is told to refund it by hand.
    await tx.paymentSession.update({ where: row, data: { state: 'paid', paymentIntent: session.paymentIntent } });
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
    idempotencyKey: session.refundKey,
    metadata: { orderCode: order.code, doublePayment: session.id },
  });
  await tx.paymentSession.update({ where: row, data: { state: 'refunded', paymentIntent: session.paymentIntent, refundId: refund.id } });
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

/**
 * A state a session reached without money (`processing`: a bank debit started, no new payment is
 * offered meanwhile; `failed`: the debit failed, the order is unpaid again and paying later opens a
 * new session at once; `expired`), on each of its orders, with the order event it deserves.
 */
async function sessionReached(tx: Tx, session: Session, state: 'processing' | 'failed' | 'expired'): Promise<PaymentOutcome> {
  const found = await sessionAndOrders(tx, session, state === 'processing');
  if (!found) return 'ignored';
  const outcomes: PaymentOutcome[] = [];
  for (const { order, row } of found) {
    if (!movesForward(row.state, state)) continue;
    const paymentIntent = state === 'processing' ? { paymentIntent: idOf(session.payment_intent) } : {};
    await tx.paymentSession.update({ where: { id_orderId: { id: row.id, orderId: order.id } }, data: { state, ...paymentIntent } });
    const note = state === 'processing' ? 'processing' : state === 'failed' ? 'paymentFailed' : null;
    if (note && order.status === 'pending')
      await tx.orderEvent.create({ data: { orderId: order.id, status: order.status, actor: 'payment', note: moneyEventNote(order.locale, note) } });
    outcomes.push(state);
  }
  return strongest(outcomes);
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
        return session.payment_status === 'unpaid' ? sessionReached(tx, session, 'processing') : 'ignored';
      }
      case 'checkout.session.async_payment_succeeded':
        return sessionPaid(tx, event.data.object, provider);
      case 'checkout.session.async_payment_failed':
        return sessionReached(tx, event.data.object, 'failed');
      case 'checkout.session.expired':
        return sessionReached(tx, event.data.object, 'expired');
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
