import 'server-only';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError } from '@/server/errors';
import { configuredCheckout } from '@/server/integrations/stripe';
import { logger } from '@/server/logger';
import { normalizeOrderCode } from '@/shared/orders';
import type { PaymentOptions } from '@/shared/payment';
import type { Checkout } from './service';
import { noMatchingOrder, sameEmail } from './service';

export function configuredPaymentOptions(): PaymentOptions {
  const online = Boolean(configuredCheckout());
  return { online, instructions: online ? null : (env().PAYMENT_INSTRUCTIONS ?? null) };
}

/**
 * Pays a pending order later (`POST /v1/orders/{code}/checkout`): a fresh Checkout session for the
 * order's total; an earlier session still open is expired first, so one payment at most can
 * arrive (and the webhook moves the order to paid once, whichever session it names).
 */
export async function payLater(db: Db, typedCode: string, email: string, checkout: Checkout | undefined): Promise<{ checkoutUrl: string }> {
  const order = await db.order.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    select: { code: true, status: true, totalCents: true, locale: true, customerEmail: true, checkoutId: true, kind: true, size: true, frame: true, artworkSlug: true },
  });
  if (!order || !sameEmail(order.customerEmail, email)) throw noMatchingOrder();
  if (order.status !== 'pending') throw new DomainError('invalid_transition', `This order is ${order.status}: there is nothing left to pay.`);
  if (!checkout) throw new DomainError('payment_unavailable', 'The shop takes no online payment just now; the order page and your confirmation e-mail say how to pay.');
  if (order.checkoutId) await checkout.expire(order.checkoutId);
  const session = await checkout.open({
    code: order.code,
    totalCents: order.totalCents,
    locale: order.locale,
    email: order.customerEmail,
    description: order.kind === 'reproduction' ? `${order.artworkSlug}, ${order.size} cm, ${order.frame}` : `Custom painting, ${order.size} cm, ${order.frame}`,
    // One session per earlier one: a retried call gets the same session, a later visit a new one.
    attempt: `after-${order.checkoutId ?? 'none'}`,
  });
  await db.order.update({ where: { code: order.code }, data: { checkoutId: session.id } });
  logger.info({ orderCode: order.code }, 'a pending order opened a new checkout to pay later');
  return { checkoutUrl: session.url };
}
