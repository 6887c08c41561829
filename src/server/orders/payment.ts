import 'server-only';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError, notFound } from '@/server/errors';
import { configuredPayments } from '@/server/integrations/stripe';
import { logger } from '@/server/logger';
import type { PaymentAsked, PaymentProvider } from '@/server/payments/provider';
import { recordSession } from '@/server/payments/sessions';
import { normalizeOrderCode } from '@/shared/orders';
import { paymentModeOf, type PaymentMode, type PaymentOptions } from '@/shared/payment';
import { configuredPhotoAddresses } from './photos';
import { noMatchingOrder, sameEmail, type OrderViewSettings } from './service';

/** How customers pay with this provider (or none): online, by transfer to the studio's account, both, or by the studio's instructions. */
export function paymentOptionsFor(payments: PaymentProvider | undefined): PaymentOptions {
  const settings = env();
  const online = Boolean(payments);
  const bankTransfer =
    settings.BANK_ACCOUNT_HOLDER && settings.BANK_IBAN
      ? { accountHolder: settings.BANK_ACCOUNT_HOLDER, iban: settings.BANK_IBAN, bic: settings.BANK_BIC ?? null, bankName: settings.BANK_NAME ?? null }
      : null;
  // The note goes with a transfer, or stands alone; beside card payment only, there is nothing to add.
  const instructions = online && !bankTransfer ? null : (settings.PAYMENT_INSTRUCTIONS ?? null);
  return { online, bankTransfer, instructions, unpaid: { remindDays: settings.UNPAID_REMIND_DAYS, cancelDays: settings.UNPAID_CANCEL_DAYS } };
}

export const configuredPaymentOptions = (): PaymentOptions => paymentOptionsFor(configuredPayments());

/** How this server takes payment (online, by transfer, both…), which the pages' order buttons, terms and privacy notice name. */
export const configuredPaymentMode = (): PaymentMode => paymentModeOf(configuredPaymentOptions());

/** What the customer's view of an order (alone or in its basket) takes from this server's configuration. */
export const orderViewSettings = (payments: PaymentProvider | undefined): OrderViewSettings => ({ photos: configuredPhotoAddresses(), payment: paymentOptionsFor(payments) });

const paymentUnderway = () =>
  new DomainError('payment_in_progress', 'A payment for this order is already on its way (a bank debit, or a payment just made): no new payment is needed.');

/** What paying later reads of each order it may pay. */
const payableFields = {
  id: true,
  code: true,
  status: true,
  totalCents: true,
  paidCents: true,
  locale: true,
  customerEmail: true,
  kind: true,
  size: true,
  frame: true,
  style: true,
  subjects: true,
  artworkSlug: true,
  artwork: { select: { texts: { where: { locale: 'en' }, select: { title: true } } } },
  sessions: { select: { id: true, state: true } },
} satisfies Prisma.OrderSelect;
type Payable = Prisma.OrderGetPayload<{ select: typeof payableFields }>;

/** The payment's line for an order, as the order was described when it was taken: work, size, frame. */
const lineOf = (order: Payable) =>
  order.kind === 'reproduction'
    ? `${order.artwork?.texts[0]?.title ?? order.artworkSlug}, ${order.size} cm, ${order.frame}`
    : `Custom painting (${order.style}, ${order.subjects} subject${(order.subjects ?? 1) > 1 ? 's' : ''}), ${order.size} cm, ${order.frame}`;

/**
 * Pays a pending order later (`POST /v1/orders/{code}/checkout`): a fresh Checkout session for the
 * order's total. An order of a basket is paid with its basket (one session for all of it), as the
 * basket's own pay later does (decisions.md "A basket").
 */
export async function payLater(db: Db, typedCode: string, email: string, payments: PaymentProvider | undefined): Promise<{ checkoutUrl: string }> {
  const order = await db.order.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    select: { ...payableFields, checkout: { select: { code: true } } },
  });
  if (!order || !sameEmail(order.customerEmail, email)) throw noMatchingOrder();
  if (order.checkout) return payBasketLater(db, order.checkout.code, email, payments);
  if (order.status !== 'pending') throw new DomainError('invalid_transition', `This order is ${order.status}: there is nothing left to pay.`);
  return openAgain(db, payments, [order], { code: order.code, of: 'order' });
}

/**
 * Pays a basket later (`POST /v1/checkouts/{code}/checkout`): one fresh session for its orders that
 * are still pending and unpaid (one cancelled, or paid by a transfer meanwhile, is left out). A
 * wrong e-mail answers like an unknown code.
 */
export async function payBasketLater(db: Db, typedCode: string, email: string, payments: PaymentProvider | undefined): Promise<{ checkoutUrl: string }> {
  const basket = await db.checkout.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    select: { code: true, customerEmail: true, orders: { orderBy: { id: 'asc' }, select: payableFields } },
  });
  if (!basket || !sameEmail(basket.customerEmail, email)) throw noMatchingBasket();
  const payable = basket.orders.filter((order) => order.status === 'pending' && order.paidCents === 0);
  if (!payable.length) throw new DomainError('invalid_transition', 'No order of this basket is waiting for payment: there is nothing left to pay.');
  return openAgain(db, payments, payable, { code: basket.code, of: 'checkout' });
}

export const noMatchingBasket = () => notFound('No basket matches this code and e-mail address.');

/**
 * A fresh Checkout session for `orders` (an order's own, or a basket's). Every earlier session of
 * theirs still open is expired first, and when one cannot be (it was paid, or its debit is on its
 * way, and the webhook has not said so yet) no new one is opened: the shop fails closed rather
 * than let the customer pay twice (decisions.md "Payments and refunds").
 */
async function openAgain(db: Db, payments: PaymentProvider | undefined, orders: Payable[], reference: Pick<PaymentAsked, 'code' | 'of'>): Promise<{ checkoutUrl: string }> {
  if (!payments) throw new DomainError('payment_unavailable', 'The shop takes no online payment just now; the order page and your confirmation e-mail say how to pay.');
  if (orders.some((order) => order.sessions.some((session) => session.state === 'processing'))) throw paymentUnderway();
  const sessions = new Set(orders.flatMap((order) => order.sessions.map((session) => session.id)));
  const open = new Set(orders.flatMap((order) => order.sessions.filter((session) => session.state === 'open').map((session) => session.id)));
  for (const earlier of open) {
    if ((await payments.expire(earlier)) === 'complete') {
      logger.warn({ reference: reference.code, checkoutSession: earlier }, 'pay later refused: an earlier checkout completed before its webhook arrived');
      throw paymentUnderway();
    }
    await db.paymentSession.updateMany({ where: { id: earlier, state: 'open' }, data: { state: 'expired' } });
  }
  const first = orders[0]!;
  const session = await payments.open({
    ...reference,
    lines: orders.map((order) => ({ name: lineOf(order), amountCents: order.totalCents })),
    locale: first.locale,
    email: first.customerEmail,
    // One session per earlier one: a retried call gets the same session, a later visit a new one.
    attempt: `after-${sessions.size}`,
  });
  await recordSession(
    db,
    session.id,
    orders.map((order) => ({ orderId: order.id, amountCents: order.totalCents })),
  );
  logger.info({ reference: reference.code, orders: orders.length }, 'pending orders opened a new checkout to pay later');
  return { checkoutUrl: session.url };
}
