import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { StorageFull } from '@/server/errors';
import { logger } from '@/server/logger';

/**
 * The bound on what strangers can make the shop keep (decisions.md "Storage"): the bytes held by
 * uploads no order uses plus the photos of unpaid (`pending`) orders, the customer's and any the
 * studio added. An upload that would take them past `UPLOAD_QUOTA_MB` is refused (503
 * storage_full). Photos of orders past `pending` are the shop's business, bounded by paid work and
 * by retention, and are not counted; staff photos are never refused (they do not come here).
 */

/** UPLOAD_QUOTA_MB counts MiB, as the 20 MB upload limit and IMAGE_CACHE_MB do. */
export const quotaBytes = (megabytes: number) => megabytes * 1024 * 1024;

/**
 * The Retry-After of a refusal. Room comes back when the retention run deletes uploads no order
 * took (24 hours after each was made; the run is daily on Inngest, every six hours in the worker)
 * or when an unpaid order is paid or cancelled: neither at a moment the shop can name. An hour is
 * the retention's own unit (an unused upload expires in its 25th hour), short enough that a
 * customer tries again the same day and long enough that a script obeying it does not hammer a
 * full shop.
 */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 3600;

/** Below the quota but this close (9/10 of it), the staff board warns before customers are refused. */
const NEAR_FRACTION = 0.9;

/**
 * The bytes the quota counts, in one aggregate over `uploads.size`. An upload is held for nobody
 * yet unless an order past `pending` uses it, as its customer photo (`orders.upload_id`) or on its
 * timeline (`order_photos.upload_id`); an upload belongs to at most one order (both columns are
 * unique), so "no such order" is exactly "unused, or an unpaid order's".
 *
 * It runs once per customer upload that proved an image (and once per view of the staff board),
 * so it is kept to one pass: `uploads` is read once (narrow rows, uuid and size) against the
 * orders past `pending` (their unique `upload_id`) and the photos of such orders (`order_photos`'
 * primary key, the order by its own), which PostgreSQL answers as hash anti-joins. Measured on this
 * project's 2-core machine (EXPLAIN ANALYZE, PostgreSQL 18): 12-30 ms with 20,000 uploads and
 * 10,000 orders, years of a busy studio; 150-250 ms at ten times that, still little beside the
 * seconds a photo takes to arrive. What grows the table is the customer photos of past orders
 * (their rows stay as the order's record after the files go); should they reach millions, a running
 * total kept where uploads are made, taken by an order and deleted would replace this pass.
 */
export async function heldUploadBytes(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ held: number }[]>(Prisma.sql`
    SELECT COALESCE(sum(u.size), 0)::float8 AS held
      FROM uploads u
     WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.upload_id = u.id AND o.status <> 'pending')
       AND NOT EXISTS (SELECT 1 FROM order_photos p JOIN orders o ON o.id = p.order_id WHERE p.upload_id = u.id AND o.status <> 'pending')`);
  return row?.held ?? 0;
}

export interface StorageUse {
  heldBytes: number;
  quotaBytes: number;
  /** Uploads are refused now: what is held is past the quota. */
  full: boolean;
  /** At 9/10 of the quota or more, but not past it. */
  near: boolean;
}

/** How full the counted storage is, for the staff board. */
export async function storageUse(db: Db, quota: number): Promise<StorageUse> {
  const heldBytes = await heldUploadBytes(db);
  const full = heldBytes > quota;
  return { heldBytes, quotaBytes: quota, full, near: !full && heldBytes >= quota * NEAR_FRACTION };
}

/**
 * Refuses an upload of `incoming` bytes that would take the held bytes past `quota` (a bound: the
 * photo that would cross it is refused too), with StorageFull and one warning line. Called before
 * anything of the photo is stored. Two uploads checked at the same moment may both pass and end a
 * few MB past the quota (at most the uploads in flight, 20 MB each); locking every upload against
 * every other for that would cost more than the overshoot.
 */
export async function ensureRoomFor(db: Db, quota: number, incoming: number): Promise<void> {
  const held = await heldUploadBytes(db);
  if (held + incoming <= quota) return;
  logger.warn({ heldBytes: held, incomingBytes: incoming, quotaBytes: quota }, 'upload refused: photo storage is full (UPLOAD_QUOTA_MB)');
  throw new StorageFull(STORAGE_FULL_RETRY_AFTER_SECONDS, 'The shop cannot take more photos just now: its photo storage is full. Nothing was stored; please try again later.');
}
