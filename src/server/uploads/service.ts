import 'server-only';
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Db, Tx } from '@/server/db/client';
import { DomainError, invalidInput, notFound } from '@/server/errors';
import type { PhotoStorage } from '@/server/integrations/storage';
import { acceptedPhotoTypes, MAX_UPLOAD_BYTES, type PhotoType } from '@/shared/uploads';
import { ensureRoomFor } from './quota';
import { UploadId, type UploadCreated } from './schema';

export interface UploadDeps {
  storage: PhotoStorage;
  /** A private folder for files on their way in (same file system as a disk storage, so they are moved, not copied). */
  spoolDir: string;
  maxBytes?: number;
  /**
   * Customer uploads only: the storage quota in bytes (UPLOAD_QUOTA_MB, quota.ts). Past it the
   * photo is refused with StorageFull before anything is stored. Absent (studio photos): no bound.
   */
  quotaBytes?: number;
}

/** file-type reads at most this many leading bytes to recognise a format. */
const SNIFF_BYTES = 4100;

/** HEIC is HEIF with HEVC inside; phones label one as the other, so either label takes either. */
const agreeingTypes: Record<PhotoType, readonly string[]> = {
  'image/jpeg': ['image/jpeg'],
  'image/png': ['image/png'],
  'image/webp': ['image/webp'],
  'image/heic': ['image/heic', 'image/heif'],
  'image/heif': ['image/heic', 'image/heif'],
};

const tooLarge = (max: number) => new DomainError('payload_too_large', `The photo is larger than ${max / 1024 / 1024} MB.`);
const unsupported = (message: string) => new DomainError('unsupported_media_type', message);

/** The Content-Type a photo was sent with, if it is one we take. */
export function acceptedType(header: string | null): PhotoType | null {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return (acceptedPhotoTypes as readonly string[]).includes(type ?? '') ? (type as PhotoType) : null;
}

/** A studio photo joins its order under the order's row lock, which may be held by another change for a moment. */
const photoTransaction = { maxWait: 20_000, timeout: 30_000 } as const;

/** A photo as it arrives: its label, declared length and raw bytes. */
export interface IncomingPhoto {
  contentType: string | null;
  contentLength: string | null;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * The photo's size in pixels as it is seen, after its EXIF rotation (a phone's portrait photo is
 * often stored landscape with "rotate 90°"), read from the header by sharp. Null when the format
 * cannot be measured here (sharp's prebuilt libvips reads no HEIC).
 */
async function measure(file: string): Promise<{ width: number | null; height: number | null }> {
  try {
    const metadata = await sharp(file).metadata();
    const { width, height } = metadata.autoOrient ?? metadata;
    return width && height ? { width, height } : { width: null, height: null };
  } catch {
    return { width: null, height: null };
  }
}

/**
 * Receives a photo as a stream of raw bytes. It refuses as early as it can and keeps nothing of a
 * refused photo: a declared or counted size past the limit stops reading (413), the leading bytes
 * must be an accepted image agreeing with the label (415) before anything is written, a customer
 * upload past the storage quota is refused before it is stored (StorageFull, 503), and the spool
 * file of a failed upload is deleted. The photo is stored under a new UUID and measured.
 *
 * `attach` runs in the transaction that records the upload (a studio photo joins its order there):
 * when it throws, neither the row nor the stored file remains.
 */
export async function receivePhoto(db: Db, deps: UploadDeps, request: IncomingPhoto): Promise<UploadCreated>;
export async function receivePhoto<T>(db: Db, deps: UploadDeps, request: IncomingPhoto, attach: (tx: Tx, upload: UploadCreated) => Promise<T>): Promise<T>;
export async function receivePhoto<T>(db: Db, deps: UploadDeps, request: IncomingPhoto, attach?: (tx: Tx, upload: UploadCreated) => Promise<T>): Promise<UploadCreated | T> {
  const max = deps.maxBytes ?? MAX_UPLOAD_BYTES;
  const label = acceptedType(request.contentType);
  if (!label) {
    await request.body?.cancel().catch(() => undefined);
    throw unsupported(`Send the photo's raw bytes with Content-Type ${acceptedPhotoTypes.join(', ')}.`);
  }
  const declared = request.contentLength === null ? NaN : Number(request.contentLength);
  if (declared > max) {
    await request.body?.cancel().catch(() => undefined);
    throw tooLarge(max);
  }
  // The quota is checked once, with the photo's own size, and only for what proved an image (junk
  // is refused without the aggregate): with a declared length right after the leading bytes (a full
  // shop does not take 20 MB in to refuse them), else once the whole size is counted.
  const quota = deps.quotaBytes;
  const checkedEarly = quota !== undefined && declared > 0;

  const id = randomUUID();
  const spoolPath = path.join(deps.spoolDir, `${id}.part`);
  const hash = createHash('sha256');
  let file: FileHandle | undefined;
  let size = 0;
  let stored = false;
  const reader = request.body?.getReader();
  try {
    // The leading bytes are held in memory until they prove an accepted image; only then is a file opened.
    const head: Uint8Array[] = [];
    let headSize = 0;
    let done = !reader;
    while (!done && headSize < SNIFF_BYTES) {
      const chunk = await reader!.read();
      if (chunk.done) done = true;
      else {
        size += chunk.value.byteLength;
        if (size > max) throw tooLarge(max);
        head.push(chunk.value);
        headSize += chunk.value.byteLength;
      }
    }
    if (size === 0) throw invalidInput('The request body is empty: send the photo as the raw body.');
    const leading = Buffer.concat(head);
    const detected = await fileTypeFromBuffer(leading.subarray(0, SNIFF_BYTES));
    if (!detected || !agreeingTypes[label].includes(detected.mime)) {
      throw unsupported(
        detected ? `The file is ${detected.mime}, which does not agree with its Content-Type ${label}.` : `The file is not a JPEG, PNG, WebP or HEIC/HEIF image.`,
      );
    }
    if (checkedEarly) await ensureRoomFor(db, quota, declared);

    await mkdir(deps.spoolDir, { recursive: true, mode: 0o700 });
    file = await open(spoolPath, 'wx', 0o600);
    hash.update(leading);
    await file.write(leading);
    while (!done) {
      const chunk = await reader!.read();
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > max) throw tooLarge(max);
      hash.update(chunk.value);
      await file.write(chunk.value);
    }
    await file.close();
    file = undefined;
    const { width, height } = await measure(spoolPath);
    if (quota !== undefined && !checkedEarly) await ensureRoomFor(db, quota, size);

    await deps.storage.put(id, { path: spoolPath, size, contentType: label });
    stored = true;
    const created: UploadCreated = { uploadId: id, contentType: label, size, width, height };
    const sha256 = hash.digest('hex');
    return await db.$transaction(async (tx) => {
      await tx.upload.create({ data: { id, contentType: label, size, sha256, width, height } });
      return attach ? attach(tx, created) : created;
    }, photoTransaction);
  } catch (error) {
    await reader?.cancel().catch(() => undefined);
    if (stored) await deps.storage.remove(id).catch(() => undefined);
    throw error;
  } finally {
    await file?.close().catch(() => undefined);
    await unlink(spoolPath).catch(() => undefined);
  }
}

/** A stored photo for staff: its bytes and type. Unknown ids are 404. */
export async function readPhoto(db: Db, storage: PhotoStorage, id: string) {
  if (!UploadId.safeParse(id).success) throw invalidInput('An upload id is a UUID.', [{ path: 'id', message: 'not a UUID' }]);
  const upload = await db.upload.findUnique({ where: { id } });
  const stored = upload && (await storage.open(id));
  if (!upload || !stored) throw notFound('No photo has this id.');
  return { body: stored.body, size: stored.size || upload.size, contentType: upload.contentType };
}
