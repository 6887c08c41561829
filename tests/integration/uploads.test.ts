import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { uploadsFolder } from '@/server/integrations/storage';
import { MAX_UPLOAD_BYTES } from '@/shared/uploads';
import { custom, customer } from '../support/orders';
import { endlessJpegStream, jpegOfSize, photos, STAFF, upload } from '../support/photos';
import { rest } from '../support/rest';

const expectError = (answer: { status: number; body: any }, status: number, code: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toMatchObject({ code, message: expect.any(String) });
  expect(answer.body.error.message.length).toBeGreaterThan(0);
};

/** Every file under the private uploads folder, spool files included. */
function filesOnDisk(): string[] {
  const root = uploadsFolder(env());
  const walk = (dir: string): string[] => {
    try {
      return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    } catch {
      return [];
    }
  };
  return walk(root).sort();
}

/** Runs a refused upload and checks it left nothing behind in the private folder (this test file's own). */
async function refusedLeavesNothing(run: () => Promise<{ status: number; body: any }>, status: number, code: string) {
  const files = filesOnDisk();
  const answer = await run();
  expectError(answer, status, code);
  expect(filesOnDisk()).toEqual(files);
  return answer;
}

describe('POST /v1/uploads', () => {
  test.each([
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['heic', 'image/heic'],
    ['heif', 'image/heif'],
  ] as const)('a %s photo is stored privately under a new UUID: 201 with uploadId, contentType and size', async (kind, type) => {
    const bytes = photos[kind];
    const answer = await upload(bytes, `${type}; name=x`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    // Measured after EXIF rotation; the HEIC/HEIF test files are headers sharp cannot measure.
    const measured = kind === 'heic' || kind === 'heif' ? { width: null, height: null } : { width: 96, height: 64 };
    expect(answer.body).toEqual({ uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/), contentType: type, size: bytes.length, ...measured });
    const row = await db().upload.findUniqueOrThrow({ where: { id: answer.body.uploadId } });
    expect(row).toMatchObject({ contentType: type, size: bytes.length, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(filesOnDisk()).toContain(path.join(uploadsFolder(env()), answer.body.uploadId));
  });

  test('the private folder is outside public/ and the photo is not served from the site', () => {
    expect(path.relative(path.resolve('public'), uploadsFolder(env())).startsWith('..')).toBe(true);
  });

  test('HEIC and HEIF labels are interchangeable (phones mix them up)', async () => {
    expect((await upload(photos.heic, 'image/heif')).status).toBe(201);
    expect((await upload(photos.heif, 'image/heic')).status).toBe(201);
  });

  test('a text file labelled image/jpeg is 415 and leaves nothing on disk', async () => {
    await refusedLeavesNothing(() => upload(Buffer.from('just some words, not a photo at all\n'.repeat(200)), 'image/jpeg'), 415, 'unsupported_media_type');
  });

  test('a PNG labelled image/jpeg is 415 and leaves nothing on disk', async () => {
    const answer = await refusedLeavesNothing(() => upload(photos.png, 'image/jpeg'), 415, 'unsupported_media_type');
    expect(answer.body.error.message).toContain('image/png');
  });

  test('a type we do not take (GIF, text, none) is 415', async () => {
    await refusedLeavesNothing(() => upload(Buffer.from('GIF89a....'), 'image/gif'), 415, 'unsupported_media_type');
    await refusedLeavesNothing(() => upload(photos.jpeg, 'text/plain'), 415, 'unsupported_media_type');
    await refusedLeavesNothing(() => upload(photos.jpeg, null), 415, 'unsupported_media_type');
  });

  test('an empty body is 400 invalid_input and leaves nothing on disk', async () => {
    await refusedLeavesNothing(() => upload(Buffer.alloc(0), 'image/jpeg'), 400, 'invalid_input');
    await refusedLeavesNothing(() => upload(null, 'image/jpeg'), 400, 'invalid_input');
  });

  test('exactly 20 MB is accepted', async () => {
    const answer = await upload(jpegOfSize(MAX_UPLOAD_BYTES));
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.size).toBe(20 * 1024 * 1024);
  });

  test('20 MB + 1 byte is 413 and leaves nothing on disk', async () => {
    await refusedLeavesNothing(() => upload(jpegOfSize(MAX_UPLOAD_BYTES + 1)), 413, 'payload_too_large');
  });

  test('a declared Content-Length over 20 MB is refused before any byte is read', async () => {
    const { stream, state } = endlessJpegStream();
    await refusedLeavesNothing(() => upload(stream, 'image/jpeg', { 'content-length': String(MAX_UPLOAD_BYTES + 1) }), 413, 'payload_too_large');
    expect(state.pulled).toBeLessThanOrEqual(64 * 1024);
  });

  test('an endless body with no length stops being read just past 20 MB (413, nothing kept)', async () => {
    const { stream, state } = endlessJpegStream();
    await refusedLeavesNothing(() => upload(stream), 413, 'payload_too_large');
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(state.pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 3 * 64 * 1024);
  });

  test('a GET is 405 with Allow: POST', async () => {
    const answer = await rest('GET', '/uploads');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

describe('GET /v1/admin/uploads/{id}', () => {
  test('staff read the photo back byte for byte, privately', async () => {
    const { body } = await upload(photos.webp, 'image/webp');
    const response = await fetchPhoto(body.uploadId, STAFF);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await response.arrayBuffer()).equals(photos.webp)).toBe(true);
  });

  test('without the staff token it is 401 and the photo is not sent', async () => {
    const { body } = await upload(photos.jpeg);
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const answer = await rest('GET', `/admin/uploads/${body.uploadId}`, { headers });
      expectError(answer, 401, 'unauthorized');
    }
  });

  test('an unknown id is 404, a malformed one 400', async () => {
    expectError(await rest('GET', '/admin/uploads/00000000-0000-4000-8000-000000000000', { headers: STAFF }), 404, 'not_found');
    expectError(await rest('GET', '/admin/uploads/not-a-uuid', { headers: STAFF }), 400, 'invalid_input');
  });
});

describe('custom orders with an uploaded photo', () => {
  test('a custom order takes a freshly uploaded photo; the photo cannot be used twice', async () => {
    const { body } = await upload(photos.jpeg);
    const order = await custom({ uploadId: body.uploadId, customer: { ...customer, email: 'photo-owner@example.com' } });
    const first = await rest('POST', '/orders', { json: order });
    expect(first.status).toBe(201);
    expectError(await rest('POST', '/orders', { json: order }), 400, 'invalid_input');
  });

  test('two orders racing for one uploaded photo: exactly one wins', async () => {
    const { body } = await upload(photos.png, 'image/png');
    const order = await custom({ uploadId: body.uploadId, customer: { ...customer, email: 'photo-owner@example.com' } });
    const answers = await Promise.all(Array.from({ length: 5 }, () => rest('POST', '/orders', { json: order })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    for (const loser of answers.filter((a) => a.status === 400)) expectError(loser, 400, 'invalid_input');
    expect(await db().order.count({ where: { uploadId: body.uploadId } })).toBe(1);
  });
});

async function fetchPhoto(id: string, headers: Record<string, string>) {
  const { handleRest } = await import('@/server/api/rest');
  return handleRest(new Request(`http://shop.test/v1/admin/uploads/${id}`, { headers }));
}

describe('S3-compatible storage', () => {
  test('a photo goes to the bucket as a private object under its id and comes back to staff; refusals store nothing', async () => {
    const { startS3Server } = await import('../support/s3-server');
    const { S3PhotoStorage } = await import('@/server/integrations/storage');
    const { uploadRoute, adminPhotoRoute } = await import('@/server/uploads/handler');
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const s3 = await startS3Server();
    try {
      const storage = new S3PhotoStorage({ bucket: 'photos-bucket', endpoint: s3.url, region: 'auto', accessKeyId: 'AK', secretAccessKey: 'SK', forcePathStyle: true });
      const spoolDir = mkdtempSync(path.join(tmpdir(), 's3-spool-'));
      const deps = () => ({ storage, spoolDir });
      const post = (body: Buffer, type: string) =>
        uploadRoute(deps).handle(new Request('http://shop.test/v1/uploads', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(body) }), {});

      const created = await post(photos.jpeg, 'image/jpeg');
      expect(created.status).toBe(201);
      const { uploadId } = await created.json();
      const stored = s3.objects.get(`/photos-bucket/photos/${uploadId}`);
      expect(stored?.body.equals(photos.jpeg)).toBe(true);
      expect(stored?.contentType).toBe('image/jpeg');
      const put = s3.requests.find((r) => r.method === 'PUT')!;
      expect(put.headers['x-amz-acl']).toBeUndefined();
      expect(readdirSync(spoolDir)).toEqual([]);

      const read = await adminPhotoRoute(deps).handle(new Request(`http://shop.test/v1/admin/uploads/${uploadId}`), { id: uploadId });
      expect(Buffer.from(await read.arrayBuffer()).equals(photos.jpeg)).toBe(true);

      await expect(post(photos.png, 'image/jpeg')).rejects.toMatchObject({ code: 'unsupported_media_type' });
      expect(s3.objects.size).toBe(1);
      expect(readdirSync(spoolDir)).toEqual([]);

      await storage.remove(uploadId);
      await expect(adminPhotoRoute(deps).handle(new Request('http://x'), { id: uploadId })).rejects.toMatchObject({ code: 'not_found' });
    } finally {
      await s3.close();
    }
  });
});
