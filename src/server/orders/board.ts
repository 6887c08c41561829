import 'server-only';
import { z } from 'zod';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { DomainError, notFound } from '@/server/errors';
import { locales } from '@/shared/locales';
import { StaffOrder, StaffOrderDetail, StatusChange } from '@/shared/order-schema';
import { allowedMoves, normalizeOrderCode, orderKinds, orderStatuses, type OrderStatus } from '@/shared/orders';
import { lastEvent, staffDetailIncludes, toStaffOrder, toStaffOrderDetail } from './staff';
import { lockingTransaction, lockOrder } from './lock';
import { applyTransition } from './status';

/**
 * The staff dashboard's view of orders (docs/architecture.md "Staff dashboard"): the orders board
 * (counts per status, search, pages) and one order with what may happen to it next. The /v1 list
 * (`staff.ts`) stays as its contract pins it; these add what a person at a screen needs.
 */

export const BOARD_PAGE_SIZE = 25;

export const BoardQuery = z.object({
  status: z.enum(orderStatuses).optional(),
  /** A code (or its start), part of an e-mail address, or part of the customer's name. */
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => (v ? v : undefined)),
  page: z.int().min(1).max(100_000).default(1),
  /** The dashboard's language, for artwork titles. */
  locale: z.enum(locales).default('en'),
});
export type BoardQuery = z.input<typeof BoardQuery>;

/** The partner whose key placed an order (its name as staff gave it), null for the shop's own customers. */
const PlacedBy = z.string().nullable();

/** The basket an order was placed in, on the board: its code and how many orders it holds. */
const BoardBasket = z.object({ code: z.string(), orders: z.int() }).nullable();

export const BoardOrder = StaffOrder.extend({ artworkTitle: z.string().nullable(), partner: PlacedBy, basket: BoardBasket });
export type BoardOrder = z.output<typeof BoardOrder>;

export const Board = z.object({
  /** Orders per status among those the search matches (all orders without a search). */
  counts: z.record(z.enum(orderStatuses), z.int()),
  /** Orders the search matches in every status. */
  all: z.int(),
  items: z.array(BoardOrder),
  /** Orders in the chosen tab (status and search), across pages. */
  total: z.int(),
  page: z.int(),
  pageSize: z.int(),
});
export type Board = z.output<typeof Board>;

/** What typed text finds: a code from its start (typed any case, look-alikes folded), or part of an e-mail or name. */
function searchFilter(q: string | undefined): Prisma.OrderWhereInput {
  if (!q) return {};
  // Typed text is matched as text: `%` and `_` are not wildcards here (nor `\\`, LIKE's escape).
  const text = q.replace(/[\\%_]/g, (c) => `\\${c}`);
  const or: Prisma.OrderWhereInput[] = [{ customerEmail: { contains: text, mode: 'insensitive' } }, { customerName: { contains: text, mode: 'insensitive' } }];
  // A basket's code finds its orders together (the board's basket mark links to that search).
  if (/^[0-9A-Za-z]{1,20}$/.test(q)) or.push({ code: { startsWith: normalizeOrderCode(q) } }, { checkout: { code: normalizeOrderCode(q) } });
  return { OR: or };
}

const withPartner = { partnerKey: { select: { name: true } } } satisfies Prisma.OrderInclude;
const withBasket = { checkout: { select: { code: true, _count: { select: { orders: true } } } } } satisfies Prisma.OrderInclude;

const withTitles = (locale: string) =>
  ({ artwork: { select: { texts: { where: { locale: { in: [locale, 'en'] } }, select: { locale: true, title: true } } } } }) satisfies Prisma.OrderInclude;

type TextRows = { texts: { locale: string; title: string | null }[] } | null;

/** The artwork's title in the dashboard's language, else English; null for custom paintings. */
function titleOf(artwork: TextRows, locale: string): string | null {
  const texts = artwork?.texts ?? [];
  return texts.find((t) => t.locale === locale && t.title)?.title ?? texts.find((t) => t.locale === 'en' && t.title)?.title ?? null;
}

/** The orders board: newest first, BOARD_PAGE_SIZE a page, with the count of every status. */
export async function orderBoard(db: Db, input: BoardQuery, pageSize = BOARD_PAGE_SIZE): Promise<Board> {
  const query = BoardQuery.parse(input);
  const search = searchFilter(query.q);
  const where: Prisma.OrderWhereInput = query.status ? { AND: [search, { status: query.status }] } : search;
  const [grouped, rows, total] = await Promise.all([
    db.order.groupBy({ by: ['status'], where: search, _count: { _all: true } }),
    db.order.findMany({
      where,
      include: { ...withTitles(query.locale), ...lastEvent, ...withPartner, ...withBasket },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (query.page - 1) * pageSize,
      take: pageSize,
    }),
    db.order.count({ where }),
  ]);
  const counts = Object.fromEntries(orderStatuses.map((s) => [s, grouped.find((g) => g.status === s)?._count._all ?? 0])) as Record<OrderStatus, number>;
  return {
    counts,
    all: Object.values(counts).reduce((a, b) => a + b, 0),
    items: rows.map((row) => ({
      ...toStaffOrder(row),
      artworkTitle: titleOf(row.artwork, query.locale),
      partner: row.partnerKey?.name ?? null,
      basket: row.checkout ? { code: row.checkout.code, orders: row.checkout._count.orders } : null,
    })),
    total,
    page: query.page,
    pageSize,
  };
}

/** The basket an order was placed and paid in, on its page: every order of it (this one included), in the items' order. */
export const StaffBasket = z.object({
  code: z.string(),
  total: z.int(),
  notes: z.string().nullable(),
  orders: z.array(
    z.object({ code: z.string(), kind: z.enum(orderKinds), status: z.enum(orderStatuses), total: z.int(), artworkTitle: z.string().nullable(), paid: z.boolean() }),
  ),
});

export const OrderForStaff = StaffOrderDetail.extend({
  artworkTitle: z.string().nullable(),
  partner: PlacedBy,
  basket: StaffBasket.nullable(),
  /** The number of events the order has: what the page saw, sent back with a change to detect another person's change. */
  version: z.int(),
  /** The statuses the server would accept next (the current one, a note only, is always allowed). */
  moves: z.array(z.enum(orderStatuses)),
  photo: z.object({ id: z.string(), contentType: z.string(), size: z.int() }).nullable(),
});
export type OrderForStaff = z.output<typeof OrderForStaff>;

/** One order as the order page shows it, found by its code as the customer types it. */
export async function orderForStaff(db: Db, code: string, locale: string = 'en'): Promise<OrderForStaff> {
  const order = await db.order.findUnique({
    where: { code: normalizeOrderCode(code) },
    include: {
      ...staffDetailIncludes,
      upload: true,
      ...withTitles(locale),
      ...withPartner,
      checkout: {
        select: {
          code: true,
          totalCents: true,
          notes: true,
          orders: { orderBy: { id: 'asc' }, select: { code: true, kind: true, status: true, totalCents: true, paidCents: true, ...withTitles(locale) } },
        },
      },
    },
  });
  if (!order) throw notFound('No order has this code.');
  return {
    // The dashboard reads photos through its own session-checked door.
    ...toStaffOrderDetail(order, dashboardPhotoUrl),
    artworkTitle: titleOf(order.artwork, locale),
    partner: order.partnerKey?.name ?? null,
    basket: order.checkout && {
      code: order.checkout.code,
      total: order.checkout.totalCents,
      notes: order.checkout.notes,
      orders: order.checkout.orders.map((sibling) => ({
        code: sibling.code,
        kind: sibling.kind,
        status: sibling.status,
        total: sibling.totalCents,
        artworkTitle: titleOf(sibling.artwork, locale),
        paid: sibling.paidCents > 0,
      })),
    },
    version: order.events.length,
    // The same rules the change itself applies (planTransition → moveRefusal).
    moves: allowedMoves(order.status),
    photo: order.upload ? { id: order.upload.id, contentType: order.upload.contentType, size: order.upload.size } : null,
  };
}

/** Where the dashboard's pages read a photo (with the staff session cookie). */
export const dashboardPhotoUrl = (id: string) => `/staff/api/photos/${id}`;

/** A change from the order page: the StatusChange body, the order's code, and the version the page showed. */
export const DashboardChange = StatusChange.extend({
  code: z.string().trim().min(1).max(20),
  version: z.int().min(0),
  locale: z.enum(locales).default('en'),
});
export type DashboardChange = z.input<typeof DashboardChange>;

/** The conflict answer's marker, so the page can say "someone else changed it" rather than "not allowed". */
export const STALE_ORDER = 'version';

/**
 * Applies a change made on the order page, unless someone changed the order after the page showed
 * it: under the order's row lock (the same as every change takes) the number of events must still
 * be the one the page saw, otherwise nothing is written and the answer is a conflict. Then it is
 * the very change `POST /v1/admin/orders/{code}/status` makes.
 */
export async function changeOrderFromDashboard(db: Db, input: DashboardChange): Promise<OrderForStaff> {
  const { code, version, locale, ...change } = DashboardChange.parse(input);
  await db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order) throw notFound('No order has this code.');
    const seen = await tx.orderEvent.count({ where: { orderId: order.id } });
    if (seen !== version) {
      throw new DomainError('invalid_transition', 'Someone else changed this order after you opened it; look at it again before changing it.', [
        { path: STALE_ORDER, message: `the order has ${seen} events, the page showed ${version}` },
      ]);
    }
    await applyTransition(tx, order, change, 'staff');
  }, lockingTransaction);
  return orderForStaff(db, code, locale);
}

export const BasketPaid = z.object({
  code: z.string().trim().min(1).max(20),
  note: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => (v ? v : undefined)),
});

/**
 * "Mark the whole basket paid" (a bank transfer of the basket's total, decisions.md "A basket"):
 * every order of the basket still pending and unpaid moves to paid, as a staff status change of
 * each would, in one transaction under each order's lock (in id order, as the webhook takes them);
 * an order cancelled or paid already is left as it is. Nothing to mark: a conflict.
 */
export async function markBasketPaid(db: Db, input: z.input<typeof BasketPaid>): Promise<{ paid: string[] }> {
  const { code, note } = BasketPaid.parse(input);
  return db.$transaction(async (tx) => {
    const basket = await tx.checkout.findUnique({ where: { code: normalizeOrderCode(code) }, select: { orders: { orderBy: { id: 'asc' }, select: { code: true } } } });
    if (!basket) throw notFound('No basket has this code.');
    const paid: string[] = [];
    for (const sibling of basket.orders) {
      const order = await lockOrder(tx, sibling.code);
      if (!order || order.status !== 'pending' || order.paidCents > 0) continue;
      await applyTransition(tx, order, { status: 'paid', note }, 'staff');
      paid.push(order.code);
    }
    if (!paid.length) throw new DomainError('invalid_transition', 'No order of this basket is waiting for payment.');
    return { paid };
  }, lockingTransaction);
}
