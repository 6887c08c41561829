import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/db/client';
import type { Carrier } from '@/shared/carriers';
import { normalizeOrderCode, type OrderKind, type OrderStatus, type SketchStatus } from '@/shared/orders';

// An order's row lock, which every change to one order takes first (a status move, a payment, a
// refund, a studio photo). A leaf of its own: status.ts answers a change with the staff view
// (staff.ts), which shows photos (photos.ts), which take this lock too.

export interface LockedOrder {
  id: number;
  code: string;
  kind: OrderKind;
  status: OrderStatus;
  sketchStatus: SketchStatus | null;
  trackingNumber: string | null;
  carrier: Carrier | null;
  totalCents: number;
  customerEmail: string;
  locale: string;
  /** Cents received (orders.paid_cents). */
  paidCents: number;
  /** A dispute is open: the order cannot move forward (decisions.md "Payments and refunds"). */
  disputed: boolean;
}

/** Reads the order and holds its row lock until the transaction ends, so changes to one order queue up. */
export async function lockOrder(tx: Tx, typedCode: string): Promise<LockedOrder | null> {
  const rows = await tx.$queryRaw<LockedOrder[]>(Prisma.sql`
    SELECT id, code, kind::text AS kind, status::text AS status, sketch_status::text AS "sketchStatus", tracking_number AS "trackingNumber", carrier,
           total_cents AS "totalCents", customer_email AS "customerEmail", locale, paid_cents AS "paidCents",
           EXISTS (SELECT 1 FROM disputes WHERE disputes.order_id = orders.id AND disputes.state = 'open') AS disputed
    FROM orders WHERE code = ${normalizeOrderCode(typedCode)} FOR UPDATE OF orders`);
  return rows[0] ?? null;
}

/** Waiting for the row lock is the point under load; give it room beyond Prisma's 2 s/5 s defaults. */
export const lockingTransaction = { maxWait: 20_000, timeout: 30_000 } as const;
