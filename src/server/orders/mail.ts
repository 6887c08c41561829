import 'server-only';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import type { Mail, Mailer } from '@/server/integrations/mailer';
import { logger } from '@/server/logger';
import { canvasOf, type Orientation, type Frame, type Size } from '@/shared/canvas';
import { carrierName, carriers, trackingUrl, type Carrier } from '@/shared/carriers';
import { deliveryWindow, type DeliveryWindow } from '@/shared/delivery';
import { textLocale, type CatalogLocale } from '@/shared/locales';
import type { OrderKind, Style } from '@/shared/orders';
import { ibanInGroups, type PaymentOptions } from '@/shared/payment';
import de from '../../../messages/mail/de.json';
import en from '../../../messages/mail/en.json';
import es from '../../../messages/mail/es.json';
import fr from '../../../messages/mail/fr.json';
import it from '../../../messages/mail/it.json';
import ja from '../../../messages/mail/ja.json';

/** The customer e-mails of decisions.md "Orders", one per outbox event name. */
export const orderMailKinds = {
  'shop/order.received': 'received',
  'shop/order.paid': 'paid',
  'shop/order.shipped': 'shipped',
  'shop/order.delivered': 'delivered',
  // A sketch waits for the customer's decision (photos.ts).
  'shop/order.sketch-ready': 'sketch',
  // Money went back (src/server/payments/refunds.ts); the payload says how much.
  'shop/order.refunded': 'refunded',
  // An order still unpaid: reminded, then cancelled (src/server/payments/unpaid.ts).
  'shop/order.payment-reminder': 'reminder',
  'shop/order.unpaid-cancelled': 'unpaidCancelled',
} as const;
export type OrderMailEvent = keyof typeof orderMailKinds;
export type OrderMailKind = (typeof orderMailKinds)[OrderMailEvent];

/** What the outbox carries for an order e-mail. */
export const OrderMailPayload = z.object({
  orderId: z.int(),
  code: z.string(),
  trackingNumber: z.string().optional(),
  carrier: z.enum(carriers).optional(),
  amountCents: z.int().optional(),
  payBy: z.iso.datetime().optional(),
});
export type OrderMailPayload = z.output<typeof OrderMailPayload>;

type Strings = typeof en;
/**
 * Templates live beside the website strings (messages/mail/<locale>.json), one per catalog language
 * (the type asks for each); `vi` and anything else fall back to English (`textLocale`).
 */
const templates: Record<CatalogLocale, Strings> = { en, es, fr, de, it, ja };

/**
 * How to pay, in the order-received mail (an order's or a basket's) and the reminder, as the shop is
 * configured: online later from the order page, and or else the studio's bank account and note with
 * the amount and the code as reference (`reference`), the studio's own instructions, or its word that
 * it will write.
 */
export function payingLines(t: Strings, payment: PaymentOptions | undefined, reference: string): string[] {
  if (!payment) return [];
  const bank = payment.bankTransfer;
  const account = bank
    ? [
        `${t.payment.fields.accountHolder}: ${bank.accountHolder}`,
        `${t.payment.fields.iban}: ${ibanInGroups(bank.iban)}`,
        ...(bank.bic ? [`${t.payment.fields.bic}: ${bank.bic}`] : []),
        ...(bank.bankName ? [`${t.payment.fields.bankName}: ${bank.bankName}`] : []),
      ].join('\n')
    : null;
  const note = payment.instructions ? [payment.instructions] : [];
  if (payment.online) return account ? [t.payment.later, t.payment.orTransfer, account, ...note, reference] : [t.payment.later];
  if (account) return [t.payment.how, t.payment.transfer, account, ...note, reference];
  return payment.instructions ? [t.payment.how, payment.instructions, reference] : [t.payment.byEmail];
}

/** A sentence for the customer from the mail strings, in the order's language (English for `vi`). */
export const customerSentence = (locale: string, key: 'photosDeleted', values: Record<string, string | number>) => fill(templates[textLocale(locale)][key], values);

/** What an order event about its money says, in the order's language (src/server/payments/). */
export type MoneyEventNote = keyof Strings['events'];

/** `$12.50` in the language of the order (English for `vi`), as every page and mail writes money. */
export const moneyIn = (locale: string, cents: number) => new Intl.NumberFormat(textLocale(locale), { style: 'currency', currency: 'USD' }).format(cents / 100);

/** `14 December 2026` in the order's language (a day, in UTC). */
export const dayIn = (locale: string, day: Date) => new Intl.DateTimeFormat(textLocale(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(day);

/** An order event's note about its money (a refund, a dispute, a reminder), in the order's language, with the amount or the day. */
export const moneyEventNote = (locale: string, key: MoneyEventNote, values: { cents?: number; date?: Date; days?: number } = {}) =>
  fill(templates[textLocale(locale)].events[key], {
    ...(values.cents === undefined ? {} : { amount: moneyIn(locale, values.cents) }),
    ...(values.date ? { date: dayIn(locale, values.date) } : {}),
    ...(values.days === undefined ? {} : { days: values.days }),
  });

/** The order as a mail needs it. */
export interface MailOrder {
  code: string;
  locale: string;
  kind: OrderKind;
  artworkTitle: string | null;
  style: string | null;
  subjects: number | null;
  size: string;
  orientation: Orientation;
  frame: string;
  totalCents: number;
  /** When it should arrive (the order-received mail says so). */
  estimatedDelivery?: DeliveryWindow | null;
  /** What a refund gave back (the refund mail says so). */
  refundedCents?: number;
  /** The day an unpaid order is cancelled unless paid (the reminder says so). */
  payBy?: Date;
  customerName: string;
  customerEmail: string;
  trackingNumber: string | null;
  /** Who carries the parcel, when staff said so: the number then links to its tracking page. */
  carrier?: Carrier | null;
}

export const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `16–22 Dec 2026` in the mail's language (dates are days, in UTC). */
function formatWindow(window: DeliveryWindow, language: string): string {
  const format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return format.formatRange(new Date(`${window.earliest}T00:00:00Z`), new Date(`${window.latest}T00:00:00Z`));
}

/** The work of an order in the mail's words: "Hand-painted reproduction of “…” (40 × 50 cm, framed)". */
export function itemOf(order: Pick<MailOrder, 'kind' | 'artworkTitle' | 'style' | 'subjects' | 'size' | 'orientation' | 'frame'>, locale: string): string {
  const t = templates[textLocale(locale)];
  const item =
    order.kind === 'reproduction'
      ? fill(t.items.reproduction, { title: order.artworkTitle ?? '' })
      : fill(t.items.custom, { style: t.items.styles[order.style as Style] ?? order.style ?? '', subjects: order.subjects ?? 1 });
  // Width × height as the canvas hangs, the way the order form and order page show it.
  const canvas = canvasOf(order.size as Size, order.orientation);
  return `${item} (${fill(t.items.details, { size: `${canvas.widthCm} × ${canvas.heightCm}`, frame: t.items.frames[order.frame as Frame] ?? order.frame })})`;
}

/** The mail strings of a language (English for `vi` and anything else). */
export const mailStrings = (locale: string) => templates[textLocale(locale)];

export type MailRow = [label: string, value: string, href?: string];

/** A customer e-mail's parts, laid out alike for an order and a basket. */
export interface CustomerMail {
  locale: string;
  subject: string;
  greeting: string;
  intro: string;
  /** Label, value and, for a value that is a link (a parcel's tracking page), where it goes. */
  rows: MailRow[];
  paying: string[];
  lookup: string;
  link: string;
  button: string;
}

/** Lays a customer e-mail out as plain text and HTML, in the shop's letterhead. */
export function layCustomerMail(mail: CustomerMail): Omit<Mail, 'to'> {
  const t = mailStrings(mail.locale);
  const text = [
    mail.greeting,
    '',
    mail.intro,
    '',
    ...mail.rows.map(([label, value, href]) => `${label}: ${value}${href ? ` (${href})` : ''}`),
    ...(mail.paying.length ? ['', ...mail.paying] : []),
    '',
    mail.lookup,
    mail.link,
    '',
    t.signature,
    '',
  ].join('\n');
  const h = escapeHtml;
  const html = `<!doctype html>
<html lang="${textLocale(mail.locale)}"><head><meta charset="utf-8"><title>${h(mail.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f6f3ee;font-family:Georgia,'Times New Roman',serif;color:#2b2620">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:6px;padding:28px">
<tr><td>
<p style="font-size:16px">${h(mail.greeting)}</p>
<p style="font-size:16px;line-height:1.5">${h(mail.intro)}</p>
<table role="presentation" style="width:100%;border-collapse:collapse;margin:20px 0;font-size:15px">
${mail.rows.map(([label, value, href]) => `<tr><th style="text-align:left;padding:6px 12px 6px 0;color:#6b6257;font-weight:normal;vertical-align:top">${h(label)}</th><td style="padding:6px 0"><strong>${href ? `<a href="${h(href)}" style="color:#2b2620">${h(value)}</a>` : h(value)}</strong></td></tr>`).join('\n')}
</table>
${mail.paying.map((line) => `<p style="font-size:15px;line-height:1.5;white-space:pre-line">${h(line)}</p>`).join('\n')}
<p style="font-size:14px;line-height:1.5">${h(mail.lookup)}</p>
<p><a href="${h(mail.link)}" style="display:inline-block;background:#2b2620;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:4px">${h(mail.button)}</a></p>
<p style="font-size:13px;color:#6b6257"><a href="${h(mail.link)}" style="color:#6b6257">${h(mail.link)}</a></p>
<p style="font-size:15px;margin-top:28px">${h(t.signature)}</p>
</td></tr></table>
</body></html>
`;
  return { subject: mail.subject, text, html };
}

/** `16–22 Dec 2026` in the mail's language (dates are days, in UTC). */
export function windowIn(locale: string, window: DeliveryWindow): string {
  return formatWindow(window, textLocale(locale));
}

/**
 * Renders one order e-mail (subject, plain text, HTML) in the order's language. The order-received
 * mail also says when the painting should arrive and, when it was not paid online, how to pay.
 */
export function renderOrderMail(kind: OrderMailKind, order: MailOrder, baseUrl: string, payment?: PaymentOptions): Omit<Mail, 'to'> {
  const language = textLocale(order.locale);
  const t = templates[language];
  const total = moneyIn(language, order.totalCents);
  const tracking = kind === 'shipped' || kind === 'delivered' ? order.trackingNumber : null;
  const carrier = tracking ? (order.carrier ?? null) : null;
  const received = kind === 'received';
  const rows: MailRow[] = [
    [t.orderCode, order.code],
    [t.item, itemOf(order, order.locale)],
    [t.total, total],
    ...(received && order.estimatedDelivery ? ([[t.estimate, formatWindow(order.estimatedDelivery, language)]] as [string, string][]) : []),
    ...(tracking ? ([carrier ? [t.tracking, `${tracking} (${carrierName(carrier, language)})`, trackingUrl(carrier, tracking)!] : [t.tracking, tracking]] as MailRow[]) : []),
    ...(kind === 'refunded' && order.refundedCents ? ([[t.refunded, moneyIn(language, order.refundedCents)]] as [string, string][]) : []),
    ...(kind === 'reminder' && order.payBy ? ([[t.payBy, dayIn(language, order.payBy)]] as [string, string][]) : []),
  ];
  const paying = received || kind === 'reminder' ? payingLines(t, payment, fill(t.payment.reference, { total, code: order.code })) : [];
  return layCustomerMail({
    locale: order.locale,
    subject: fill(t.subject[kind], { code: order.code }),
    greeting: fill(t.greeting, { name: order.customerName }),
    intro: t.intro[kind],
    rows,
    paying,
    lookup: t.lookup,
    // The website's order page, in the language the customer ordered in (vi included).
    link: `${baseUrl}/${order.locale}/orders/${order.code}`,
    button: kind === 'sketch' ? t.sketchButton : t.lookupButton,
  });
}

export interface OrderMailSettings {
  /** The website's address, for the lookup link. */
  baseUrl: string;
  /** How customers pay (the order-received mail says it); absent: nothing is said about paying. */
  payment?: PaymentOptions;
}

/**
 * The job behind every order e-mail, called alike by the in-process worker and the Inngest
 * function: loads the order, renders the mail in its language and hands it to SMTP. A send that
 * fails throws, so the caller retries; with mail off it logs and returns.
 */
export async function sendOrderMail(
  db: Db,
  mailer: Mailer | null,
  event: OrderMailEvent,
  rawPayload: unknown,
  settings: OrderMailSettings,
): Promise<'sent' | 'mail off' | 'no such order'> {
  const payload = OrderMailPayload.parse(rawPayload);
  const kind = orderMailKinds[event];
  if (!mailer) {
    logger.info('mail is off (SMTP_URL unset): the %s e-mail of order %s is not sent', kind, payload.code);
    return 'mail off';
  }
  const order = await db.order.findUnique({
    where: { id: payload.orderId },
    include: { artwork: { select: { texts: { select: { locale: true, title: true } } } } },
  });
  if (!order) {
    logger.warn('the %s e-mail of order %s is dropped: the order no longer exists', kind, payload.code);
    return 'no such order';
  }
  const titles = order.artwork?.texts ?? [];
  const title = titles.find((x) => x.locale === textLocale(order.locale))?.title ?? titles.find((x) => x.locale === 'en')?.title ?? order.artworkSlug;
  const mail = renderOrderMail(
    kind,
    {
      code: order.code,
      locale: order.locale,
      kind: order.kind,
      artworkTitle: title,
      style: order.style,
      subjects: order.subjects,
      size: order.size,
      orientation: order.orientation,
      frame: order.frame,
      totalCents: order.totalCents,
      estimatedDelivery: deliveryWindow({ kind: order.kind, size: order.size as Size }, order.createdAt),
      customerName: order.customerName,
      customerEmail: order.customerEmail,
      // The number as of the change that sent this mail, not a later correction.
      trackingNumber: payload.trackingNumber ?? order.trackingNumber,
      carrier: payload.trackingNumber ? (payload.carrier ?? null) : (order.carrier as Carrier | null),
      refundedCents: payload.amountCents,
      payBy: payload.payBy ? new Date(payload.payBy) : undefined,
    },
    settings.baseUrl,
    settings.payment,
  );
  await mailer.send({ to: order.customerEmail, ...mail });
  return 'sent';
}

/** What the outbox carries for the studio's e-mail about a sketch decision. */
const StudioMailPayload = z.object({ orderId: z.int(), code: z.string() });

/**
 * Tells the studio (`SHOP_EMAIL`) that a customer decided on a sketch, with the decision, the
 * comment and a link to the order in the dashboard. In English: it is the studio's own mail.
 */
export async function sendSketchDecisionMail(
  db: Db,
  mailer: Mailer | null,
  rawPayload: unknown,
  settings: OrderMailSettings & { studioEmail: string },
): Promise<'sent' | 'mail off' | 'no such order'> {
  const payload = StudioMailPayload.parse(rawPayload);
  if (!mailer) {
    logger.info('mail is off (SMTP_URL unset): the studio is not e-mailed about the sketch decision on order %s', payload.code);
    return 'mail off';
  }
  const order = await db.order.findUnique({
    where: { id: payload.orderId },
    select: { code: true, customerName: true, events: { where: { actor: 'customer', sketchStatus: { not: null } }, orderBy: { id: 'desc' }, take: 1 } },
  });
  const decision = order?.events[0];
  if (!order || !decision) return 'no such order';
  const approved = decision.sketchStatus === 'approved';
  const link = `${settings.baseUrl}/staff/en/orders/${order.code}`;
  const subject = `Order ${order.code}: ${approved ? 'sketch approved' : 'changes asked for the sketch'}`;
  const lines = [
    `${order.customerName} ${approved ? 'approved the sketch of order' : 'asked for changes to the sketch of order'} ${order.code}.`,
    ...(decision.note ? ['', 'Their comment:', decision.note] : []),
    '',
    `The order in the dashboard: ${link}`,
    '',
  ];
  const h = escapeHtml;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${h(subject)}</title></head><body style="font-family:Georgia,serif;color:#2b2620">
${lines
  .filter((line) => line !== '' && !line.startsWith('The order in'))
  .map((line) => `<p>${h(line)}</p>`)
  .join('\n')}
<p><a href="${h(link)}">Open order ${h(order.code)} in the dashboard</a></p></body></html>
`;
  await mailer.send({ to: settings.studioEmail, subject, text: lines.join('\n'), html });
  return 'sent';
}

/** The outbox event of a notice to the studio about an order's money (a double payment, a dispute). */
export const STUDIO_NOTICE_EVENT = 'shop/studio.notice';

/** What the outbox carries for a studio notice: written when the thing happened, in English (the studio's own mail). */
export const StudioNoticePayload = z.object({ orderId: z.int(), code: z.string(), subject: z.string(), lines: z.array(z.string()) });
export type StudioNoticePayload = z.output<typeof StudioNoticePayload>;

/** Sends a studio notice to `SHOP_EMAIL`, with a link to the order in the dashboard. */
export async function sendStudioNotice(mailer: Mailer | null, rawPayload: unknown, settings: OrderMailSettings & { studioEmail: string }): Promise<'sent' | 'mail off'> {
  const payload = StudioNoticePayload.parse(rawPayload);
  if (!mailer) {
    logger.warn('mail is off (SMTP_URL unset): the studio is not e-mailed "%s"', payload.subject);
    return 'mail off';
  }
  const link = `${settings.baseUrl}/staff/en/orders/${payload.code}`;
  const h = escapeHtml;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${h(payload.subject)}</title></head><body style="font-family:Georgia,serif;color:#2b2620">
${payload.lines.map((line) => `<p>${h(line)}</p>`).join('\n')}
<p><a href="${h(link)}">Open order ${h(payload.code)} in the dashboard</a></p></body></html>
`;
  await mailer.send({ to: settings.studioEmail, subject: payload.subject, text: [...payload.lines, '', `The order in the dashboard: ${link}`, ''].join('\n'), html });
  return 'sent';
}
