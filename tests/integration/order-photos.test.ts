import { readdirSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { smtpMailer } from '@/server/integrations/mailer';
import { uploadsFolder } from '@/server/integrations/storage';
import { runHere } from '@/server/jobs/runner';
import { drainOutbox } from '@/server/jobs/worker';
import { orderBoard } from '@/server/orders/board';
import { configuredPhotoAddresses, PhotoAddresses, readOrderPhoto, SKETCH_READY_EVENT } from '@/server/orders/photos';
import { SKETCH_DECIDED_EVENT } from '@/server/orders/sketch';
import { configuredUploadDeps } from '@/server/uploads/handler';
import { handleRest } from '@/server/api/rest';
import { deliveryWindow } from '@/shared/delivery';
import { reproduction } from '../support/orders';
import { endlessJpegStream, STAFF, upload } from '../support/photos';
import { rest, type RestAnswer } from '../support/rest';
import { startSmtpServer } from '../support/smtp';
import { changeStatus, customer, expectError } from '../support/staff';

/**
 * The order as ordered (orientation, fit, the customer's photo) and the sketch loop of a custom
 * painting: studio photos on the timeline, signed addresses for the customer, the customer's
 * decision, and every refusal of decisions.md "Second round".
 */

/** A real JPEG whose pixels are `width` × `height` as stored, with an EXIF orientation tag (6: turn 90° to view). */
const jpeg = (width: number, height: number, orientation?: number) => {
  const image = sharp({ create: { width, height, channels: 3, background: '#b5835a' } }).jpeg();
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer();
};

async function uploadBytes(bytes: Buffer) {
  const answer = await upload(bytes, 'image/jpeg');
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { uploadId: string; width: number | null; height: number | null };
}

async function customOrder(overrides: Record<string, unknown> = {}, photo?: Buffer) {
  const uploaded = await uploadBytes(photo ?? (await jpeg(120, 90)));
  const answer = await rest('POST', '/orders', {
    json: { kind: 'custom', uploadId: uploaded.uploadId, style: 'impressionist', subjects: 1, size: '50x70', frame: 'stretched', customer, ...overrides },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return { code: answer.body.code as string, uploadId: uploaded.uploadId };
}

const lookupOf = async (code: string, email = customer.email) => rest('GET', `/orders/${code}`, { query: { email } });

/** POSTs a studio photo, as staff, through /v1. */
async function addPhoto(
  code: string,
  kind: string,
  body: BodyInit | null,
  options: { note?: string; type?: string; headers?: Record<string, string> } = {},
): Promise<RestAnswer> {
  const url = new URL(`http://shop.test/v1/admin/orders/${code}/photos`);
  url.searchParams.set('kind', kind);
  if (options.note !== undefined) url.searchParams.set('note', options.note);
  const headers = new Headers(options.headers ?? STAFF);
  headers.set('content-type', options.type ?? 'image/jpeg');
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const response = await handleRest(new Request(url, init));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Reads an address the lookup gave, as the customer's browser does. */
async function fetchPhoto(address: string) {
  const response = await handleRest(new Request(new URL(address, 'http://shop.test')));
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const decide = (code: string, body: Record<string, unknown>) => rest('POST', `/orders/${code}/sketch-decision`, { json: body });

const storedFiles = () => readdirSync(uploadsFolder(env())).filter((name) => !name.startsWith('.'));

describe('the order as ordered', () => {
  test('a photo is measured after its EXIF rotation, and a custom painting takes its orientation', async () => {
    // Stored 200 wide and 100 high, but tagged "turn 90°": a phone's portrait photo.
    const portrait = await uploadBytes(await jpeg(200, 100, 6));
    expect([portrait.width, portrait.height]).toEqual([100, 200]);
    const landscape = await customOrder({}, await jpeg(100, 200, 6));
    const plain = await customOrder({}, await jpeg(90, 90));
    const lookedUp = async (code: string) => (await lookupOf(code)).body.order;
    expect(await lookedUp(landscape.code)).toMatchObject({ orientation: 'landscape', fit: null, style: 'impressionist', subjects: 1 });
    // Square is portrait.
    expect((await lookedUp(plain.code)).orientation).toBe('portrait');
    // The customer may say otherwise, and that is what is kept.
    const turned = await customOrder({ orientation: 'portrait' }, await jpeg(100, 200, 6));
    expect((await lookedUp(turned.code)).orientation).toBe('portrait');
  });

  test('a reproduction hangs the way its artwork does unless the order says otherwise, keeps the whole composition by default, and records the choices', async () => {
    const starry = await rest('POST', '/orders', { json: reproduction({ customer, notes: 'Please sign the back' }) });
    const cropped = await rest('POST', '/orders', { json: reproduction({ customer, fit: 'crop', orientation: 'portrait', showcaseConsent: true }) });
    const a = (await lookupOf(starry.body.code)).body.order;
    const b = (await lookupOf(cropped.body.code)).body.order;
    expect(a).toMatchObject({ orientation: 'landscape', fit: 'whole', notes: 'Please sign the back', style: null, subjects: null, photos: [] });
    expect(b).toMatchObject({ orientation: 'portrait', fit: 'crop' });
    const staffView = await rest('GET', '/admin/orders', { headers: STAFF, query: { page: '1' } });
    const row = staffView.body.items.find((o: { code: string }) => o.code === cropped.body.code);
    expect(row).toMatchObject({ orientation: 'portrait', fit: 'crop', showcaseConsent: true, customerAnswered: false });
  });

  test('fit on a custom order, or an unknown orientation or fit, is invalid input and stores nothing', async () => {
    const before = await db().order.count();
    const uploaded = await uploadBytes(await jpeg(60, 40));
    const body = { kind: 'custom', uploadId: uploaded.uploadId, style: 'modern', subjects: 1, size: '30x40', frame: 'rolled', customer };
    expectError(await rest('POST', '/orders', { json: { ...body, fit: 'whole' } }), 400, 'invalid_input');
    expectError(await rest('POST', '/orders', { json: { ...body, orientation: 'sideways' } }), 400, 'invalid_input');
    expectError(await rest('POST', '/orders', { json: reproduction({ customer, fit: 'stretch' }) }), 400, 'invalid_input');
    expect(await db().order.count()).toBe(before);
  });

  test("the customer's photo is the first photo of the order, shown back to them at a signed address", async () => {
    const bytes = await jpeg(120, 90);
    const { code, uploadId } = await customOrder({}, bytes);
    const order = (await lookupOf(code)).body.order;
    expect(order.photos).toEqual([
      {
        id: uploadId,
        kind: 'customer',
        url: expect.stringMatching(new RegExp(`^/v1/orders/${code}/photos/${uploadId}\\?expires=\\d+&signature=[\\w-]{43}$`)),
        at: expect.stringMatching(/Z$/),
      },
    ]);
    const read = await fetchPhoto(order.photos[0].url);
    expect(read.status).toBe(200);
    expect(read.headers.get('content-type')).toBe('image/jpeg');
    expect(read.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(read.bytes.equals(bytes)).toBe(true);
  });

  test("a photo already on an order, the customer's or the studio's, cannot start another order", async () => {
    const { code, uploadId } = await customOrder();
    await changeStatus(code, { status: 'paid' });
    const studio = await addPhoto(code, 'progress', await jpeg(50, 40));
    for (const used of [uploadId, studio.body.id]) {
      const again = await rest('POST', '/orders', { json: { kind: 'custom', uploadId: used, style: 'modern', subjects: 1, size: '30x40', frame: 'rolled', customer } });
      expectError(again, 400, 'invalid_input');
    }
  });
});

describe('photos on the timeline and the signed addresses', () => {
  test("a studio photo records an event in the order's current status with its note, and the customer sees it", async () => {
    const { code } = await customOrder();
    await changeStatus(code, { status: 'paid' });
    const added = await addPhoto(code, 'progress', await jpeg(80, 60), { note: 'Underpainting done' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), kind: 'progress', url: `/v1/admin/uploads/${added.body.id}`, at: expect.stringMatching(/Z$/) });
    const order = (await lookupOf(code)).body.order;
    expect(order.photos.map((p: { kind: string }) => p.kind)).toEqual(['customer', 'progress']);
    expect(order.events.at(-1)).toMatchObject({ status: 'paid', note: 'Underpainting done', photo: { id: added.body.id, kind: 'progress' }, sketchStatus: null });
    // Staff read it with their token.
    const staffRead = await handleRest(new Request(`http://shop.test/v1/admin/uploads/${added.body.id}`, { headers: STAFF }));
    expect(staffRead.status).toBe(200);
  });

  test('a tampered, foreign or expired address is 404; a good one works until its hour is up', async () => {
    const { code, uploadId } = await customOrder();
    const other = await customOrder();
    const url = new URL((await lookupOf(code)).body.order.photos[0].url, 'http://shop.test');
    const tampered = new URL(url);
    const sig = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const foreign = new URL(url.href.replace(`/orders/${code}/`, `/orders/${other.code}/`));
    const otherPhoto = new URL(url.href.replace(uploadId, other.uploadId));
    for (const address of [tampered, later, foreign, otherPhoto, new URL(url.pathname, url), new URL(url.href.replace(uploadId, 'not-a-uuid'))]) {
      const read = await fetchPhoto(address.pathname + address.search);
      expect(read.status, address.href).toBe(404);
      expect(JSON.parse(read.bytes.toString()).error.code).toBe('not_found');
    }

    // The clock moves: good for the hour, refused after it.
    const storage = configuredUploadDeps().storage;
    const request = { code, id: uploadId, expires: url.searchParams.get('expires'), signature: url.searchParams.get('signature') };
    const read = await readOrderPhoto(db(), storage, configuredPhotoAddresses(), request, new Date(Date.now() + 55 * 60_000));
    await read.body.cancel();
    await expect(readOrderPhoto(db(), storage, configuredPhotoAddresses(), request, new Date(Date.now() + 61 * 60_000))).rejects.toMatchObject({ code: 'not_found' });
    // Another shop's key (or a rotated secret) signs nothing we accept.
    const stranger = new PhotoAddresses('another secret').url(code, uploadId);
    expect((await fetchPhoto(stranger)).status).toBe(404);
  });

  test('only the exact signature opens a photo: no other spelling of its last character, whose two low bits base64 leaves unused', () => {
    const addresses = new PhotoAddresses('a secret');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const now = new Date('2026-11-25T06:00:00Z');
    // Twenty addresses: each last character has three other spellings that decode to the same bytes.
    for (let n = 0; n < 20; n++) {
      const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const url = new URL(addresses.url('7X7K04ZFSR', id, now), 'http://shop.test');
      const expires = url.searchParams.get('expires');
      const signature = url.searchParams.get('signature')!;
      expect(addresses.verify('7X7K04ZFSR', id, expires, signature, now)).toBe(true);
      const others = [...alphabet].filter((c) => c !== signature.at(-1)).map((c) => signature.slice(0, -1) + c);
      expect(others.filter((other) => addresses.verify('7X7K04ZFSR', id, expires, other, now))).toEqual([]);
    }
  });

  test('refusals: no token 401, unknown order 404, sketch on a reproduction 400, a bad kind or note 400, not an image 415, out of step 409, and nothing is kept', async () => {
    const { code } = await customOrder();
    const unpaid = (await customOrder()).code;
    const cancelled = (await customOrder()).code;
    await changeStatus(code, { status: 'paid' });
    await changeStatus(cancelled, { status: 'cancelled' });
    const starry = (await rest('POST', '/orders', { json: reproduction({ customer }) })).body.code as string;
    const photo = await jpeg(40, 30);
    const rowsBefore = await db().upload.count();
    const filesBefore = storedFiles().length;
    const eventsBefore = await db().orderEvent.count();
    expectError(await addPhoto(code, 'sketch', photo, { headers: {} }), 401, 'unauthorized');
    expectError(await addPhoto('ZZZZZZZZZZ', 'sketch', photo), 404, 'not_found');
    expectError(await addPhoto(starry, 'sketch', photo), 400, 'invalid_input');
    // A sketch only while sketching (this one is paid); no photo at all on an unpaid or a cancelled order.
    expect((await addPhoto(code, 'sketch', photo)).body.error).toMatchObject({ code: 'invalid_transition', message: expect.stringContaining('sketching') });
    for (const kind of ['progress', 'finished']) {
      expectError(await addPhoto(unpaid, kind, photo), 409, 'invalid_transition');
      expectError(await addPhoto(cancelled, kind, photo), 409, 'invalid_transition');
    }
    expect(await db().orderEvent.count()).toBe(eventsBefore);
    expectError(await addPhoto(code, 'customer', photo), 400, 'invalid_input');
    expectError(await addPhoto(code, 'progress', photo, { note: 'x'.repeat(2001) }), 400, 'invalid_input');
    expectError(await addPhoto(code, 'progress', photo, { note: 'sky\u0000' }), 400, 'invalid_input');
    expectError(await addPhoto(code, 'progress', Buffer.from('%PDF-1.7 not a photo at all'), { type: 'image/jpeg' }), 415, 'unsupported_media_type');
    expect((await addPhoto(code, 'progress', photo, { note: 'x'.repeat(2000) })).status).toBe(201);
    expect(await db().upload.count()).toBe(rowsBefore + 1);
    expect(storedFiles().length).toBe(filesBefore + 1);
  });

  test('an upload that breaks off midway leaves no row, no file and no event', async () => {
    const { code } = await customOrder();
    await changeStatus(code, { status: 'paid' });
    const order = await db().order.findUniqueOrThrow({ where: { code }, select: { id: true } });
    const eventsBefore = await db().orderEvent.count({ where: { orderId: order.id } });
    const rowsBefore = await db().upload.count();
    const filesBefore = storedFiles();
    const { stream } = endlessJpegStream();
    const reader = stream.getReader();
    let sent = 0;
    const breaking = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent > 256 * 1024) return controller.error(new Error('connection lost'));
        const chunk = await reader.read();
        sent += chunk.value!.length;
        controller.enqueue(chunk.value!);
      },
    });
    // Nobody is left to read the answer; what matters is what stays behind.
    expect((await addPhoto(code, 'progress', breaking)).status).toBe(500);
    expect(await db().upload.count()).toBe(rowsBefore);
    expect(storedFiles()).toEqual(filesBefore);
    expect(await db().orderEvent.count({ where: { orderId: order.id } })).toBe(eventsBefore);
  });
});

describe('the customer decides on the sketch', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => smtp.close());

  async function deliverMail(code: string) {
    const rows = await db().outboxEvent.findMany({ where: { sentAt: null, payload: { path: ['code'], equals: code } }, select: { id: true, name: true } });
    const deps = { db: db(), mailer: smtpMailer(smtp.url, 'orders@shop.example'), baseUrl: 'https://shop.example', studioEmail: 'studio@shop.example' };
    await drainOutbox(
      db(),
      runHere(() => deps),
      { ids: rows.map((r) => r.id) },
    );
    return rows.map((r) => r.name);
  }

  test('sketch → changes asked with a comment → a second sketch → approved → painting, each step on the timeline and in the mail', async () => {
    const { code } = await customOrder({ locale: 'de' });
    await changeStatus(code, { status: 'paid' });
    await changeStatus(code, { status: 'sketching' });
    await deliverMail(code);
    // Sketching, but no sketch shown yet: nothing to decide on.
    expectError(await decide(code, { email: customer.email, decision: 'approved' }), 409, 'invalid_transition');

    const first = await addPhoto(code, 'sketch', await jpeg(70, 50), { note: 'First sketch' });
    expect(first.status).toBe(201);
    let order = (await lookupOf(code)).body.order;
    expect(order.sketchStatus).toBe('pending');
    expect(order.events.at(-1)).toMatchObject({ status: 'sketching', note: 'First sketch', photo: { kind: 'sketch', id: first.body.id }, sketchStatus: 'pending' });
    expect(await deliverMail(code)).toEqual([SKETCH_READY_EVENT]);
    const waiting = smtp.inbox.at(-1)!;
    expect(waiting.to).toEqual([customer.email]);
    expect(waiting.subject).toContain('Skizze');
    expect(waiting.text).toContain(`https://shop.example/de/orders/${code}`);

    const asked = await decide(code.toLowerCase(), { email: customer.email.toUpperCase(), decision: 'changes_requested', comment: '  Make the sky lighter, please  ' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.order.sketchStatus).toBe('changes_requested');
    expect(asked.body.order.events.at(-1)).toMatchObject({ status: 'sketching', note: 'Make the sky lighter, please', sketchStatus: 'changes_requested', photo: null });
    // Twice is refused until the studio shows a new sketch.
    expectError(await decide(code, { email: customer.email, decision: 'approved' }), 409, 'invalid_transition');
    const board = await orderBoard(db(), { q: code });
    expect(board.items[0]).toMatchObject({ code, customerAnswered: true });
    expect(await deliverMail(code)).toEqual([SKETCH_DECIDED_EVENT]);
    const studio = smtp.inbox.at(-1)!;
    expect(studio.to).toEqual(['studio@shop.example']);
    expect(studio.subject).toBe(`Order ${code}: changes asked for the sketch`);
    expect(studio.text).toContain('Make the sky lighter, please');

    await addPhoto(code, 'sketch', await jpeg(70, 50), { note: 'Second sketch, lighter sky' });
    expect((await orderBoard(db(), { q: code })).items[0]!.customerAnswered).toBe(false);
    const approved = await decide(code, { email: customer.email, decision: 'approved' });
    expect(approved.body.order).toMatchObject({ sketchStatus: 'approved' });
    expect(approved.body.order.photos.map((p: { kind: string }) => p.kind)).toEqual(['customer', 'sketch', 'sketch']);
    expectError(await decide(code, { email: customer.email, decision: 'changes_requested' }), 409, 'invalid_transition');
    const painting = await changeStatus(code, { status: 'painting' });
    expect(painting.body.order.sketchStatus).toBe('approved');
    order = (await lookupOf(code)).body.order;
    expect(order.events.map((e: { status: string; sketchStatus: string | null; photo: unknown }) => [e.status, e.sketchStatus, e.photo ? 'photo' : null])).toEqual([
      ['pending', null, null],
      ['paid', null, null],
      ['sketching', null, null],
      ['sketching', 'pending', 'photo'],
      ['sketching', 'changes_requested', null],
      ['sketching', 'pending', 'photo'],
      ['sketching', 'approved', null],
      ['painting', null, null],
    ]);
  });

  test('a wrong e-mail is 404 like the lookup, a reproduction is 409, a comment over 2000 or an unknown decision is 400', async () => {
    const { code } = await customOrder();
    await changeStatus(code, { status: 'sketching' });
    await addPhoto(code, 'sketch', await jpeg(70, 50));
    expectError(await decide(code, { email: 'someone@else.example', decision: 'approved' }), 404, 'not_found');
    expectError(await decide('ZZZZZZZZZZ', { email: customer.email, decision: 'approved' }), 404, 'not_found');
    expectError(await decide(code, { email: customer.email, decision: 'approved', comment: 'x'.repeat(2001) }), 400, 'invalid_input');
    expectError(await decide(code, { email: customer.email, decision: 'maybe' }), 400, 'invalid_input');
    expectError(await decide(code, { decision: 'approved' }), 400, 'invalid_input');
    expectError(await decide(code, { email: customer.email, decision: 'changes_requested', comment: 'lighter\u0000' }), 400, 'invalid_input');
    const starry = (await rest('POST', '/orders', { json: reproduction({ customer }) })).body.code as string;
    expectError(await decide(starry, { email: customer.email, decision: 'approved' }), 409, 'invalid_transition');
    // Nothing was decided by the refusals.
    expect((await lookupOf(code)).body.order.sketchStatus).toBe('pending');
    expect((await decide(code, { email: customer.email, decision: 'approved', comment: 'x'.repeat(2000) })).status).toBe(200);
  });

  test('a sketch before sketching or once painting has started is refused: the customer is asked nothing, and the page keeps saying what happened', async () => {
    const { code } = await customOrder();
    await changeStatus(code, { status: 'paid' });
    expectError(await addPhoto(code, 'sketch', await jpeg(70, 50)), 409, 'invalid_transition');
    expect((await lookupOf(code)).body.order.sketchStatus).toBeNull();
    await changeStatus(code, { status: 'sketching' });
    expect((await addPhoto(code, 'sketch', await jpeg(70, 50))).status).toBe(201);
    expect((await decide(code, { email: customer.email, decision: 'approved' })).status).toBe(200);
    await changeStatus(code, { status: 'painting' });
    const painting = (await lookupOf(code)).body.order;
    expectError(await addPhoto(code, 'sketch', await jpeg(70, 50)), 409, 'invalid_transition');
    // A progress photo is fine, and changes nothing about the sketch.
    expect((await addPhoto(code, 'progress', await jpeg(70, 50))).status).toBe(201);
    const after = (await lookupOf(code)).body.order;
    expect(after.sketchStatus).toBe('approved');
    expect(after.photos.filter((p: { kind: string }) => p.kind === 'sketch')).toHaveLength(painting.photos.filter((p: { kind: string }) => p.kind === 'sketch').length);
    expect(await db().outboxEvent.count({ where: { name: SKETCH_READY_EVENT, payload: { path: ['code'], equals: code } } })).toBe(1);
  });

  test('each request for changes moves the delivery estimate by the sketch days; a new sketch asks again', async () => {
    const { code } = await customOrder();
    await changeStatus(code, { status: 'sketching' });
    await addPhoto(code, 'sketch', await jpeg(70, 50));
    const first = (await lookupOf(code)).body.order;
    await decide(code, { email: customer.email, decision: 'changes_requested', comment: 'A warmer sky' });
    const asked = (await lookupOf(code)).body.order;
    // The sketch step counted twice from the day the order reached sketching.
    const sketchingSince = new Date(asked.events.find((e: { status: string }) => e.status === 'sketching').at);
    expect(asked.estimatedDelivery).toEqual(deliveryWindow({ kind: 'custom', size: '50x70', sketchRevisions: 1 }, sketchingSince, 'sketching'));
    expect(first.estimatedDelivery).toEqual(deliveryWindow({ kind: 'custom', size: '50x70' }, sketchingSince, 'sketching'));
    expect(asked.estimatedDelivery.earliest > first.estimatedDelivery.earliest && asked.estimatedDelivery.latest > first.estimatedDelivery.latest).toBe(true);
    await addPhoto(code, 'sketch', await jpeg(70, 50));
    const again = (await lookupOf(code)).body.order;
    expect(again.sketchStatus).toBe('pending');
    expect(again.estimatedDelivery).toEqual(asked.estimatedDelivery);
    expect(again.events.at(-1)).toMatchObject({ sketchStatus: 'pending', actor: 'staff', photo: { kind: 'sketch' } });
    expect(asked.events.at(-1)).toMatchObject({ sketchStatus: 'changes_requested', actor: 'customer' });
  });
});
