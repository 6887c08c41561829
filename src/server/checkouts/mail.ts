import 'server-only';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import type { Mailer } from '@/server/integrations/mailer';
import { logger } from '@/server/logger';
import { fill, itemOf, layCustomerMail, mailStrings, moneyIn, payingLines, windowIn } from '@/server/orders/mail';
import type { Size } from '@/shared/canvas';
import { deliveryWindow, latestWindow } from '@/shared/delivery';
import { textLocale } from '@/shared/locales';
import type { PaymentOptions } from '@/shared/payment';

const CheckoutMailPayload = z.object({ checkoutId: z.int(), code: z.string() });

/**
 * The basket's one order-received e-mail (decisions.md "A basket"): every order with its code, work
 * and total, the basket's total, when the last of them should arrive, and how to pay the whole
 * basket (online from its page, or the studio's instructions with the basket's code as the
 * reference), in the basket's language. A send that fails throws, so the outbox retries.
 */
export async function sendCheckoutMail(
  db: Db,
  mailer: Mailer | null,
  rawPayload: unknown,
  settings: { baseUrl: string; payment?: PaymentOptions },
): Promise<'sent' | 'mail off' | 'no such basket'> {
  const payload = CheckoutMailPayload.parse(rawPayload);
  if (!mailer) {
    logger.info('mail is off (SMTP_URL unset): the order-received e-mail of basket %s is not sent', payload.code);
    return 'mail off';
  }
  const basket = await db.checkout.findUnique({
    where: { id: payload.checkoutId },
    include: { orders: { orderBy: { id: 'asc' }, include: { artwork: { select: { texts: { select: { locale: true, title: true } } } } } } },
  });
  const first = basket?.orders[0];
  if (!basket || !first) {
    logger.warn('the order-received e-mail of basket %s is dropped: the basket no longer exists', payload.code);
    return 'no such basket';
  }
  const locale = basket.locale;
  const t = mailStrings(locale);
  const total = moneyIn(locale, basket.totalCents);
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
  // The basket arrives when its last work does: the latest of the orders' estimates.
  const arrives = latestWindow(basket.orders.map((order) => deliveryWindow({ kind: order.kind, size: order.size as Size }, order.createdAt)));
  if (arrives) rows.push([t.estimate, windowIn(locale, arrives)]);
  const paying = payingLines(t, settings.payment, fill(t.basket.reference, { total, code: basket.code }));
  const mail = layCustomerMail({
    locale,
    subject: fill(t.basket.subject, { count: basket.orders.length, code: basket.code }),
    greeting: fill(t.greeting, { name: first.customerName }),
    intro: t.basket.intro,
    rows,
    paying,
    lookup: t.basket.lookup,
    link: `${settings.baseUrl}/${locale}/orders/basket/${basket.code}`,
    button: t.basket.button,
  });
  await mailer.send({ to: basket.customerEmail, ...mail });
  return 'sent';
}
