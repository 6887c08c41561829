import 'server-only';
import type { Order, Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { STAFF_PAGE_SIZE, type StaffOrder, type StaffOrderDetail } from '@/shared/order-schema';
import type { OrderStatus } from '@/shared/orders';
import { paymentIncludes, paymentSummary } from '@/server/payments/summary';
import { photoView, staffPhotoUrl } from './photos';

/** The newest event of each order, for `customerAnswered`, and its money. */
export const lastEvent = { events: { orderBy: { id: 'desc' }, take: 1, select: { actor: true } }, ...paymentIncludes } satisfies Prisma.OrderInclude;

type PaymentRows = Prisma.OrderGetPayload<{ include: typeof paymentIncludes }>;

/**
 * Whether the customer's sketch decision waits for the studio: the order is still in `sketching`,
 * the customer has decided, and nobody has done anything with the order since.
 */
export function customerAnswered(order: Pick<Order, 'status' | 'sketchStatus'>, newest: { actor: string } | undefined): boolean {
  return order.status === 'sketching' && (order.sketchStatus === 'approved' || order.sketchStatus === 'changes_requested') && newest?.actor === 'customer';
}

/** An order as staff see it: everything the customer entered, the photo's id, and the totals. */
export function toStaffOrder(order: PaymentRows & { events: { actor: string }[] }): StaffOrder {
  return {
    code: order.code,
    kind: order.kind,
    status: order.status,
    locale: order.locale,
    artworkSlug: order.artworkSlug,
    uploadId: order.uploadId,
    style: order.style as StaffOrder['style'],
    subjects: order.subjects,
    size: order.size as StaffOrder['size'],
    orientation: order.orientation,
    fit: order.fit,
    showcaseConsent: order.showcaseConsent,
    frame: order.frame as StaffOrder['frame'],
    notes: order.notes,
    total: order.totalCents,
    trackingNumber: order.trackingNumber,
    carrier: order.carrier as StaffOrder['carrier'],
    sketchStatus: order.sketchStatus,
    customerAnswered: customerAnswered(order, order.events.at(-1)),
    payment: paymentSummary(order),
    customer: {
      name: order.customerName,
      email: order.customerEmail,
      phone: order.customerPhone,
      address: order.address,
      city: order.city,
      postalCode: order.postalCode,
      country: order.country,
    },
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
  };
}

/** `GET /v1/admin/orders`: newest first, 48 a page, optionally one status only. */
export async function listOrders(db: Db, query: { status?: OrderStatus; page: number }) {
  const where = query.status ? { status: query.status } : {};
  const [rows, total] = await Promise.all([
    db.order.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * STAFF_PAGE_SIZE,
      take: STAFF_PAGE_SIZE,
      include: lastEvent,
    }),
    db.order.count({ where }),
  ]);
  return { items: rows.map(toStaffOrder), total, page: query.page, pageSize: STAFF_PAGE_SIZE };
}

/**
 * The columns `photoView` reads, for an order's photos and its events' photos (here rather than in
 * photos.ts, which imports status.ts, which imports this file: a value there would not be defined yet).
 */
export const photoFields = { select: { uploadId: true, kind: true, createdAt: true } } satisfies Prisma.OrderPhotoDefaultArgs;

/** What a staff view of one order reads: its whole history with photos, and its photos. */
export const staffDetailIncludes = {
  events: { orderBy: { id: 'asc' }, include: { photo: photoFields } },
  photos: { orderBy: [{ createdAt: 'asc' }, { uploadId: 'asc' }], select: { ...photoFields.select, showcasedAt: true } },
  ...paymentIncludes,
} satisfies Prisma.OrderInclude;

type DetailRow = PaymentRows & {
  events: {
    status: OrderStatus;
    note: string | null;
    at: Date;
    actor: StaffOrderDetail['events'][number]['actor'];
    sketchStatus: StaffOrder['sketchStatus'];
    photo: Parameters<typeof photoView>[0] | null;
  }[];
  photos: (Parameters<typeof photoView>[0] & { showcasedAt: Date | null })[];
};

/** One order with its history and photos as staff see it; `url` gives a photo's staff address. */
export function toStaffOrderDetail(order: DetailRow, url: (id: string) => string = staffPhotoUrl): StaffOrderDetail {
  return {
    ...toStaffOrder(order),
    photos: order.photos.map((photo) => ({ ...photoView(photo, url), showcasedAt: photo.showcasedAt?.toISOString() ?? null })),
    events: order.events.map((event) => ({
      status: event.status,
      note: event.note,
      at: event.at.toISOString(),
      actor: event.actor,
      photo: event.photo ? photoView(event.photo, url) : null,
      sketchStatus: event.sketchStatus,
    })),
  };
}

export async function staffOrderDetail(db: Db, id: number): Promise<StaffOrderDetail> {
  return toStaffOrderDetail(await db.order.findUniqueOrThrow({ where: { id }, include: staffDetailIncludes }));
}
