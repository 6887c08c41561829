import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { normalizeOrderCode, type OrderKind, type OrderStatus } from '@/shared/orders';

/**
 * "My orders": which orders belong to an account (decisions.md "An account that remembers"). One
 * rule, for the list and for the order page that opens without asking for the e-mail: the orders
 * placed while signed in to the account (`orders.user_id`), and the orders whose customer e-mail is
 * the account's e-mail once Google has verified it (any letter case), which covers the orders
 * placed signed out before the account existed. An unverified e-mail proves nothing, so it owns
 * nothing. Knows nothing of HTTP.
 */

/** The newest this many: a list a customer reads, not an export (the OpenAPI description says so). */
export const MAX_ACCOUNT_ORDERS = 200;

export interface AccountOrder {
  code: string;
  kind: OrderKind;
  status: OrderStatus;
  total: number;
  createdAt: string;
  artworkSlug: string | null;
  checkout: string | null;
}

/**
 * The condition "order `o` belongs to the account `userId`", in SQL: the e-mail is compared as
 * lower(customer_email), which the expression index orders_customer_email_lower_idx serves (an
 * ILIKE would also read `_` and `%` in an address as wildcards).
 */
const ownedBy = (userId: string) => Prisma.sql`(
  o.user_id = ${userId}
  OR lower(o.customer_email) = (SELECT lower(u.email) FROM users u WHERE u.id = ${userId} AND u.email_verified IS NOT NULL)
)`;

/** The account's orders, newest first, at most MAX_ACCOUNT_ORDERS of them. */
export async function ordersOfAccount(db: Db, userId: string): Promise<{ orders: AccountOrder[] }> {
  const rows = await db.$queryRaw<
    { code: string; kind: OrderKind; status: OrderStatus; totalCents: number; createdAt: Date; artworkSlug: string | null; checkout: string | null }[]
  >`
    SELECT o.code, o.kind::text AS kind, o.status::text AS status, o.total_cents AS "totalCents", o.created_at AS "createdAt", o.artwork_slug AS "artworkSlug",
           c.code AS checkout
      FROM orders o LEFT JOIN checkouts c ON c.id = o.checkout_id
     WHERE ${ownedBy(userId)}
     ORDER BY o.created_at DESC, o.id DESC
     LIMIT ${MAX_ACCOUNT_ORDERS}`;
  return {
    orders: rows.map((row) => ({
      code: row.code,
      kind: row.kind,
      status: row.status,
      total: row.totalCents,
      createdAt: row.createdAt.toISOString(),
      artworkSlug: row.artworkSlug,
      checkout: row.checkout,
    })),
  };
}

/**
 * The customer e-mail of the order `code` when it belongs to the account `userId`, else null: the
 * order page hands it to the lookup itself instead of asking the owner for it.
 */
export async function ownedOrderEmail(db: Db, userId: string, code: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ email: string }[]>`
    SELECT o.customer_email AS email FROM orders o WHERE o.code = ${normalizeOrderCode(code)} AND ${ownedBy(userId)}`;
  return rows[0]?.email ?? null;
}

/** Whether the order `code` belongs to the account `userId` (signed out: `null`, never). */
export async function accountOwnsOrder(db: Db, userId: string | null, code: string): Promise<boolean> {
  return userId !== null && (await ownedOrderEmail(db, userId, code)) !== null;
}

/**
 * The customer e-mail of the basket `code` when one of its orders belongs to the account `userId`,
 * else null: the basket's page hands it to the lookup instead of asking its owner for it.
 */
export async function ownedBasketEmail(db: Db, userId: string, code: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ email: string }[]>`
    SELECT c.customer_email AS email FROM checkouts c JOIN orders o ON o.checkout_id = c.id
     WHERE c.code = ${normalizeOrderCode(code)} AND ${ownedBy(userId)} LIMIT 1`;
  return rows[0]?.email ?? null;
}
