import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { createCallerFactory } from '@/server/api/trpc';
import { db } from '@/server/db/client';
import { orderForStaff } from '@/server/orders/board';
import { SHOWCASE_LIMIT } from '@/server/showcase/schema';
import { staffDashboardRouter } from '@/server/staff/router';
import { GET as showcaseImageRoute } from '@/app/images/showcase/[id]/route';
import { photos, STAFF } from '../support/photos';
import { rest, type RestAnswer } from '../support/rest';
import { changeStatus, customer, expectError, newOrder } from '../support/staff';

/**
 * Issue #15, "Proof of our work": staff show a finished photo of an order whose customer allowed
 * it; the public gallery (GET /v1/showcase) and its image route (/images/showcase/<id>) serve only
 * such photos, never a customer's own photo, never a name.
 */

/** A real JPEG, `width` × `height`, with camera metadata the public copy must not keep. */
const jpeg = (width: number, height: number, colour = '#7a5138') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .withExif({ IFD0: { Artist: 'Studio phone of Ada', Copyright: 'private' } })
    .toBuffer();

/** POSTs a studio photo, as staff, through /v1 (as tests/integration/order-photos.test.ts does). */
async function addPhoto(code: string, kind: string, body: Buffer, type = 'image/jpeg'): Promise<RestAnswer> {
  const url = new URL(`http://shop.test/v1/admin/orders/${code}/photos`);
  url.searchParams.set('kind', kind);
  const response = await handleRest(new Request(url, { method: 'POST', headers: { ...STAFF, 'content-type': type }, body: new Uint8Array(body) }));
  const answer = { status: response.status, headers: response.headers, body: await response.json() };
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer;
}

const mark = (code: string, id: string, showcased: unknown, headers: Record<string, string> = STAFF) =>
  rest('POST', `/admin/orders/${code}/photos/${id}/showcase`, { json: { showcased }, headers });

const gallery = async (locale = 'en') => {
  const answer = await rest('GET', '/showcase', { query: { locale } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer;
};

async function image(id: string, w?: string) {
  const url = new URL(`http://shop.test/images/showcase/${id}`);
  if (w !== undefined) url.searchParams.set('w', w);
  const response = await showcaseImageRoute(new Request(url), { params: Promise.resolve({ id }) });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const customerName = 'Gallery Tester Zyxwv';
const galleryCustomer = { ...customer, name: customerName, email: 'gallery-tests@example.com' };

/** An order with a finished photo: a reproduction by default, or a custom painting with the customer's own photo. */
async function finishedOrder(options: { consent: boolean; kind?: 'reproduction' | 'custom' }) {
  const code = await newOrder(options.kind ?? 'reproduction', {
    showcaseConsent: options.consent,
    customer: galleryCustomer,
    ...(options.kind === 'custom' ? { style: 'vangogh' } : {}),
  });
  // A photo shows work, which only a paid order has.
  await changeStatus(code, { status: 'paid' });
  const finished = await addPhoto(code, 'finished', await jpeg(1200, 900));
  return { code, finishedId: finished.body.id as string };
}

describe('staff show a finished photo in the gallery', () => {
  test('only a finished photo of an order whose customer consented: anything else is refused and nothing changes', async () => {
    const consenting = await newOrder('custom', { showcaseConsent: true, customer: galleryCustomer });
    const customerPhoto = (await orderForStaff(db(), consenting)).photos.find((p) => p.kind === 'customer')!;
    await changeStatus(consenting, { status: 'paid' });
    await changeStatus(consenting, { status: 'sketching' });
    const sketch = await addPhoto(consenting, 'sketch', await jpeg(300, 200));
    const progress = await addPhoto(consenting, 'progress', await jpeg(300, 200));
    for (const id of [customerPhoto.id, sketch.body.id, progress.body.id]) {
      const answer = await mark(consenting, id, true);
      expectError(answer, 409, 'invalid_transition');
      expect(answer.body.error.details[0].path).toBe('kind');
    }

    const withoutConsent = await finishedOrder({ consent: false });
    const refused = await mark(withoutConsent.code, withoutConsent.finishedId, true);
    expectError(refused, 409, 'invalid_transition');
    expect(refused.body.error.details[0].path).toBe('showcaseConsent');

    // A HEIC the website cannot draw would be a broken image in the gallery.
    const heic = await newOrder('reproduction', { showcaseConsent: true, customer: galleryCustomer });
    await changeStatus(heic, { status: 'paid' });
    const heicPhoto = await addPhoto(heic, 'finished', photos.heic, 'image/heic');
    expectError(await mark(heic, heicPhoto.body.id, true), 409, 'invalid_transition');

    // Another order's photo, an unknown order, a bad id or body, no token.
    const other = await finishedOrder({ consent: true });
    expectError(await mark(withoutConsent.code, other.finishedId, true), 404, 'not_found');
    expectError(await mark('ZZZZZZZZZZ', other.finishedId, true), 404, 'not_found');
    expectError(await mark(other.code, 'not-a-uuid', true), 400, 'invalid_input');
    expectError(await mark(other.code, other.finishedId, 'yes'), 400, 'invalid_input');
    expectError(await mark(other.code, other.finishedId, true, {}), 401, 'unauthorized');

    const shown = await db().orderPhoto.count({
      where: {
        uploadId: { in: [customerPhoto.id, sketch.body.id, progress.body.id, withoutConsent.finishedId, heicPhoto.body.id, other.finishedId] },
        showcasedAt: { not: null },
      },
    });
    expect(shown).toBe(0);
    // Taking down is always allowed, and changes nothing on a photo that is not shown.
    expect((await mark(withoutConsent.code, withoutConsent.finishedId, false)).status).toBe(200);
    expect((await mark(consenting, customerPhoto.id, false)).body.showcasedAt).toBeNull();
  });

  test("showing and taking down: the answer, the staff order view, idempotence, and no event on the customer's timeline", async () => {
    const { code, finishedId } = await finishedOrder({ consent: true });
    const eventsBefore = (await orderForStaff(db(), code)).events.length;
    const shown = await mark(code, finishedId, true);
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toEqual({
      id: finishedId,
      kind: 'finished',
      url: `/v1/admin/uploads/${finishedId}`,
      at: expect.stringMatching(/Z$/),
      showcasedAt: expect.stringMatching(/Z$/),
    });
    // Showing again keeps its date (its place in the gallery).
    expect((await mark(code, finishedId, true)).body.showcasedAt).toBe(shown.body.showcasedAt);
    const detail = await orderForStaff(db(), code);
    expect(detail.photos.find((p) => p.id === finishedId)?.showcasedAt).toBe(shown.body.showcasedAt);
    expect(detail.events.length).toBe(eventsBefore);
    const down = await mark(code, finishedId, false);
    expect(down.body.showcasedAt).toBeNull();
    expect((await orderForStaff(db(), code)).photos.find((p) => p.id === finishedId)?.showcasedAt).toBeNull();
  });

  test('the dashboard procedure does the same, with the same refusals', async () => {
    const caller = createCallerFactory(staffDashboardRouter)(createContext({ actor: async () => ({ kind: 'staff', via: 'dashboard' }) }));
    const { code, finishedId } = await finishedOrder({ consent: true });
    const shown = await caller.showcasePhoto({ code: code.toLowerCase(), id: finishedId, showcased: true });
    expect(shown.showcasedAt).not.toBeNull();
    expect((await gallery()).body.items.map((i: { id: string }) => i.id)).toContain(finishedId);
    expect((await caller.showcasePhoto({ code, id: finishedId, showcased: false })).showcasedAt).toBeNull();
    const refused = await finishedOrder({ consent: false });
    await expect(caller.showcasePhoto({ code: refused.code, id: refused.finishedId, showcased: true })).rejects.toMatchObject({ code: 'CONFLICT' });
    const anonymous = createCallerFactory(staffDashboardRouter)(createContext());
    await expect(anonymous.showcasePhoto({ code, id: finishedId, showcased: true })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe('the public gallery', () => {
  test("lists only shown photos, newest first, with what was painted and never a customer's photo or name", async () => {
    const repro = await finishedOrder({ consent: true });
    const custom = await finishedOrder({ consent: true, kind: 'custom' });
    const hidden = await finishedOrder({ consent: true });
    const customPhotos = (await orderForStaff(db(), custom.code)).photos;
    expect((await mark(repro.code, repro.finishedId, true)).status).toBe(200);
    expect((await mark(custom.code, custom.finishedId, true)).status).toBe(200);

    const answer = await gallery('fr');
    expect(answer.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
    expect(answer.headers.get('etag')).toBeTruthy();
    const items = answer.body.items as { id: string }[];
    expect(items.length).toBeLessThanOrEqual(SHOWCASE_LIMIT);
    const ids = items.map((i) => i.id);
    // The newest in the gallery first.
    expect(ids.indexOf(custom.finishedId)).toBeLessThan(ids.indexOf(repro.finishedId));
    expect(ids).not.toContain(hidden.finishedId);
    for (const photo of customPhotos.filter((p) => p.kind === 'customer')) expect(ids).not.toContain(photo.id);
    expect(items.find((i) => i.id === custom.finishedId)).toEqual({
      id: custom.finishedId,
      kind: 'custom',
      style: 'vangogh',
      size: expect.any(String),
      orientation: expect.stringMatching(/^(portrait|landscape)$/),
      artworkSlug: null,
      artworkTitle: null,
      artistName: null,
      url: `/images/showcase/${custom.finishedId}`,
      at: expect.stringMatching(/Z$/),
    });
    expect(items.find((i) => i.id === repro.finishedId)).toMatchObject({
      kind: 'reproduction',
      style: null,
      artworkSlug: expect.any(String),
      artworkTitle: expect.any(String),
      artistName: expect.any(String),
    });
    // Nothing that names or reaches the customer or the order.
    const text = JSON.stringify(answer.body);
    for (const secret of [customerName, galleryCustomer.email, galleryCustomer.address, repro.code, custom.code, '/v1/admin', '/v1/orders']) expect(text).not.toContain(secret);

    // Taken down: gone at once, although /v1 keeps public answers in its response cache.
    await mark(custom.code, custom.finishedId, false);
    expect((await gallery('fr')).body.items.map((i: { id: string }) => i.id)).not.toContain(custom.finishedId);
    // A customer who withdraws consent takes every photo of the order out, without staff.
    await db().order.update({ where: { code: repro.code }, data: { showcaseConsent: false } });
    expect((await gallery('fr')).body.items.map((i: { id: string }) => i.id)).not.toContain(repro.finishedId);
    expectError(await rest('GET', '/showcase', { query: { locale: 'xx' } }), 400, 'invalid_input');
  });
});

describe('the gallery image route', () => {
  test('draws a shown photo at the allowed widths, without its metadata, cached publicly but briefly', async () => {
    const { code, finishedId } = await finishedOrder({ consent: true });
    await mark(code, finishedId, true);
    const served = await image(finishedId, '320');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=300');
    const meta = await sharp(served.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 240 });
    expect(meta.exif).toBeUndefined();
    // Without w: the width `url` names; kept on disk, the second answer is the same.
    const plain = await image(finishedId);
    expect((await sharp(plain.bytes).metadata()).width).toBe(960);
    expect((await image(finishedId)).bytes.equals(plain.bytes)).toBe(true);
    // Never enlarged.
    expect((await sharp((await image(finishedId, '1600')).bytes).metadata()).width).toBe(1200);
    expect((await image(finishedId, '123')).status).toBe(400);
  });

  test('is 404 for anything not shown now: a finished photo not shown, a customer photo, a sketch, an unknown id, and after taking down', async () => {
    const custom = await finishedOrder({ consent: true, kind: 'custom' });
    const detail = await orderForStaff(db(), custom.code);
    const customerPhoto = detail.photos.find((p) => p.kind === 'customer')!;
    await changeStatus(custom.code, { status: 'paid' });
    await changeStatus(custom.code, { status: 'sketching' });
    const sketch = await addPhoto(custom.code, 'sketch', await jpeg(200, 300));
    // Even a row forced past the service's checks never serves a customer's photo (the database refuses it).
    await expect(db().orderPhoto.update({ where: { uploadId: customerPhoto.id }, data: { showcasedAt: new Date() } })).rejects.toThrow();
    const notShown = await finishedOrder({ consent: true });
    for (const id of [customerPhoto.id, sketch.body.id, notShown.finishedId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', '..%2F..%2Fetc']) {
      const answer = await image(id, '640');
      expect(answer.status, id).toBe(404);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }

    await mark(custom.code, custom.finishedId, true);
    expect((await image(custom.finishedId, '640')).status).toBe(200);
    await mark(custom.code, custom.finishedId, false);
    expect((await image(custom.finishedId, '640')).status).toBe(404);
    // Shown again: served again (drawn anew, not from what was kept before).
    await mark(custom.code, custom.finishedId, true);
    expect((await image(custom.finishedId, '640')).status).toBe(200);
    // Consent withdrawn: 404 at once.
    await db().order.update({ where: { code: custom.code }, data: { showcaseConsent: false } });
    expect((await image(custom.finishedId, '640')).status).toBe(404);
  });
});

describe('the customer allows showing, or takes it back (POST /v1/orders/{code}/showcase-consent)', () => {
  const consent = (code: string, body: Record<string, unknown>) => rest('POST', `/orders/${code}/showcase-consent`, { json: body });
  const inGallery = async (id: string) => (await gallery()).body.items.some((item: { id: string }) => item.id === id);

  test('given on a delivered order, the studio may show the painting; taken back, it leaves the gallery at once', async () => {
    const { code, finishedId } = await finishedOrder({ consent: false });
    await changeStatus(code, { status: 'delivered' });
    expectError(await mark(code, finishedId, true), 409, 'invalid_transition');
    const events = async () => (await rest('GET', `/orders/${code}`, { query: { email: galleryCustomer.email } })).body.order.events.length;
    const before = await events();

    const allowed = await consent(code, { email: galleryCustomer.email.toUpperCase(), consent: true });
    expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
    expect(allowed.body.order).toMatchObject({ code, status: 'delivered', showcaseConsent: true });
    expect((await mark(code, finishedId, true)).status).toBe(200);
    expect(await inGallery(finishedId)).toBe(true);

    // Taken back: out of the gallery and its picture gone, though staff never took it down; asked twice, the same answer.
    for (let i = 0; i < 2; i++) expect((await consent(code, { email: galleryCustomer.email, consent: false })).body.order.showcaseConsent).toBe(false);
    expect(await inGallery(finishedId)).toBe(false);
    expect((await image(finishedId, '640')).status).toBe(404);
    // Nothing on the customer's timeline: a permission, not a step of the work.
    expect(await events()).toBe(before);
  });

  test("a wrong e-mail is the lookup's 404, bad input 400, a cancelled order may only take it back; nothing changes", async () => {
    const code = await newOrder('reproduction', { showcaseConsent: false, customer: galleryCustomer });
    expectError(await consent(code, { email: 'someone.else@example.com', consent: true }), 404, 'not_found');
    expectError(await consent('ZZZZZZZZZZ', { email: galleryCustomer.email, consent: true }), 404, 'not_found');
    expectError(await consent(code, { email: galleryCustomer.email, consent: 'yes' }), 400, 'invalid_input');
    expectError(await consent(code, { email: galleryCustomer.email }), 400, 'invalid_input');
    expect((await db().order.findUniqueOrThrow({ where: { code } })).showcaseConsent).toBe(false);

    const cancelled = await newOrder('reproduction', { showcaseConsent: true, customer: galleryCustomer });
    await changeStatus(cancelled, { status: 'cancelled' });
    expectError(await consent(cancelled, { email: galleryCustomer.email, consent: true }), 409, 'invalid_transition');
    expect((await consent(cancelled, { email: galleryCustomer.email, consent: false })).body.order.showcaseConsent).toBe(false);
  });
});

describe('the OpenAPI document', () => {
  test('describes the gallery and the staff operation', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const read = doc.paths['/showcase'].get;
    expect(read.security ?? []).not.toContainEqual({ staffToken: [] });
    expect(read.parameters.map((p: { name: string }) => p.name)).toEqual(['locale']);
    expect(read.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Showcase' });
    expect(JSON.stringify(doc.components.schemas.Showcase)).toContain('ShowcaseItem');
    expect(doc.components.schemas.ShowcaseItem.required).toEqual(expect.arrayContaining(['id', 'kind', 'style', 'size', 'orientation', 'artworkSlug', 'url', 'at']));

    const change = doc.paths['/admin/orders/{code}/photos/{id}/showcase'].post;
    expect(change.security).toEqual([{ staffToken: [] }]);
    expect(change.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`).sort()).toEqual(['path code', 'path id']);
    expect(change.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ShowcaseChange' });
    expect(doc.components.schemas.ShowcaseChange.required).toEqual(['showcased']);
    expect(change.responses['409'].description).toMatch(/finished/);
    expect(change.responses['404']).toBeDefined();
    expect(change.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StaffOrderPhoto' });
    expect(doc.components.schemas.StaffOrderPhoto.required).toContain('showcasedAt');
  });
});
