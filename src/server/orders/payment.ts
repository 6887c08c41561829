import 'server-only';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError } from '@/server/errors';
import { configuredPayments } from '@/server/integrations/stripe';
import { logger } from '@/server/logger';
import type { PaymentProvider } from '@/server/payments/provider';
import { openSessions, recordSession } from '@/server/payments/sessions';
import { normalizeOrderCode } from '@/shared/orders';
import type { PaymentOptions } from '@/shared/payment';
import { noMatchingOrder, sameEmail } from './service';

/** How customers pay with this provider (or none): online, or by the studio's instructions. */
export function paymentOptionsFor(payments: PaymentProvider | undefined): PaymentOptions {
  const online = Boolean(payments);
  return { online, instructions: online ? null : (env().PAYMENT_INSTRUCTIONS ?? null) };
}

export const configuredPaymentOptions = (): PaymentOptions => paymentOptionsFor(configuredPayments());

const paymentUnderway = () =>
  new DomainError('payment_in_progress', 'A payment for this order is already on its way (a bank debit, or a payment just made): no new payment is needed.');

/**
 * Pays a pending order later (`POST /v1/orders/{code}/checkout`): a fresh Checkout session for the
 * order's total. Every earlier session still open is expired first, and when one cannot be (it was
 * paid, or its debit is on its way, and the webhook has not said so yet) no new one is opened: the
 * shop fails closed rather than let the customer pay twice (decisions.md "Payments and refunds").
 */
export async function payLater(db: Db, typedCode: string, email: string, payments: PaymentProvider | undefined): Promise<{ checkoutUrl: string }> {
  const order = await db.order.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    select: {
      id: true,
      code: true,
      status: true,
      totalCents: true,
      locale: true,
      customerEmail: true,
      kind: true,
      size: true,
      frame: true,
      artworkSlug: true,
      sessions: { where: { state: 'processing' }, select: { id: true } },
      _count: { select: { sessions: true } },
    },
  });
  if (!order || !sameEmail(order.customerEmail, email)) throw noMatchingOrder();
  if (order.status !== 'pending') throw new DomainError('invalid_transition', `This order is ${order.status}: there is nothing left to pay.`);
  if (!payments) throw new DomainError('payment_unavailable', 'The shop takes no online payment just now; the order page and your confirmation e-mail say how to pay.');
  if (order.sessions.length > 0) throw paymentUnderway();
  for (const earlier of await openSessions(db, order.id)) {
    if ((await payments.expire(earlier.id)) === 'complete') {
      logger.warn({ orderCode: order.code, checkoutSession: earlier.id }, 'pay later refused: an earlier checkout completed before its webhook arrived');
      throw paymentUnderway();
    }
    await db.paymentSession.updateMany({ where: { id: earlier.id, state: 'open' }, data: { state: 'expired' } });
  }
  const session = await payments.open({
    code: order.code,
    totalCents: order.totalCents,
    locale: order.locale,
    email: order.customerEmail,
    description: order.kind === 'reproduction' ? `${order.artworkSlug}, ${order.size} cm, ${order.frame}` : `Custom painting, ${order.size} cm, ${order.frame}`,
    // One session per earlier one: a retried call gets the same session, a later visit a new one.
    attempt: `after-${order._count.sessions}`,
  });
  await recordSession(db, { id: session.id, orderId: order.id, amountCents: order.totalCents });
  logger.info({ orderCode: order.code }, 'a pending order opened a new checkout to pay later');
  return { checkoutUrl: session.url };
}
