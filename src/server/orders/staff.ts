import type { Order } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { STAFF_PAGE_SIZE, type OrderStatus, type StaffOrder, type StaffOrderDetail } from './schema';

/** An order as staff see it: everything the customer entered, the photo's id, and the totals. */
export function toStaffOrder(order: Order): StaffOrder {
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
    frame: order.frame as StaffOrder['frame'],
    notes: order.notes,
    total: order.totalCents,
    trackingNumber: order.trackingNumber,
    sketchStatus: order.sketchStatus,
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
    }),
    db.order.count({ where }),
  ]);
  return { items: rows.map(toStaffOrder), total, page: query.page, pageSize: STAFF_PAGE_SIZE };
}

export async function staffOrderDetail(db: Db, id: number): Promise<StaffOrderDetail> {
  const order = await db.order.findUniqueOrThrow({ where: { id }, include: { events: { orderBy: { id: 'asc' } } } });
  return {
    ...toStaffOrder(order),
    events: order.events.map((event) => ({ status: event.status, note: event.note, at: event.at.toISOString(), actor: event.actor })),
  };
}
