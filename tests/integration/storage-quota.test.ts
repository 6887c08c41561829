import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import { identityHeaders } from '@/server/http/identity';
import { photoStorage, uploadsFolder } from '@/server/integrations/storage';
import { captureLogs } from '@/server/logger';
import { limitKey, type LimitSettings } from '@/server/limits/service';
import { changeOrderStatus } from '@/server/orders/status';
import { createPartnerKey } from '@/server/partners/service';
import { configuredUploadDeps } from '@/server/uploads/handler';
import { heldUploadBytes, quotaBytes, storageUse } from '@/server/uploads/quota';
import { deletePhotosPastRetention } from '@/server/uploads/retention';
import { receivePhoto } from '@/server/uploads/service';
import { readFileSync } from 'node:fs';
import { createTranslator } from 'next-intl';
import { storageMarkLine } from '@/app/staff/[locale]/storage-mark';
import { ownDatabase } from '../support/database';
import { customer } from '../support/orders';
import { endlessJpegStream, jpegOfSize, photos, STAFF } from '../support/photos';

/**
 * decisions.md "Storage" (issue 38, "Storage bounded"): customer uploads stop at UPLOAD_QUOTA_MB,
 * counting the uploads no order uses and the photos of unpaid orders; staff photos never stop.
 * On a database of its own (the quota counts the whole database) with a quota of 1 MiB, so a few
 * photos of chosen sizes fill it; each test starts from no photos at all.
 */
process.env.UPLOAD_QUOTA_MB = '1';
const QUOTA = 1024 * 1024;

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
beforeAll(async () => {
  own = await ownDatabase('quota');
  db = own.db;
});
afterAll(async () => own.drop());
beforeEach(async () => {
  // Every upload and what uses one (orders, their photos and events) goes; the catalog stays.
  await db.$executeRawUnsafe('TRUNCATE uploads CASCADE');
});

/** The limits' fixed moment inside one hour, as tests/integration/limits.test.ts does. */
const NOW = new Date('2031-05-20T10:07:30Z');
const shipped: LimitSettings = { multiplier: 1, now: () => NOW };

let lastClient = 10;
const newClient = () => `198.51.100.${++lastClient}`;

/** A request to /v1 from `client`, answered by the shop on this file's database and with limits on. */
async function call(method: string, url: string, client: string, init: { body?: BodyInit | null; headers?: Record<string, string>; limits?: LimitSettings } = {}) {
  const request = new Request(`http://shop.test/v1${url}`, {
    method,
    headers: { ...identityHeaders(client), ...init.headers },
    body: init.body,
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handleRest(request, ({ req }) => createContext({ req, db, limits: init.limits ?? shipped }));
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const upload = (client: string, bytes: Uint8Array | ReadableStream<Uint8Array>, headers: Record<string, string> = {}, limits?: LimitSettings) =>
  call('POST', '/uploads', client, { body: bytes instanceof ReadableStream ? bytes : new Uint8Array(bytes), headers: { 'content-type': 'image/jpeg', ...headers }, limits });

/** The photo uploads counted for a client in the current window (what rest.ts left after giving refusals back). */
async function uploadsCounted(client: string): Promise<number> {
  const rows = await db.$queryRaw<{ hits: number }[]>`SELECT hits FROM rate_limit_hits WHERE limit_name = 'photoUpload' AND client = ${limitKey(client, 48)}`;
  return rows.reduce((n, row) => n + row.hits, 0);
}

const filesOnDisk = () => readdirSync(uploadsFolder(env()), { recursive: true, encoding: 'utf8' }).sort();

/** A custom order placed with an upload: `pending` (unpaid) until staff mark it paid. */
async function customOrder(uploadId: string): Promise<string> {
  const answer = await call('POST', '/orders', newClient(), {
    body: JSON.stringify({ kind: 'custom', uploadId, style: 'vangogh', subjects: 1, size: '30x40', frame: 'rolled', customer }),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.code as string;
}

const expectStorageFull = (answer: { status: number; headers: Headers; body: any }) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503);
  expect(answer.body.error).toMatchObject({ code: 'storage_full', message: expect.stringMatching(/storage is full/) });
  expect(answer.headers.get('retry-after')).toBe('3600');
};

describe('the storage quota (UPLOAD_QUOTA_MB)', () => {
  test('the quota is the setting, in MiB', () => {
    expect(env().UPLOAD_QUOTA_MB).toBe(1);
    expect(quotaBytes(5000)).toBe(5000 * 1024 * 1024);
  });

  test('an upload that would pass it is 503 storage_full with Retry-After, stores nothing, uses no allowance, and is logged once', async () => {
    const client = newClient();
    expect((await upload(client, jpegOfSize(600_000))).status).toBe(201);
    const files = filesOnDisk();
    const rows = await db.upload.count();

    // 600,000 held + 600,000 coming > 1,048,576: the photo that would cross the quota is refused too.
    const logs = captureLogs();
    let refused;
    try {
      refused = await upload(client, jpegOfSize(600_000));
    } finally {
      logs.stop();
    }
    expectStorageFull(refused);
    const warned = logs.lines.filter((line) => line.includes('photo storage is full'));
    expect(warned).toHaveLength(1);
    for (const part of ['"level":"warn"', '"heldBytes":600000', '"incomingBytes":600000', `"quotaBytes":${QUOTA}`]) expect(warned[0]).toContain(part);
    expect(filesOnDisk()).toEqual(files);
    expect(await db.upload.count()).toBe(rows);
    expect(await uploadsCounted(client)).toBe(1);

    // What still fits is taken: 600,000 + 400,000 ≤ 1,048,576.
    expect((await upload(client, jpegOfSize(400_000))).status).toBe(201);
    expect(await heldUploadBytes(db)).toBe(1_000_000);
    expect(await uploadsCounted(client)).toBe(2);
  });

  test('a declared Content-Length past the quota is refused once the leading bytes prove an image, before the rest is read', async () => {
    const client = newClient();
    expect((await upload(client, jpegOfSize(1_000_000))).status).toBe(201);
    const { stream, state } = endlessJpegStream();
    expectStorageFull(await upload(client, stream, { 'content-length': '100000' }));
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(await uploadsCounted(client)).toBe(1);
  });

  test('a partner key is refused alike, and its allowance is not used either', async () => {
    const { key, partner } = await createPartnerKey(db, { name: 'Quota gallery' });
    expect((await upload(newClient(), jpegOfSize(1_000_000))).status).toBe(201);
    expectStorageFull(await upload(newClient(), jpegOfSize(100_000), { authorization: `Bearer ${key}` }));
    const [row] = await db.$queryRaw<{ hits: number }[]>`SELECT hits FROM rate_limit_hits WHERE limit_name = 'photoUpload' AND client = ${`partner:${partner.id}`}`;
    expect(row?.hits ?? 0).toBe(0);
  });

  test('room comes back when the uploads no order used expire (the retention run)', async () => {
    const client = newClient();
    expect((await upload(client, jpegOfSize(600_000))).status).toBe(201);
    expect((await upload(client, jpegOfSize(400_000))).status).toBe(201);
    expectStorageFull(await upload(client, jpegOfSize(100_000)));

    // Not yet: an unused upload is kept 24 hours.
    await deletePhotosPastRetention(db, photoStorage(), { retentionDays: 180, now: new Date(Date.now() + 23 * 3_600_000) });
    expectStorageFull(await upload(client, jpegOfSize(100_000)));

    const result = await deletePhotosPastRetention(db, photoStorage(), { retentionDays: 180, now: new Date(Date.now() + 25 * 3_600_000) });
    expect(result.unusedUploads).toBe(2);
    expect(await heldUploadBytes(db)).toBe(0);
    expect((await upload(client, jpegOfSize(100_000))).status).toBe(201);
  });

  test("an unpaid order's photos count until it is paid; retention does not free them meanwhile", async () => {
    const client = newClient();
    const ordered = await upload(client, jpegOfSize(600_000));
    const code = await customOrder(ordered.body.uploadId);
    expect(await heldUploadBytes(db)).toBe(600_000);
    expectStorageFull(await upload(client, jpegOfSize(600_000)));

    // The pending order's photo is no unused upload: the retention run keeps it.
    await deletePhotosPastRetention(db, photoStorage(), { retentionDays: 180, now: new Date(Date.now() + 25 * 3_600_000) });
    expectStorageFull(await upload(client, jpegOfSize(600_000)));

    await changeOrderStatus(db, code, { status: 'paid' });
    expect(await heldUploadBytes(db)).toBe(0);
    expect((await upload(client, jpegOfSize(600_000))).status).toBe(201);
  });

  test('staff photos are never refused, however full the storage', async () => {
    const client = newClient();
    const ordered = await upload(client, jpegOfSize(300_000));
    const code = await customOrder(ordered.body.uploadId);
    await changeOrderStatus(db, code, { status: 'paid' });
    expect((await upload(client, jpegOfSize(600_000))).status).toBe(201);
    expect((await upload(client, jpegOfSize(400_000))).status).toBe(201);
    expectStorageFull(await upload(client, jpegOfSize(100_000)));

    for (const kind of ['progress', 'finished'] as const) {
      const added = await call('POST', `/admin/orders/${code}/photos?kind=${kind}`, client, {
        body: new Uint8Array(jpegOfSize(600_000)),
        headers: { ...STAFF, 'content-type': 'image/jpeg' },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }
    // Photos the studio adds through its own service are never bound either (the dashboard's door).
    await receivePhoto(db, configuredUploadDeps(), { contentType: 'image/jpeg', contentLength: null, body: new Response(new Uint8Array(jpegOfSize(600_000))).body });
    expect(await heldUploadBytes(db)).toBe(1_600_000);
    expectStorageFull(await upload(client, photos.jpeg));
  });
});

/** The dashboard's sentences of the mark in one language, as the board's page gets them. */
const sentences = (locale: 'en' | 'de') => {
  const messages = JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'));
  const t = createTranslator({ locale, messages, namespace: 'Staff.board.storage' });
  return (key: 'full' | 'near', values: { held: string; quota: string }) => t(key, values);
};

describe('the mark on the staff board', () => {
  test('says nothing with room, warns at 9/10 of the quota, and says uploads are refused past it', async () => {
    expect(await storageUse(db, QUOTA)).toEqual({ heldBytes: 0, quotaBytes: QUOTA, full: false, near: false });
    expect(storageMarkLine(await storageUse(db, QUOTA), 'en', sentences('en'))).toBeNull();

    expect((await upload(newClient(), jpegOfSize(1_000_000))).status).toBe(201);
    expect(await storageUse(db, QUOTA)).toMatchObject({ heldBytes: 1_000_000, full: false, near: true });
    expect(storageMarkLine(await storageUse(db, QUOTA), 'en', sentences('en'))?.level).toBe('near');

    // Past it only by what is never refused (a studio photo on an unpaid order would do the same).
    await receivePhoto(db, configuredUploadDeps(), { contentType: 'image/jpeg', contentLength: null, body: new Response(new Uint8Array(jpegOfSize(100_000))).body });
    expect(await storageUse(db, QUOTA)).toMatchObject({ heldBytes: 1_100_000, full: true, near: false });
  });

  test('the sentence names what is held and the quota, in MB as UPLOAD_QUOTA_MB counts them, in the dashboard language', () => {
    const MiB = 1024 * 1024;
    const full = { heldBytes: 5210 * MiB, quotaBytes: 5000 * MiB, full: true, near: false };
    expect(storageMarkLine(full, 'en', sentences('en'))).toEqual({ level: 'full', text: 'Customer uploads are refused: photo storage is full (5,210 MB of 5,000 MB).' });
    expect(storageMarkLine(full, 'de', sentences('de'))?.text).toBe('Uploads von Kunden werden abgelehnt: Der Fotospeicher ist voll (5.210 MB von 5.000 MB).');
    expect(storageMarkLine({ heldBytes: 4600 * MiB, quotaBytes: 5000 * MiB, full: false, near: true }, 'en', sentences('en'))?.text).toBe(
      'Photo storage is nearly full (4,600 MB of 5,000 MB); past it, customer uploads are refused.',
    );
  });
});

describe('uploads per IPv6 /48', () => {
  // A tenth of the shipped allowance: 3 stored photos an hour per client.
  const tenth: LimitSettings = { multiplier: 0.1, now: () => NOW };

  test('the upload allowance keys an IPv6 client by its /48; other limits keep the /64; IPv4 stays the address', () => {
    expect(limitKey('2001:db8:4a:1::1', 48)).toBe('2001:db8:4a::/48');
    expect(limitKey('2001:0db8:004a:ffff:ffff:ffff:ffff:fffe', 48)).toBe('2001:db8:4a::/48');
    expect(limitKey('2001:db8::1', 48)).toBe('2001:db8:0::/48');
    expect(limitKey('2001:db8:4a::', 48)).toBe('2001:db8:4a::/48');
    expect(limitKey('198.51.100.7', 48)).toBe('198.51.100.7');
    expect(limitKey('2001:db8:4a:1::1')).toBe('2001:db8:4a:1::/64');
  });

  test('addresses differing only below the /48 share one allowance; the next /48 has its own', async () => {
    const inside = ['2001:db8:4a:1::1', '2001:db8:4a:2::2', '2001:db8:4a:ffff:ffff:ffff:ffff:ffff'];
    for (const client of inside) expect((await upload(client, photos.jpeg, {}, tenth)).status).toBe(201);
    const refused = await upload('2001:db8:4a:abcd::9', photos.jpeg, {}, tenth);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate_limited');
    expect((await upload('2001:db8:4b::1', photos.jpeg, {}, tenth)).status).toBe(201);
    // One counter for the whole /48: the three stored (only accepted uploads count: the refusal gave its count back).
    expect(await uploadsCounted('2001:db8:4a:ffff::1')).toBe(3);
  });
});

describe('partner keys', () => {
  test("a new key's upload allowance defaults to 100 an hour (orders stay at 1000)", async () => {
    const { partner } = await createPartnerKey(db, { name: 'Default gallery' });
    expect(partner).toMatchObject({ ordersPerHour: 1000, uploadsPerHour: 100 });
    const chosen = await createPartnerKey(db, { name: 'Photo gallery', uploadsPerHour: 2000 });
    expect(chosen.partner.uploadsPerHour).toBe(2000);
  });
});
