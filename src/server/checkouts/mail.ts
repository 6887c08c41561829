import 'server-only';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import type { Mailer } from '@/server/integrations/mailer';
import { logger } from '@/server/logger';
import { dayIn, fill, itemOf, layCustomerMail, mailStrings, moneyIn, payingLines, windowIn } from '@/server/orders/mail';
import type { Size } from '@/shared/canvas';
import { deliveryWindow, latestWindow } from '@/shared/delivery';
import { textLocale } from '@/shared/locales';
import type { PaymentOptions } from '@/shared/payment';
import { CHECKOUT_RECEIVED_EVENT } from './service';

/** A basket's unpaid orders reminded, or cancelled, together (src/server/payments/unpaid.ts): one e-mail for them all. */
export const CHECKOUT_REMINDER_EVENT = 'shop/checkout.payment-reminder';
export const CHECKOUT_UNPAID_CANCELLED_EVENT = 'shop/checkout.unpaid-cancelled';

/** The basket's customer e-mails, one per outbox event name. */
export const checkoutMailKinds = {
  [CHECKOUT_RECEIVED_EVENT]: 'received',
  [CHECKOUT_REMINDER_EVENT]: 'reminder',
  [CHECKOUT_UNPAID_CANCELLED_EVENT]: 'unpaidCancelled',
} as const;
export type CheckoutMailEvent = keyof typeof checkoutMailKinds;

/** A text with a form for one and one for more (a basket's mail may be about one order of it). */
type Counted = { one: string; other: string };
const counted = (text: Counted | string, count: number, locale: string) =>
  typeof text === 'string' ? text : new Intl.PluralRules(textLocale(locale)).select(count) === 'one' ? text.one : text.other;

const CheckoutMailPayload = z.object({
  checkoutId: z.int(),
  code: z.string(),
  /** The orders the mail is about (a reminder's or a cancellation's); absent: every order of the basket. */
  orderIds: z.array(z.int()).optional(),
  payBy: z.iso.datetime().optional(),
});

/**
 * A basket's e-mails, in the basket's language (decisions.md "A basket"). The order-received one:
 * every order with its code, work and total, the basket's total, when the last of them should
 * arrive, and how to pay the whole basket (online from its page, or the studio's account or
 * instructions with the basket's code as the reference). The reminder and the cancellation of its
 * unpaid orders: those orders, their total, and for the reminder the last day and how to pay. A
 * send that fails throws, so the outbox retries.
 */
export async function sendCheckoutMail(
  db: Db,
  mailer: Mailer | null,
  event: CheckoutMailEvent,
  rawPayload: unknown,
  settings: { baseUrl: string; payment?: PaymentOptions },
): Promise<'sent' | 'mail off' | 'no such basket'> {
  const payload = CheckoutMailPayload.parse(rawPayload);
  const kind = checkoutMailKinds[event];
  if (!mailer) {
    logger.info('mail is off (SMTP_URL unset): the %s e-mail of basket %s is not sent', kind, payload.code);
    return 'mail off';
  }
  const basket = await db.checkout.findUnique({
    where: { id: payload.checkoutId },
    include: {
      orders: {
        where: payload.orderIds ? { id: { in: payload.orderIds } } : undefined,
        orderBy: { id: 'asc' },
        include: { artwork: { select: { texts: { select: { locale: true, title: true } } } } },
      },
    },
  });
  const first = basket?.orders[0];
  if (!basket || !first) {
    logger.warn('the %s e-mail of basket %s is dropped: the basket no longer exists', kind, payload.code);
    return 'no such basket';
  }
  const locale = basket.locale;
  const t = mailStrings(locale);
  const total = moneyIn(
    locale,
    basket.orders.reduce((sum, order) => sum + order.totalCents, 0),
  );
  const titleOf = (texts: { locale: string; title: string | null }[], slug: string | null) =>
    texts.find((x) => x.locale === textLocale(locale))?.title ?? texts.find((x) => x.locale === 'en')?.title ?? slug;
  const rows: [string, string][] = [
    [t.basket.code, basket.code],
    ...basket.orders.map((order): [string, string] => [
      fill(t.basket.orderLine, { code: order.code }),
      `${itemOf({ ...order, artworkTitle: titleOf(order.artwork?.texts ?? [], order.artworkSlug) }, locale)}: ${moneyIn(locale, order.totalCents)}`,
    ]),
    [t.total, total],
  ];
  if (kind === 'received') {
    // The basket arrives when its last work does: the latest of the orders' estimates.
    const arrives = latestWindow(basket.orders.map((order) => deliveryWindow({ kind: order.kind, size: order.size as Size }, order.createdAt)));
    if (arrives) rows.push([t.estimate, windowIn(locale, arrives)]);
  }
  if (kind === 'reminder' && payload.payBy) rows.push([t.payBy, dayIn(locale, new Date(payload.payBy))]);
  const paying = kind === 'unpaidCancelled' ? [] : payingLines(t, settings.payment, fill(t.basket.reference, { total, code: basket.code }));
  const words: Record<typeof kind, [subject: Counted, intro: Counted | string]> = {
    received: [t.basket.subject, t.basket.intro],
    reminder: [t.basket.reminderSubject, t.basket.reminderIntro],
    unpaidCancelled: [t.basket.cancelledSubject, t.basket.cancelledIntro],
  };
  const [subject, intro] = words[kind];
  const count = basket.orders.length;
  const mail = layCustomerMail({
    locale,
    subject: fill(counted(subject, count, locale), { count, code: basket.code }),
    greeting: fill(t.greeting, { name: first.customerName }),
    intro: counted(intro, count, locale),
    rows,
    paying,
    lookup: t.basket.lookup,
    link: `${settings.baseUrl}/${locale}/orders/basket/${basket.code}`,
    button: t.basket.button,
  });
  await mailer.send({ to: basket.customerEmail, ...mail });
  return 'sent';
}
