import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import type { PhotoStorage } from '@/server/integrations/storage';
import { logger } from '@/server/logger';
import { customerSentence } from '@/server/orders/mail';
import { UNPAID_CANCELLED_RETENTION_DAYS } from '@/shared/payment';
import { UNUSED_UPLOAD_HOURS } from '@/shared/uploads';

/**
 * How long photos are kept (decisions.md "Images and retention"): an upload no order uses is
 * deleted after 24 hours; an order's photos are deleted `retentionDays` after it was delivered or
 * cancelled, except a finished photo the customer allowed to be shown, and the order keeps an event
 * saying so in the customer's language. The stored file goes first and its row after, so a file
 * that cannot be removed now keeps its row and is tried again on the next run.
 */

/** An order cancelled with nothing paid (`o` is the order). */
const unpaidOnly = Prisma.sql`(o.status = 'cancelled' AND o.paid_cents = 0)`;

export interface RetentionResult {
  unusedUploads: number;
  orders: number;
  photos: number;
}

export async function deletePhotosPastRetention(db: Db, storage: PhotoStorage, settings: { retentionDays: number; now?: Date }): Promise<RetentionResult> {
  const now = settings.now ?? new Date();
  const result: RetentionResult = { unusedUploads: 0, orders: 0, photos: 0 };
  const uploadCutoff = new Date(now.getTime() - UNUSED_UPLOAD_HOURS * 3_600_000);
  const unused = await db.$queryRaw<{ id: string }[]>(Prisma.sql`
    SELECT u.id FROM uploads u
     WHERE u.created_at < ${uploadCutoff}
       AND NOT EXISTS (SELECT 1 FROM order_photos p WHERE p.upload_id = u.id)
       AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.upload_id = u.id)`);
  for (const { id } of unused) {
    if (!(await removeFile(storage, id))) continue;
    // Still unused: an order that took it meanwhile keeps it (and its file is then missing, which
    // an order's checks catch as 404 rather than losing the order).
    result.unusedUploads += (await db.upload.deleteMany({ where: { id, photo: null, order: null } })).count;
  }

  const orderCutoff = new Date(now.getTime() - settings.retentionDays * 86_400_000);
  const unpaidCutoff = new Date(now.getTime() - UNPAID_CANCELLED_RETENTION_DAYS * 86_400_000);
  // Orders that ended before the cutoff (their last change to the final status) and still hold a
  // photo they may not keep; an order cancelled with nothing paid keeps its photos a week only.
  const due = await db.$queryRaw<{ orderId: number }[]>(Prisma.sql`
    SELECT DISTINCT o.id AS "orderId"
      FROM orders o JOIN order_photos p ON p.order_id = o.id
     WHERE o.status IN ('delivered', 'cancelled')
       AND (SELECT max(e.at) FROM order_events e WHERE e.order_id = o.id AND e.status = o.status)
           < (CASE WHEN ${unpaidOnly} THEN ${unpaidCutoff}::timestamptz ELSE ${orderCutoff}::timestamptz END)
       AND NOT (p.kind = 'finished' AND o.showcase_consent)`);
  for (const { orderId } of due) {
    // Under the order's row lock: two instances running this at once delete and record once.
    const deleted = await db.$transaction(
      async (tx) => {
        const [order] = await tx.$queryRaw<
          { status: 'delivered' | 'cancelled'; locale: string; code: string; uploadId: string | null; showcaseConsent: boolean; unpaid: boolean }[]
        >(Prisma.sql`
          SELECT status::text AS status, locale, code, upload_id AS "uploadId", showcase_consent AS "showcaseConsent", ${unpaidOnly} AS unpaid
            FROM orders o WHERE id = ${orderId} FOR UPDATE`);
        if (!order) return 0;
        const photos = await tx.orderPhoto.findMany({ where: { orderId, ...(order.showcaseConsent ? { NOT: { kind: 'finished' } } : {}) } });
        let count = 0;
        for (const photo of photos) {
          if (!(await removeFile(storage, photo.uploadId))) continue;
          await tx.orderPhoto.delete({ where: { uploadId: photo.uploadId } });
          // A studio photo's upload goes with it; the customer's stays as the order's record of
          // what was ordered from (type, size and checksum, no picture).
          if (photo.uploadId !== order.uploadId) await tx.upload.delete({ where: { id: photo.uploadId } });
          count++;
        }
        if (count) {
          await tx.orderEvent.create({
            data: {
              orderId,
              status: order.status,
              actor: 'system',
              note: customerSentence(order.locale, 'photosDeleted', { days: order.unpaid ? UNPAID_CANCELLED_RETENTION_DAYS : settings.retentionDays }),
              at: now,
            },
          });
          logger.info({ orderCode: order.code, photos: count }, 'photos deleted after the retention period');
        }
        return count;
      },
      { maxWait: 20_000, timeout: 120_000 },
    );
    if (deleted) {
      result.orders++;
      result.photos += deleted;
    }
  }
  return result;
}

async function removeFile(storage: PhotoStorage, id: string): Promise<boolean> {
  try {
    await storage.remove(id);
    return true;
  } catch (error) {
    logger.warn({ err: error, upload: id }, 'a photo past its retention could not be deleted; tried again on the next run');
    return false;
  }
}
