import 'server-only';
import type { Db } from '@/server/db/client';
import { DomainError, notFound } from '@/server/errors';
import { photoView, staffPhotoUrl } from '@/server/orders/photos';
import { lockingTransaction, lockOrder } from '@/server/orders/lock';
import { UploadId } from '@/server/uploads/schema';
import type { Size } from '@/shared/canvas';
import { normalizeOrderCode, type OrderKind, type Style } from '@/shared/orders';
import { SHOWCASE_LIMIT, showcaseImagePath, type Showcase, type StaffShowcasePhoto } from './schema';

/**
 * The gallery of finished paintings (issue #15, "Proof of our work"). Staff show a `finished` photo
 * of an order whose customer allowed it, and can take it down again; the public reads only photos
 * shown now. Every public read checks all three facts (shown, finished, consent), so a photo that
 * stops meeting one of them disappears from the gallery and its image route at once.
 */

/** Refusals of a showing: the request is well formed, but this photo or order may not be shown (409). */
const refused = (message: string, path: string, why: string) => new DomainError('invalid_transition', message, [{ path, message: why }]);

/**
 * Shows a photo in the gallery, or takes it down. Under the order's row lock: an unknown order, or
 * a photo that is not this order's, is 404. Showing needs a `finished` photo (409 otherwise), an
 * order whose customer allowed it (409), and a photo the server could read (measured at upload:
 * a HEIC it cannot draw would be a broken image, 409). Showing an already shown photo keeps its
 * date (its place in the gallery); taking down is always allowed and idempotent. No order event:
 * the customer's timeline is about their order, and an event would reset the dashboard's
 * "customer answered" mark and the order page's version.
 */
export async function setShowcased(db: Db, input: { code: string; id: string; showcased: boolean }, now: Date = new Date()): Promise<StaffShowcasePhoto> {
  const code = normalizeOrderCode(input.code);
  const gone = () => notFound('This order has no photo with this id.');
  if (!UploadId.safeParse(input.id).success) throw gone();
  return db.$transaction(async (tx) => {
    const order = await lockOrder(tx, code);
    if (!order) throw notFound('No order has this code.');
    const photo = await tx.orderPhoto.findFirst({
      where: { uploadId: input.id, orderId: order.id },
      select: { uploadId: true, kind: true, createdAt: true, showcasedAt: true, upload: { select: { width: true } }, order: { select: { showcaseConsent: true } } },
    });
    if (!photo) throw gone();
    let showcasedAt: Date | null = null;
    if (input.showcased) {
      if (photo.kind !== 'finished') throw refused('Only a finished photo of the painting can be shown in the gallery.', 'kind', `the photo is ${photo.kind}`);
      if (!photo.order.showcaseConsent) throw refused('The customer did not allow the studio to show this painting.', 'showcaseConsent', 'no consent on this order');
      if (photo.upload.width === null)
        throw refused('This photo cannot be drawn for the website (HEIC or unreadable): add it again as JPEG, PNG or WebP.', 'format', 'not readable');
      showcasedAt = photo.showcasedAt ?? now;
    }
    if ((photo.showcasedAt?.getTime() ?? null) !== (showcasedAt?.getTime() ?? null)) {
      await tx.orderPhoto.update({ where: { uploadId: photo.uploadId }, data: { showcasedAt } });
    }
    return { ...photoView(photo, staffPhotoUrl), showcasedAt: showcasedAt?.toISOString() ?? null };
  }, lockingTransaction);
}

/** What makes a photo public now: shown, finished, and its order's customer allowed it. */
const shownNow = { showcasedAt: { not: null }, kind: 'finished', order: { showcaseConsent: true } } as const;

/** The gallery in `locale`: newest shown first, at most SHOWCASE_LIMIT, with no customer's photo or name. */
export async function showcase(db: Db, locale: string): Promise<Showcase> {
  const rows = await db.orderPhoto.findMany({
    where: shownNow,
    orderBy: [{ showcasedAt: 'desc' }, { uploadId: 'asc' }],
    take: SHOWCASE_LIMIT,
    select: {
      uploadId: true,
      showcasedAt: true,
      order: {
        select: {
          kind: true,
          style: true,
          size: true,
          orientation: true,
          artwork: {
            select: {
              slug: true,
              status: true,
              texts: { where: { locale: { in: [locale, 'en'] } }, select: { locale: true, title: true } },
              artist: { select: { status: true, texts: { where: { locale: { in: [locale, 'en'] } }, select: { locale: true, name: true } } } },
            },
          },
        },
      },
    },
  });
  const inLocale = <T extends { locale: string }>(texts: T[], pick: (t: T) => string | null) =>
    texts.map((t) => (t.locale === locale ? pick(t) : null)).find(Boolean) ?? texts.map((t) => (t.locale === 'en' ? pick(t) : null)).find(Boolean) ?? null;
  return {
    items: rows.map(({ uploadId, showcasedAt, order }) => {
      const artwork = order.kind === 'reproduction' && order.artwork?.status === 'published' ? order.artwork : null;
      return {
        id: uploadId,
        kind: order.kind as OrderKind,
        style: order.kind === 'custom' ? (order.style as Style) : null,
        size: order.size as Size,
        orientation: order.orientation,
        artworkSlug: artwork?.slug ?? null,
        artworkTitle: artwork ? inLocale(artwork.texts, (t) => t.title) : null,
        artistName: artwork?.artist.status === 'published' ? inLocale(artwork.artist.texts, (t) => t.name) : null,
        url: showcaseImagePath(uploadId),
        at: showcasedAt!.toISOString(),
      };
    }),
  };
}

/** The stored upload of a photo the public may see now; null for anything else (not shown, not finished, no consent, not a photo). */
export async function shownPhoto(db: Db, id: string): Promise<{ id: string; contentType: string; showcasedAt: Date } | null> {
  if (!UploadId.safeParse(id).success) return null;
  const photo = await db.orderPhoto.findFirst({ where: { uploadId: id, ...shownNow }, select: { showcasedAt: true, upload: { select: { contentType: true } } } });
  return photo ? { id, contentType: photo.upload.contentType, showcasedAt: photo.showcasedAt! } : null;
}
