import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { Basket, type BasketEntry } from '@/shared/basket-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';
import { startLocalIssuer, useLocalIssuer } from '../support/google';
import { rest } from '../support/rest';

/** The signed-in shopper's basket (decisions.md "A basket"): GET, PUT and POST …/merge of /v1/account/basket. */

const issuer = await startLocalIssuer();
useLocalIssuer(issuer);
afterAll(() => issuer.stop());

const COOKIE = 'next-auth.session-token';

/** A Google identity of this test alone (other test files share the database). */
function person(label: string) {
  const id = randomUUID().slice(0, 8);
  return { sub: `g-${label}-${id}`, email: `${label}-${id}@basket.test`, name: `Tester ${label}` };
}

async function signIn(label: string) {
  const answer = await rest('POST', '/account/auth/google', { json: { credential: await issuer.idToken(person(label)) } });
  expect(answer.status).toBe(200);
  const set = answer.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!;
  const token = set.slice(COOKIE.length + 1).split(';')[0]!;
  return { userId: answer.body.user.id as string, headers: { cookie: `${COOKIE}=${token}` } };
}

type EntryInput = Record<string, unknown> & { id: string };

const addedAt = (minute: number) => `2026-12-02T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** A reproduction put aside, as the browser sends it. */
const reproduction = (minute = 0, item: Record<string, unknown> = {}): EntryInput => ({
  id: randomUUID(),
  item: { kind: 'reproduction', artworkSlug: 'the-starry-night', size: '50x70', frame: 'stretched', ...item },
  addedAt: addedAt(minute),
});

const THUMBNAIL =
  'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHR8eHR0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

/** A custom painting put aside, with its photo's upload id and the browser's small picture of it. */
const custom = (minute = 0, uploadId: string = randomUUID()): EntryInput => ({
  id: randomUUID(),
  item: { kind: 'custom', uploadId, style: 'vangogh', subjects: 2, size: '30x40', frame: 'rolled', notes: 'Our dog, please' },
  addedAt: addedAt(minute),
  uploadedAt: addedAt(minute),
  thumbnail: THUMBNAIL,
});

/** What the shop answers for these entries: the shared schema's output (its defaults filled in). */
const basketOf = (entries: EntryInput[]) => Basket.parse({ entries });
const idsOf = (answer: { body: { entries: BasketEntry[] } }) => answer.body.entries.map((e) => e.id);

const put = (headers: Record<string, string>, entries: unknown[]) => rest('PUT', '/account/basket', { headers, json: { entries } });
const merge = (headers: Record<string, string>, entries: unknown[]) => rest('POST', '/account/basket/merge', { headers, json: { entries } });
const get = (headers: Record<string, string>) => rest('GET', '/account/basket', { headers });

function expectInvalid(answer: { status: number; body: any }, naming: string) {
  expect(answer.status).toBe(400);
  expect(Object.keys(answer.body)).toEqual(['error']);
  expect(answer.body.error).toMatchObject({ code: 'invalid_input', message: expect.any(String) });
  expect(answer.body.error.message).toContain(naming);
}

describe('/v1/account/basket signed out', () => {
  test('every basket operation is 401 unauthorized with the error body, without a session or with one that does not exist', async () => {
    for (const headers of [undefined, { cookie: `${COOKIE}=${'0'.repeat(64)}` }]) {
      for (const answer of [
        await rest('GET', '/account/basket', { headers }),
        await rest('PUT', '/account/basket', { headers, json: { entries: [reproduction()] } }),
        await rest('POST', '/account/basket/merge', { headers, json: { entries: [reproduction()] } }),
      ]) {
        expect(answer.status).toBe(401);
        expect(Object.keys(answer.body)).toEqual(['error']);
        expect(answer.body.error).toEqual({ code: 'unauthorized', message: expect.any(String) });
      }
    }
  });
});

describe('GET and PUT /v1/account/basket', () => {
  test('an account that never saved a basket has an empty one', async () => {
    const { headers, userId } = await signIn('empty');
    const answer = await get(headers);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ entries: [] });
    expect(await db().basket.findUnique({ where: { userId } })).toBeNull();
  });

  test('PUT replaces the whole list and GET reads it back: a reproduction and a custom item with its thumbnail', async () => {
    const { headers, userId } = await signIn('roundtrip');
    const entries = [reproduction(1, { orientation: 'landscape', fit: 'crop', showcaseConsent: true }), custom(2)];
    const saved = await put(headers, entries);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(basketOf(entries));
    expect(saved.body.entries[0]).toMatchObject({ uploadedAt: null, thumbnail: null, item: { fit: 'crop', orientation: 'landscape' } });
    expect(saved.body.entries[1]).toMatchObject({ thumbnail: THUMBNAIL, uploadedAt: addedAt(2), item: { kind: 'custom', notes: 'Our dog, please' } });
    expect((await get(headers)).body).toEqual(saved.body);
    const row = await db().basket.findUniqueOrThrow({ where: { userId } });
    expect(row.entries).toEqual(saved.body.entries);

    // The whole list each time: what is not given is gone, and an empty list empties the basket.
    const next = [custom(3)];
    expect((await put(headers, next)).body).toEqual(basketOf(next));
    expect((await get(headers)).body).toEqual(basketOf(next));
    expect((await put(headers, [])).body).toEqual({ entries: [] });
    expect((await get(headers)).body).toEqual({ entries: [] });
  });

  test('two entries with one id are refused, naming the entry, and nothing is saved', async () => {
    const { headers } = await signIn('same-id');
    const before = [reproduction(1)];
    await put(headers, before);
    const twice = reproduction(2);
    const answer = await put(headers, [reproduction(0), twice, custom(3), { ...reproduction(4), id: twice.id }]);
    expectInvalid(answer, 'entries[3].id');
    expect(answer.body.error.message).toContain('entries[1]');
    expect((await get(headers)).body).toEqual(basketOf(before));
  });

  test('two custom items with one photo are refused, naming the entry', async () => {
    const { headers } = await signIn('same-photo');
    const photo = randomUUID();
    expectInvalid(await put(headers, [custom(1, photo), reproduction(2), custom(3, photo)]), 'entries[2].item.uploadId');
    expect((await get(headers)).body).toEqual({ entries: [] });
  });

  test(`more than ${MAX_CHECKOUT_ITEMS} entries are refused`, async () => {
    const { headers } = await signIn('eleven');
    const eleven = Array.from({ length: MAX_CHECKOUT_ITEMS + 1 }, (_, i) => reproduction(i));
    expectInvalid(await put(headers, eleven), 'entries');
    expectInvalid(await merge(headers, eleven), 'entries');
    expect((await get(headers)).body).toEqual({ entries: [] });
    const ten = eleven.slice(0, MAX_CHECKOUT_ITEMS);
    expect((await put(headers, ten)).body).toEqual(basketOf(ten));
  });

  test('a thumbnail that is not a data: address of a picture is refused, naming the entry', async () => {
    const { headers } = await signIn('thumbnail');
    for (const thumbnail of ['https://evil.example/photo.jpg', 'data:text/html;base64,PGgxPmhpPC9oMT4=', `data:image/png;base64,${'A'.repeat(5000)}`]) {
      expectInvalid(await put(headers, [reproduction(0), { ...custom(1), thumbnail }]), 'entries[1].thumbnail');
    }
    expectInvalid(await merge(headers, [{ ...custom(1), thumbnail: 'javascript:alert(1)' }]), 'entries[0].thumbnail');
    expect((await get(headers)).body).toEqual({ entries: [] });
  });

  test('an item the checkout would not take is refused, naming its field', async () => {
    const { headers } = await signIn('bad-item');
    expectInvalid(await put(headers, [reproduction(0, { size: '1x1' })]), 'entries[0].item');
    expectInvalid(await put(headers, [{ ...reproduction(0), id: 'not-a-uuid' }]), 'entries[0].id');
  });

  test('a stored entry the shared schema no longer takes is left out of the answer, the others kept', async () => {
    const { headers, userId } = await signIn('stale');
    const entries = [reproduction(1), reproduction(2)];
    await put(headers, entries);
    const stored = basketOf(entries).entries;
    await db().basket.update({ where: { userId }, data: { entries: [stored[0]!, { ...stored[1]!, item: { ...stored[1]!.item, size: 'retired-size' } }] as never } });
    expect((await get(headers)).body).toEqual({ entries: [stored[0]] });
  });
});

describe('POST /v1/account/basket/merge', () => {
  test("the account's entries first, then the new ones in their order; repeats by id and by photo ignored", async () => {
    const { headers } = await signIn('merge');
    const photo = randomUUID();
    const kept = [reproduction(1), custom(2, photo)];
    await put(headers, kept);
    const fresh = [reproduction(5, { size: '30x40' }), custom(6)];
    const local = [
      { ...reproduction(3, { size: '90x120' }), id: kept[0]!.id }, // the same entry, changed in the browser: the account's stays
      fresh[0]!,
      custom(4, photo), // the same photo under another id
      fresh[1]!,
      { ...fresh[0]!, addedAt: addedAt(9) }, // a repeat within the list given
    ];
    const merged = await merge(headers, local);
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual(basketOf([...kept, ...fresh]));
    expect((await get(headers)).body).toEqual(merged.body);
  });

  test(`the merged list is cut at ${MAX_CHECKOUT_ITEMS}: the account's all kept, the given ones that do not fit dropped`, async () => {
    const { headers } = await signIn('cut');
    const kept = Array.from({ length: 4 }, (_, i) => reproduction(i));
    await put(headers, kept);
    const local = Array.from({ length: 8 }, (_, i) => custom(10 + i));
    const merged = await merge(headers, local);
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual(basketOf([...kept, ...local.slice(0, MAX_CHECKOUT_ITEMS - kept.length)]));

    // A full basket takes nothing more.
    const full = await merge(headers, [reproduction(30)]);
    expect(idsOf(full)).toEqual(idsOf(merged));
  });

  test('an account with no basket yet takes the list given; an empty list changes nothing', async () => {
    const { headers } = await signIn('merge-first');
    const local = [reproduction(1), custom(2)];
    expect((await merge(headers, local)).body).toEqual(basketOf(local));
    expect((await merge(headers, [])).body).toEqual(basketOf(local));
  });

  test('two merges at once lose nothing, with and without a basket stored before', async () => {
    for (const stored of [0, 1]) {
      for (let round = 0; round < 3; round++) {
        const { headers } = await signIn(`race-${stored}-${round}`);
        const kept = stored ? [reproduction(0)] : [];
        if (stored) await put(headers, kept);
        const tabA = [reproduction(1), custom(2), reproduction(3)];
        const tabB = [custom(4), reproduction(5), custom(6)];
        const [a, b] = await Promise.all([merge(headers, tabA), merge(headers, tabB)]);
        expect([a.status, b.status]).toEqual([200, 200]);
        const final = await get(headers);
        const ids = idsOf(final);
        expect(ids.slice(0, kept.length)).toEqual(kept.map((e) => e.id));
        expect([...ids].sort()).toEqual([...kept, ...tabA, ...tabB].map((e) => e.id).sort());
        // The one that ran second answered the whole merged basket.
        expect([a.body, b.body]).toContainEqual(final.body);
      }
    }
  });
});

describe("one account's basket", () => {
  test("another user's basket is never read nor changed", async () => {
    const alice = await signIn('alice');
    const bob = await signIn('bob');
    const hers = [reproduction(1), custom(2)];
    await put(alice.headers, hers);
    expect((await get(bob.headers)).body).toEqual({ entries: [] });
    await put(bob.headers, [reproduction(3)]);
    await merge(bob.headers, [custom(4), { ...hers[0]! }]);
    await put(bob.headers, []);
    expect((await get(alice.headers)).body).toEqual(basketOf(hers));
  });

  test('deleting the user deletes the basket', async () => {
    const { headers, userId } = await signIn('deleted');
    await put(headers, [reproduction(1)]);
    expect(await db().basket.count({ where: { userId } })).toBe(1);
    await db().user.delete({ where: { id: userId } });
    expect(await db().basket.count({ where: { userId } })).toBe(0);
  });
});
