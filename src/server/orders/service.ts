import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db, Tx } from '@/server/db/client';
import { invalidInput, notFound } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import type { PaymentAsked, PaymentProvider } from '@/server/payments/provider';
import { recordSession } from '@/server/payments/sessions';
import { paymentIncludes, paymentSummary } from '@/server/payments/summary';
import { orientationOf, type Orientation } from '@/shared/canvas';
import { trackingUrl } from '@/shared/carriers';
import { deliveryTable, deliveryWindow } from '@/shared/delivery';
import type { CreateOrder, OrderCreated, OrderView } from '@/shared/order-schema';
import { normalizeOrderCode } from '@/shared/orders';
import { unpaidPayBy, type PaymentOptions } from '@/shared/payment';
import { priceOf, prices } from '@/shared/prices';
import { newOrderCode } from './code';
import { photoView, type PhotoAddresses } from './photos';
import { photoFields } from './staff';

const CODE_ATTEMPTS = 5;
/**
 * Under load a new order waits for a pooled connection (10 per instance) behind other requests;
 * Prisma's default of 2 s for that turned a busy minute into 500s for orders that would have
 * committed a moment later (the load run, docs/reliability/). Waiting is the point, as for status changes.
 */
const takingOrders = { maxWait: 20_000, timeout: 30_000 } as const;

/**
 * Takes an order: the server alone prices it, and the order, its first event and the outbox event
 * for the confirmation e-mail commit together or not at all. The payment is opened after commit;
 * when that fails the order stays (pending, like an order taken with no provider) and checkoutUrl
 * is null: an error here would invite the client to post the order again (docs/decisions.md).
 * An order a partner's server places records the partner (`placedBy.partnerKeyId`), for the studio
 * to see; one placed signed in to an account records the account (`placedBy.userId`: "My orders").
 */
export async function createOrder(db: Db, input: CreateOrder, payments?: PaymentProvider, placedBy?: PlacedBy): Promise<OrderCreated> {
  const checked = await checkOrder(db, input);
  const { id, code } = await withFreshCode((code) =>
    db.$transaction(async (tx) => {
      const order = await insertOrder(tx, input, checked, code, placedBy);
      await enqueue(tx, 'shop/order.received', { orderId: order.id, code });
      return order;
    }, takingOrders),
  );
  const checkoutUrl = payments
    ? await openCheckout(
        db,
        payments,
        { code, of: 'order', lines: [{ name: checked.line, amountCents: checked.totalCents }], locale: input.locale, email: input.customer.email },
        [{ orderId: id, amountCents: checked.totalCents }],
      )
    : null;
  return { code, total: checked.totalCents, checkoutUrl };
}

/** Who placed an order besides its customer: a partner's key, an account signed in, a basket it is part of. */
export interface PlacedBy {
  partnerKeyId?: string;
  userId?: string;
}

/** An order checked and priced, before it is taken. */
export interface CheckedOrder {
  totalCents: number;
  artworkId?: number;
  orientation: Orientation;
  /** How the payment's line names it: work, size, frame. */
  line: string;
}

/** Prices an order (the server's own table) and checks what it names (checkOrderSubject). */
export async function checkOrder(db: Db, input: CreateOrder): Promise<CheckedOrder> {
  return { totalCents: priceOf(input), ...(await describeAndCheck(db, input)) };
}

/**
 * Runs `take` with a fresh code until one is free. A code is an order's or a basket's, never both:
 * `take` refuses one the other table holds (`codeTaken`), and a unique violation of its own table
 * (two equal codes in one instant) tries again.
 */
export async function withFreshCode<T>(take: (code: string) => Promise<T>): Promise<T & { code: string }> {
  for (let attempt = 1; ; attempt++) {
    const code = newOrderCode();
    try {
      return { ...(await take(code)), code };
    } catch (error) {
      if ((error instanceof CodeTaken || isUniqueViolation(error, 'code')) && attempt < CODE_ATTEMPTS) continue;
      if (isUniqueViolation(error, 'upload_id')) throw invalidInput('This photo is already part of another order: upload it again for a new order.');
      throw error;
    }
  }
}

/** A fresh code some basket or order holds already: `withFreshCode` draws another. */
export class CodeTaken extends Error {}

/**
 * Creates a checked order with its first event (and a custom painting's photo as the first entry
 * on its timeline), in the caller's transaction. Its code must be no basket's.
 */
export async function insertOrder(tx: Tx, input: CreateOrder, checked: CheckedOrder, code: string, placedBy?: PlacedBy & { checkoutId?: number }): Promise<{ id: number }> {
  if (await tx.checkout.findUnique({ where: { code }, select: { id: true } })) throw new CodeTaken();
  const order = await tx.order.create({
    data: {
      code,
      kind: input.kind,
      size: input.size,
      frame: input.frame,
      locale: input.locale,
      notes: input.notes ?? null,
      partnerKeyId: placedBy?.partnerKeyId ?? null,
      userId: placedBy?.userId ?? null,
      checkoutId: placedBy?.checkoutId ?? null,
      orientation: input.orientation ?? checked.orientation,
      showcaseConsent: input.showcaseConsent,
      totalCents: checked.totalCents,
      customerName: input.customer.name,
      customerEmail: input.customer.email,
      customerPhone: input.customer.phone ?? null,
      address: input.customer.address,
      city: input.customer.city,
      postalCode: input.customer.postalCode,
      country: input.customer.country,
      ...(input.kind === 'reproduction'
        ? { artworkSlug: input.artworkSlug, artworkId: checked.artworkId, fit: input.fit }
        : { uploadId: input.uploadId, style: input.style, subjects: input.subjects }),
      events: { create: { status: 'pending', actor: 'customer' } },
    },
    select: { id: true },
  });
  // The customer's own photo opens the order's timeline (and is used up: one photo, one order).
  if (input.kind === 'custom') await tx.orderPhoto.create({ data: { uploadId: input.uploadId, orderId: order.id, kind: 'customer' } });
  return order;
}

/**
 * Opens the payment of what was just taken (an order, or a basket's orders) and keeps its session,
 * a row per order. A failure leaves the orders pending, payable later: it is logged, not thrown.
 */
export async function openCheckout(db: Db, payments: PaymentProvider, payment: PaymentAsked, shares: { orderId: number; amountCents: number }[]): Promise<string | null> {
  try {
    const session = await payments.open(payment);
    await recordSession(db, session.id, shares);
    return session.url;
  } catch (error) {
    logger.error({ reference: payment.code, err: error }, 'order taken, but its checkout could not be opened');
    return null;
  }
}

/**
 * Checks what the order names and reads what it is made from: the artwork (a reproduction hangs
 * the way its artwork does) or the photo (a custom painting hangs the way its photo does, as
 * measured at upload). A photo already on an order, the customer's or the studio's, is used up.
 */
async function describeAndCheck(db: Db, input: CreateOrder): Promise<Omit<CheckedOrder, 'totalCents'>> {
  if (input.kind === 'reproduction') {
    const artwork = await db.artwork.findFirst({
      where: { slug: input.artworkSlug, status: 'published' },
      select: { id: true, widthCm: true, heightCm: true, texts: { where: { locale: 'en' }, select: { title: true } } },
    });
    if (!artwork) throw invalidInput(`No artwork in the catalog has the slug "${input.artworkSlug}".`, [{ path: 'artworkSlug', message: 'unknown artwork' }]);
    return {
      artworkId: artwork.id,
      orientation: orientationOf(artwork.widthCm?.toNumber(), artwork.heightCm?.toNumber()),
      line: `${artwork.texts[0]?.title ?? input.artworkSlug}, ${input.size} cm, ${input.frame}`,
    };
  }
  const upload = await db.upload.findUnique({ where: { id: input.uploadId }, select: { width: true, height: true, photo: { select: { orderId: true } } } });
  if (!upload) throw invalidInput('No uploaded photo has this uploadId: upload the photo first.', [{ path: 'uploadId', message: 'unknown upload' }]);
  if (upload.photo) throw invalidInput('This photo is already part of another order: upload it again for a new order.', [{ path: 'uploadId', message: 'already used' }]);
  return {
    orientation: orientationOf(upload.width, upload.height),
    line: `Custom painting (${input.style}, ${input.subjects} subject${input.subjects > 1 ? 's' : ''}), ${input.size} cm, ${input.frame}`,
  };
}

/** Whether a typed e-mail is the order's: trimmed, any letter case. */
export const sameEmail = (stored: string, typed: string) => stored.trim().toLowerCase() === typed.trim().toLowerCase();

export const noMatchingOrder = () => notFound('No order matches this code and e-mail address.');

/** What the customer's view of an order needs from the shop's configuration. */
export interface OrderViewSettings {
  photos: PhotoAddresses;
  payment: PaymentOptions;
}

/**
 * The order as its customer may see it, with its photos at addresses signed for them, how to pay
 * while it is pending, and when it should arrive. A wrong e-mail answers exactly like an unknown
 * code, after the same single query, so the lookup tells a guesser nothing.
 */
export async function lookupOrder(db: Db, typedCode: string, typedEmail: string, settings: OrderViewSettings, now: Date = new Date()): Promise<OrderView> {
  const order = await db.order.findUnique({
    where: { code: normalizeOrderCode(typedCode) },
    include: {
      events: { orderBy: { id: 'asc' }, select: { status: true, note: true, at: true, sketchStatus: true, actor: true, photo: photoFields } },
      photos: { orderBy: [{ createdAt: 'asc' }, { uploadId: 'asc' }], ...photoFields },
      checkout: { select: { code: true } },
      ...paymentIncludes,
    },
  });
  if (!order || !sameEmail(order.customerEmail, typedEmail)) throw noMatchingOrder();
  const money = paymentSummary(order);
  const pending = order.status === 'pending';
  const url = (id: string) => settings.photos.url(order.code, id, now);
  // The estimate counts from when the order reached its current step; a pending order as if paid today.
  const reached = order.status === 'pending' ? now : (order.events.find((e) => e.status === order.status)?.at ?? now);
  // Each request for changes is one sketch more, which moves the estimate by the sketch's days.
  const sketchRevisions = order.events.filter((e) => e.sketchStatus === 'changes_requested').length;
  return {
    code: order.code,
    kind: order.kind,
    status: order.status,
    artworkSlug: order.artworkSlug,
    size: order.size as OrderView['size'],
    frame: order.frame as OrderView['frame'],
    orientation: order.orientation,
    fit: order.fit,
    style: order.style as OrderView['style'],
    subjects: order.subjects,
    notes: order.notes,
    showcaseConsent: order.showcaseConsent,
    delivery: {
      name: order.customerName,
      street: order.address,
      postalCode: order.postalCode,
      city: order.city,
      country: order.country,
    },
    total: order.totalCents,
    createdAt: order.createdAt.toISOString(),
    trackingNumber: order.trackingNumber,
    carrier: order.carrier as OrderView['carrier'],
    trackingUrl: trackingUrl(order.carrier as OrderView['carrier'], order.trackingNumber),
    sketchStatus: order.sketchStatus,
    checkout: order.checkout?.code ?? null,
    estimatedDelivery: deliveryWindow({ kind: order.kind, size: order.size as OrderView['size'], sketchRevisions }, reached, order.status),
    payment: {
      state: money.state,
      paid: money.paid,
      refunded: money.refunded,
      disputed: money.disputed,
      // A new payment is offered only while nothing is paid or on its way.
      online: pending && money.state === 'unpaid' && settings.payment.online,
      instructions: pending && money.state === 'unpaid' ? settings.payment.instructions : null,
      bankTransfer: pending && money.state === 'unpaid' ? settings.payment.bankTransfer : null,
      payBy: pending && money.state === 'unpaid' ? unpaidPayBy(order, settings.payment.unpaid).toISOString().slice(0, 10) : null,
      refunds: money.refunds.map(({ amount, at }) => ({ amount, at })),
    },
    photos: order.photos.map((photo) => photoView(photo, url)),
    events: order.events.map((event) => ({
      status: event.status,
      note: event.note,
      at: event.at.toISOString(),
      photo: event.photo ? photoView(event.photo, url) : null,
      sketchStatus: event.sketchStatus,
      actor: event.actor,
    })),
  };
}

export function priceTable() {
  return {
    currency: 'usd' as const,
    reproduction: prices.reproduction,
    custom: prices.custom,
    shippingIncluded: true as const,
    delivery: deliveryTable,
  };
}

function isUniqueViolation(error: unknown, column: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return false;
  const target = JSON.stringify(error.meta ?? {});
  return target.includes(column) || target.includes(column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()));
}
