import { readdirSync } from 'node:fs';
import { Inngest } from 'inngest';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { photoStorage, uploadsFolder } from '@/server/integrations/storage';
import { createFunctions } from '@/server/jobs/functions';
import { addStudioPhoto, PhotoAddresses } from '@/server/orders/photos';
import { createOrder, lookupOrder } from '@/server/orders/service';
import { changeOrderStatus } from '@/server/orders/status';
import { configuredUploadDeps } from '@/server/uploads/handler';
import { deletePhotosPastRetention } from '@/server/uploads/retention';
import { receivePhoto } from '@/server/uploads/service';
import { CreateOrder } from '@/shared/order-schema';
import { ownDatabase } from '../support/database';
import { customer } from '../support/staff';
import { paying } from '../support/payment';

/**
 * decisions.md "Images and retention", with the clock moved forward instead of waiting. On a
 * database of its own: a clock a year ahead would otherwise delete the other test files' uploads.
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
beforeAll(async () => {
  own = await ownDatabase('retention');
  db = own.db;
});
afterAll(async () => own.drop());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const later = (ms: number) => new Date(Date.now() + ms);
const files = () => new Set(readdirSync(uploadsFolder(env())).filter((name) => !name.startsWith('.')));
const run = (now: Date, retentionDays = 180) => deletePhotosPastRetention(db, photoStorage(), { retentionDays, now });
const body = (bytes: Buffer) => new Response(new Uint8Array(bytes)).body;
const jpeg = () =>
  sharp({ create: { width: 60, height: 40, channels: 3, background: '#7a5' } })
    .jpeg()
    .toBuffer();

async function uploaded(): Promise<string> {
  const created = await receivePhoto(db, configuredUploadDeps(), { contentType: 'image/jpeg', contentLength: null, body: body(await jpeg()) });
  return created.uploadId;
}

const addPhoto = async (code: string, kind: 'sketch' | 'finished') =>
  (await addStudioPhoto(db, configuredUploadDeps(), { code, kind }, { contentType: 'image/jpeg', contentLength: null, body: body(await jpeg()) })).id;

async function customOrder(extra: Record<string, unknown>) {
  const uploadId = await uploaded();
  const { code } = await createOrder(db, CreateOrder.parse({ kind: 'custom', uploadId, style: 'modern', subjects: 1, size: '30x40', frame: 'rolled', customer, ...extra }));
  return { code, uploadId };
}

async function deliveredCustomOrder(showcaseConsent: boolean, locale = 'de') {
  const { code, uploadId } = await customOrder({ locale, showcaseConsent });
  for (const status of ['paid', 'sketching'] as const) await changeOrderStatus(db, code, { status });
  const sketch = await addPhoto(code, 'sketch');
  await changeOrderStatus(db, code, { status: 'painting' });
  const finished = await addPhoto(code, 'finished');
  await changeOrderStatus(db, code, { status: 'delivered' });
  return { code, uploadId, sketch, finished };
}

describe('photo retention', () => {
  test('an upload no order uses is deleted after 24 hours, row and file; one an order took stays', async () => {
    const unused = await uploaded();
    const taken = await deliveredCustomOrder(false);
    await run(later(23 * HOUR));
    expect(await db.upload.count({ where: { id: unused } })).toBe(1);
    const result = await run(later(25 * HOUR));
    expect(result.unusedUploads).toBeGreaterThanOrEqual(1);
    expect(await db.upload.count({ where: { id: unused } })).toBe(0);
    expect(files().has(unused)).toBe(false);
    expect(files().has(taken.uploadId)).toBe(true);
  });

  test("a delivered order's photos go PHOTO_RETENTION_DAYS after delivery, a consented finished photo stays, and the order says so in the customer's language", async () => {
    const order = await deliveredCustomOrder(true, 'de');
    const other = await deliveredCustomOrder(false, 'en');
    await run(later(179 * DAY));
    expect(await db.orderPhoto.count({ where: { order: { code: order.code } } })).toBe(3);

    await run(later(181 * DAY));
    const kept = await db.orderPhoto.findMany({ where: { order: { code: order.code } } });
    expect(kept.map((p) => p.kind)).toEqual(['finished']);
    expect(files().has(order.finished)).toBe(true);
    for (const gone of [order.uploadId, order.sketch]) expect(files().has(gone)).toBe(false);
    // The customer's upload row stays as the order's record (no picture); the studio's sketch goes whole.
    expect(await db.upload.count({ where: { id: order.uploadId } })).toBe(1);
    expect(await db.upload.count({ where: { id: order.sketch } })).toBe(0);
    // Without consent, the finished photo goes too.
    expect(await db.orderPhoto.count({ where: { order: { code: other.code } } })).toBe(0);

    const lookup = await lookupOrder(db, order.code, customer.email, { photos: new PhotoAddresses('test'), payment: paying({ online: false, instructions: null }) });
    expect(lookup.photos.map((p) => p.kind)).toEqual(['finished']);
    expect(lookup.events.at(-1)).toMatchObject({
      status: 'delivered',
      note: 'Wie in unserer Datenschutzerklärung zugesagt, wurden die Fotos dieser Bestellung 180 Tage nach ihrem Abschluss gelöscht.',
      photo: null,
    });
    // The sketch's event is still there, without its photo.
    expect(lookup.events.filter((e) => e.sketchStatus === 'pending')).toEqual([expect.objectContaining({ photo: null })]);

    // Once is enough: a second run changes nothing and says nothing again.
    const events = await db.orderEvent.count({ where: { order: { code: order.code } } });
    await run(later(200 * DAY));
    expect(await db.orderEvent.count({ where: { order: { code: order.code } } })).toBe(events);
  });

  test('a cancelled order is counted from its cancellation; a shorter PHOTO_RETENTION_DAYS is honoured', async () => {
    const { code, uploadId } = await customOrder({});
    await changeOrderStatus(db, code, { status: 'cancelled' });
    await run(later(6 * DAY), 7);
    expect(files().has(uploadId)).toBe(true);
    await run(later(8 * DAY), 7);
    expect(files().has(uploadId)).toBe(false);
    expect(await db.orderPhoto.count({ where: { uploadId } })).toBe(0);
  });

  test('Inngest runs it daily', () => {
    const fn = createFunctions(new Inngest({ id: 'retention-test' }), () => ({ db, mailer: null, baseUrl: 'https://shop.example' })).find(
      (f) => (f as unknown as { opts: { id: string } }).opts.id === 'photos.retention',
    ) as unknown as { opts: { triggers: { cron?: string }[] } };
    expect(fn.opts.triggers).toEqual([{ cron: '30 3 * * *' }]);
  });
});
