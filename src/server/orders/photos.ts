import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { DomainError, invalidInput, invalidTransition, notFound } from '@/server/errors';
import type { PhotoStorage } from '@/server/integrations/storage';
import { enqueue } from '@/server/jobs/outbox';
import { UploadId } from '@/server/uploads/schema';
import { receivePhoto, type IncomingPhoto, type UploadDeps } from '@/server/uploads/service';
import type { OrderPhotoView } from '@/shared/order-schema';
import { normalizeOrderCode, studioPhotoKindsAt, type OrderKind, type OrderStatus, type PhotoKind, type StudioPhotoKind } from '@/shared/orders';
import { lockOrder } from './lock';

/**
 * Photos on an order (decisions.md "Photos on an order"): the customer's own, and the sketch,
 * progress and finished photos the studio adds. They are private. Staff read them with their
 * token or session; the customer reads them through addresses signed for one order and one
 * photo that expire after an hour, so a forwarded or leaked address stops working.
 */

/** Outbox event: a sketch waits for the customer's decision (an e-mail in their language). */
export const SKETCH_READY_EVENT = 'shop/order.sketch-ready';

/** How long a signed photo address works. */
export const PHOTO_URL_LIFETIME_SECONDS = 3600;

/** A photo as the database keeps it, joined to its order. */
export interface PhotoRow {
  uploadId: string;
  kind: PhotoKind;
  createdAt: Date;
}

/** Makes and checks the customer's photo addresses with a key only the shop knows. */
export class PhotoAddresses {
  private readonly key: Buffer;

  /** `secret`: the shop's session secret (shared by every instance); absent, a key of this process only. */
  constructor(secret: string | undefined) {
    this.key = createHmac('sha256', secret ?? processSecret)
      .update('order photo addresses')
      .digest();
  }

  private signature(code: string, id: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${code}\n${id}\n${expires}`).digest();
  }

  /**
   * The address of one photo of one order, good until about an hour from `now`. The expiry is
   * rounded down to the minute, so lookups within a minute give the same address and the browser
   * keeps the image it has.
   */
  url(code: string, id: string, now: Date = new Date()): string {
    const expires = Math.floor((now.getTime() / 1000 + PHOTO_URL_LIFETIME_SECONDS) / 60) * 60;
    return `/v1/orders/${code}/photos/${id}?expires=${expires}&signature=${this.signature(code, id, expires).toString('base64url')}`;
  }

  /** Whether an address's expiry and signature are ours for this order and photo and still good at `now`. */
  verify(code: string, id: string, expires: string | null, signature: string | null, now: Date = new Date()): boolean {
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
    const expiresAt = Number(expires);
    if (expiresAt * 1000 <= now.getTime()) return false;
    // Compared as text, not decoded: the 43rd character carries two unused bits, so decoding would
    // accept four spellings of one signature (a tampered address that still opens the photo).
    const expected = Buffer.from(this.signature(code, id, expiresAt).toString('base64url'));
    return timingSafeEqual(Buffer.from(signature), expected);
  }
}

const processSecret = randomBytes(32).toString('base64url');

let configured: PhotoAddresses | undefined;
/** The addresses signed with the shop's session secret (NEXTAUTH_SECRET, which `npm start` always sets). */
export function configuredPhotoAddresses(): PhotoAddresses {
  return (configured ??= new PhotoAddresses(env().NEXTAUTH_SECRET));
}

/** The photo object of the contract, with the address the asker may read it at. */
export function photoView(photo: PhotoRow, url: (id: string) => string): OrderPhotoView {
  return { id: photo.uploadId, kind: photo.kind, url: url(photo.uploadId), at: photo.createdAt.toISOString() };
}

/** Staff read every photo through the staff upload read (token or dashboard session). */
export const staffPhotoUrl = (id: string) => `/v1/admin/uploads/${id}`;

/** What a studio photo is, where it goes and what the studio says with it. */
export interface StudioPhoto {
  code: string;
  kind: StudioPhotoKind;
  note?: string;
}

const notOnReproductions = () =>
  invalidInput('A reproduction has no sketch to show: add progress or finished photos to it.', [{ path: 'kind', message: 'sketch only on custom orders' }]);

/** Why the studio may not add this photo at the order's step (`studioPhotoKindsAt`), or null when it may. */
function photoOutOfStep(photo: StudioPhotoKind, order: { kind: OrderKind; status: OrderStatus }): DomainError | null {
  if (studioPhotoKindsAt(order.kind, order.status).includes(photo)) return null;
  if (photo === 'sketch') {
    return invalidTransition(`A sketch is shown while the order is in sketching, and this one is ${order.status}: move it to sketching first, or add a progress photo.`);
  }
  return invalidTransition(`The order is ${order.status}: there is no work on it to show yet.`);
}

/**
 * Adds a studio photo to an order (`POST /v1/admin/orders/{code}/photos`). The order is checked
 * before a byte is read (an unknown order or a sketch on a reproduction costs no upload), then the
 * photo is received like a customer's, and under the order's row lock it joins the order with an
 * event in the order's current status. A sketch, only on a custom order in `sketching`, asks the
 * customer again (`sketchStatus` back to `pending`) and e-mails them. Either all of it is kept or none.
 */
export async function addStudioPhoto(db: Db, deps: UploadDeps, photo: StudioPhoto, incoming: IncomingPhoto): Promise<OrderPhotoView> {
  const code = normalizeOrderCode(photo.code);
  const known = await db.order.findUnique({ where: { code }, select: { kind: true, status: true } });
  const refuse = async (error: DomainError) => {
    await incoming.body?.cancel().catch(() => undefined);
    return error;
  };
  if (!known) throw await refuse(notFound('No order has this code.'));
  if (photo.kind === 'sketch' && known.kind !== 'custom') throw await refuse(notOnReproductions());
  const early = photoOutOfStep(photo.kind, known);
  if (early) throw await refuse(early);

  return receivePhoto(db, deps, incoming, async (tx, upload) => {
    const order = await lockOrder(tx, code);
    if (!order) throw notFound('No order has this code.');
    // The order may have moved on while the photo arrived.
    const late = photoOutOfStep(photo.kind, order);
    if (late) throw late;
    const asksCustomer = photo.kind === 'sketch';
    const row = await tx.orderPhoto.create({ data: { uploadId: upload.uploadId, orderId: order.id, kind: photo.kind } });
    await tx.orderEvent.create({
      data: {
        orderId: order.id,
        status: order.status,
        note: photo.note ?? null,
        actor: 'staff',
        photoId: row.uploadId,
        sketchStatus: asksCustomer ? 'pending' : null,
        at: row.createdAt,
      },
    });
    if (asksCustomer) {
      await tx.order.update({ where: { id: order.id }, data: { sketchStatus: 'pending' } });
      await enqueue(tx, SKETCH_READY_EVENT, { orderId: order.id, code: order.code });
    }
    return photoView(row, staffPhotoUrl);
  });
}

/**
 * A photo for the customer, by the signed address of their order lookup. A wrong, tampered,
 * expired or foreign address is a plain 404, as is a photo no longer kept.
 */
export async function readOrderPhoto(
  db: Db,
  storage: PhotoStorage,
  addresses: PhotoAddresses,
  request: { code: string; id: string; expires: string | null; signature: string | null },
  now: Date = new Date(),
) {
  const gone = () => notFound('No photo is at this address, or the address has expired: look the order up again.');
  const code = request.code.toUpperCase();
  if (!UploadId.safeParse(request.id).success || !addresses.verify(code, request.id, request.expires, request.signature, now)) throw gone();
  const photo = await db.orderPhoto.findFirst({
    where: { uploadId: request.id, order: { code } },
    select: { upload: { select: { contentType: true, size: true } } },
  });
  const stored = photo && (await storage.open(request.id));
  if (!photo || !stored) throw gone();
  return { body: stored.body, size: stored.size || photo.upload.size, contentType: photo.upload.contentType, expires: Number(request.expires) };
}
