import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { invalidInput, notFound } from '@/server/errors';
import { enqueue } from '@/server/jobs/outbox';
import { logger } from '@/server/logger';
import type { PaymentProvider } from '@/server/payments/provider';
import { recordSession } from '@/server/payments/sessions';
import { paymentIncludes, paymentSummary } from '@/server/payments/summary';
import { orientationOf, type Orientation } from '@/shared/canvas';
import { deliveryTable, deliveryWindow } from '@/shared/delivery';
import type { CreateOrder, OrderCreated, OrderView } from '@/shared/order-schema';
import { normalizeOrderCode } from '@/shared/orders';
import type { PaymentOptions } from '@/shared/payment';
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
export async function createOrder(db: Db, input: CreateOrder, payments?: PaymentProvider, placedBy?: { partnerKeyId?: string; userId?: string }): Promise<OrderCreated> {
  const totalCents = priceOf(input);
  const description = await describeAndCheck(db, input);

  for (let attempt = 1; ; attempt++) {
    const code = newOrderCode();
    try {
      const orderId = await db.$transaction(async (tx) => {
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
            orientation: input.orientation ?? description.orientation,
            showcaseConsent: input.showcaseConsent,
            totalCents,
            customerName: input.customer.name,
            customerEmail: input.customer.email,
            customerPhone: input.customer.phone ?? null,
            address: input.customer.address,
            city: input.customer.city,
            postalCode: input.customer.postalCode,
            country: input.customer.country,
            ...(input.kind === 'reproduction'
              ? { artworkSlug: input.artworkSlug, artworkId: description.artworkId, fit: input.fit }
              : { uploadId: input.uploadId, style: input.style, subjects: input.subjects }),
            events: { create: { status: 'pending', actor: 'customer' } },
          },
        });
        // The customer's own photo opens the order's timeline (and is used up: one photo, one order).
        if (input.kind === 'custom') await tx.orderPhoto.create({ data: { uploadId: input.uploadId, orderId: order.id, kind: 'customer' } });
        await enqueue(tx, 'shop/order.received', { orderId: order.id, code });
        return order.id;
      }, takingOrders);
      const checkoutUrl = payments
        ? await openCheckout(db, payments, orderId, { code, totalCents, locale: input.locale, email: input.customer.email, description: description.text })
        : null;
      return { code, total: totalCents, checkoutUrl };
    } catch (error) {
      if (isUniqueViolation(error, 'code') && attempt < CODE_ATTEMPTS) continue;
      if (isUniqueViolation(error, 'upload_id')) throw invalidInput('This photo is already part of another order: upload it again for a new order.');
      throw error;
    }
  }
}

async function openCheckout(db: Db, payments: PaymentProvider, orderId: number, order: Parameters<PaymentProvider['open']>[0]): Promise<string | null> {
  try {
    const session = await payments.open(order);
    await recordSession(db, { id: session.id, orderId, amountCents: order.totalCents });
    return session.url;
  } catch (error) {
    logger.error({ orderCode: order.code, err: error }, 'order taken, but its checkout could not be opened');
    return null;
  }
}

/**
 * Checks what the order names and reads what it is made from: the artwork (a reproduction hangs
 * the way its artwork does) or the photo (a custom painting hangs the way its photo does, as
 * measured at upload). A photo already on an order, the customer's or the studio's, is used up.
 */
async function describeAndCheck(db: Db, input: CreateOrder): Promise<{ text: string; artworkId?: number; orientation: Orientation }> {
  if (input.kind === 'reproduction') {
    const artwork = await db.artwork.findFirst({
      where: { slug: input.artworkSlug, status: 'published' },
      select: { id: true, widthCm: true, heightCm: true, texts: { where: { locale: 'en' }, select: { title: true } } },
    });
    if (!artwork) throw invalidInput(`No artwork in the catalog has the slug "${input.artworkSlug}".`, [{ path: 'artworkSlug', message: 'unknown artwork' }]);
    return {
      artworkId: artwork.id,
      orientation: orientationOf(artwork.widthCm?.toNumber(), artwork.heightCm?.toNumber()),
      text: `${artwork.texts[0]?.title ?? input.artworkSlug}, ${input.size} cm, ${input.frame}`,
    };
  }
  const upload = await db.upload.findUnique({ where: { id: input.uploadId }, select: { width: true, height: true, photo: { select: { orderId: true } } } });
  if (!upload) throw invalidInput('No uploaded photo has this uploadId: upload the photo first.', [{ path: 'uploadId', message: 'unknown upload' }]);
  if (upload.photo) throw invalidInput('This photo is already part of another order: upload it again for a new order.', [{ path: 'uploadId', message: 'already used' }]);
  return {
    orientation: orientationOf(upload.width, upload.height),
    text: `Custom painting (${input.style}, ${input.subjects} subject${input.subjects > 1 ? 's' : ''}), ${input.size} cm, ${input.frame}`,
  };
}

/** `12 St James Square` → `12 S• J•••• S•••••`: enough to recognise one's own address, not to learn someone else's. */
export const maskWords = (text: string) => text.replace(/\p{L}+/gu, (word) => word[0] + '•'.repeat(word.length - 1));
/** `SW1Y 4JH` → `SW••••••`. */
export const maskTail = (text: string, keep: number) => text.slice(0, keep) + '•'.repeat(Math.max(0, text.length - keep));

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
      events: { orderBy: { id: 'asc' }, select: { status: true, note: true, at: true, sketchStatus: true, photo: photoFields } },
      photos: { orderBy: [{ createdAt: 'asc' }, { uploadId: 'asc' }], ...photoFields },
      ...paymentIncludes,
    },
  });
  if (!order || !sameEmail(order.customerEmail, typedEmail)) throw noMatchingOrder();
  const money = paymentSummary(order);
  const pending = order.status === 'pending';
  const url = (id: string) => settings.photos.url(order.code, id, now);
  // The estimate counts from when the order reached its current step; a pending order as if paid today.
  const reached = order.status === 'pending' ? now : (order.events.find((e) => e.status === order.status)?.at ?? now);
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
    delivery: {
      name: order.customerName,
      street: maskWords(order.address),
      postalCode: maskTail(order.postalCode, 2),
      city: order.city,
      country: order.country,
    },
    total: order.totalCents,
    createdAt: order.createdAt.toISOString(),
    trackingNumber: order.trackingNumber,
    sketchStatus: order.sketchStatus,
    estimatedDelivery: deliveryWindow({ kind: order.kind, size: order.size as OrderView['size'] }, reached, order.status),
    payment: {
      state: money.state,
      paid: money.paid,
      refunded: money.refunded,
      disputed: money.disputed,
      // A new payment is offered only while nothing is paid or on its way.
      online: pending && money.state === 'unpaid' && settings.payment.online,
      instructions: pending && money.state === 'unpaid' ? settings.payment.instructions : null,
      refunds: money.refunds.map(({ amount, at }) => ({ amount, at })),
    },
    photos: order.photos.map((photo) => photoView(photo, url)),
    events: order.events.map((event) => ({
      status: event.status,
      note: event.note,
      at: event.at.toISOString(),
      photo: event.photo ? photoView(event.photo, url) : null,
      sketchStatus: event.sketchStatus,
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
