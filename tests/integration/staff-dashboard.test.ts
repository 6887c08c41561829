import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import { db, type Db } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import { changeOrderFromDashboard, orderBoard, orderForStaff } from '@/server/orders/board';
import { PhotoAddresses } from '@/server/orders/photos';
import { createOrder, lookupOrder } from '@/server/orders/service';
import { changeOrderStatus } from '@/server/orders/status';
import { signIn, signOut, staffPhoto, staffTrpc } from '@/server/staff/handlers';
import { isStaffSession, newStaffSession, STAFF_SESSION_SECONDS } from '@/server/staff/session';
import { CreateOrder } from '@/shared/order-schema';
import { orderStatuses, statusChain } from '@/shared/orders';
import { ownDatabase } from '../support/database';
import { reproduction } from '../support/orders';
import { paying } from '../support/payment';
import { photos, uploadedPhoto } from '../support/photos';
import { newOrder } from '../support/staff';

/**
 * The staff dashboard's server side: its session cookie, its board and order queries, and that
 * every /staff data route refuses a browser without a live session (or a write from another site).
 */

const SITE = 'http://shop.test';
const TOKEN = process.env.ADMIN_TOKEN!;

const signInRequest = (token: string, headers: Record<string, string> = { origin: SITE }, next?: string) =>
  new Request(`${SITE}/staff/api/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ token, locale: 'fr', ...(next ? { next } : {}) }),
  });

/** The cookie pair (`name=value`) a sign-in answer sets. */
const cookieOf = (answer: Response) => answer.headers.get('set-cookie')?.split(';')[0] ?? '';

async function signedInCookie(): Promise<string> {
  const answer = await signIn(signInRequest(TOKEN));
  expect(answer.status).toBe(303);
  return cookieOf(answer);
}

/** A call of the dashboard's tRPC endpoint as the browser's client makes it. */
function trpc(path: string, input: unknown, options: { cookie?: string; method?: 'GET' | 'POST'; origin?: string | null } = {}) {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin !== null && method === 'POST') headers.origin = options.origin ?? SITE;
  const url = method === 'GET' ? `${SITE}/staff/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}` : `${SITE}/staff/api/trpc/${path}`;
  return staffTrpc(new Request(url, { method, headers, body: method === 'POST' ? JSON.stringify(input) : undefined }));
}

describe('the dashboard session cookie', () => {
  test('the right token sets an httpOnly, SameSite=Strict cookie scoped to /staff that is not the token, and goes on to the dashboard', async () => {
    const answer = await signIn(signInRequest(`  ${TOKEN} `, { origin: SITE }, '/staff/fr/orders/ABC123'));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/staff/fr/orders/ABC123');
    const cookie = answer.headers.get('set-cookie')!;
    // A random id (256 bits), not a value computed from the token.
    expect(cookie).toMatch(/^atelier-staff=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('Path=/staff');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Secure');
    expect(cookie).not.toContain(TOKEN);
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    const maxAge = Number(/Max-Age=(\d+)/.exec(cookie)![1]);
    expect(maxAge).toBeGreaterThan(STAFF_SESSION_SECONDS - 10);
    expect(maxAge).toBeLessThanOrEqual(STAFF_SESSION_SECONDS);
  });

  test('over https the cookie is Secure and __Secure- prefixed, and only that name is read', async () => {
    const https = parseEnv({ ...process.env, PUBLIC_BASE_URL: 'https://prints.example' });
    const answer = await signIn(signInRequest(TOKEN, { origin: 'https://prints.example' }), https);
    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Secure-atelier-staff=/);
    expect(cookie).toContain('; Secure');
    const value = cookieOf(answer).split('=')[1]!;
    expect((await staffTrpc(new Request(`${SITE}/staff/api/trpc/board?input=%7B%7D`, { headers: { cookie: `__Secure-atelier-staff=${value}` } }), https)).status).toBe(200);
    expect((await staffTrpc(new Request(`${SITE}/staff/api/trpc/board?input=%7B%7D`, { headers: { cookie: `atelier-staff=${value}` } }), https)).status).toBe(401);
  });

  test('a wrong token, an empty one, or a sign-in posted from another site sets no cookie', async () => {
    for (const [request, error] of [
      [signInRequest(`${TOKEN}x`), 'token'],
      [signInRequest(''), 'token'],
      [signInRequest(TOKEN, { origin: 'https://evil.example' }), 'origin'],
      [signInRequest(TOKEN, {}), 'origin'],
      [signInRequest(TOKEN, { origin: SITE, 'sec-fetch-site': 'cross-site' }), 'origin'],
    ] as const) {
      const answer = await signIn(request);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe(`/staff/fr/sign-in?error=${error}`);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });

  test('the origin is checked against the host the browser addressed (Host), as `next start` builds request.url on localhost', async () => {
    const behind = (origin: string) =>
      new Request('http://localhost:3000/staff/api/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'shop.test:8080', origin },
        body: new URLSearchParams({ token: TOKEN, locale: 'en' }),
      });
    expect((await signIn(behind('http://shop.test:8080'))).headers.get('set-cookie')).toMatch(/^atelier-staff=/);
    expect((await signIn(behind('http://localhost:3000'))).headers.get('set-cookie')).toBeNull();
    expect((await signIn(behind('http://shop.test'))).headers.get('set-cookie')).toBeNull();
  });

  test('with no ADMIN_TOKEN configured nobody can sign in', async () => {
    const closed = parseEnv({ ...process.env, ADMIN_TOKEN: '' });
    const answer = await signIn(signInRequest(''), closed);
    expect(answer.headers.get('set-cookie')).toBeNull();
  });

  test("a session's token tag is keyed by the server's secret, not by the token: a copy of the table tests no guess", async () => {
    const { value } = await newStaffSession(db(), TOKEN, new Date(), 'server-secret-a');
    expect(await isStaffSession(db(), value, TOKEN, new Date(), 'server-secret-a')).toBe(true);
    // Another server secret (rotated, or another shop's): the same token no longer opens it.
    expect(await isStaffSession(db(), value, TOKEN, new Date(), 'server-secret-b')).toBe(false);
    const { tokenTag } = await db().staffSession.findFirstOrThrow({ where: { idHash: createHash('sha256').update(value).digest('hex') } });
    // What the tag was: an HMAC keyed by the token itself, which anyone holding a dump could recompute for a guess.
    expect(tokenTag).not.toBe(createHmac('sha256', TOKEN).update('atelier-prints staff session token tag v1').digest('hex'));
    expect(tokenTag).not.toContain(TOKEN);
  });

  test('a live session reads the board; a tampered, unknown, expired or rotated-token session does not', async () => {
    const cookie = await signedInCookie();
    expect((await trpc('board', {}, { cookie })).status).toBe(200);

    const [name, value] = cookie.split('=') as [string, string];
    const flipped = `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    const expired = (await newStaffSession(db(), TOKEN, new Date(Date.now() - STAFF_SESSION_SECONDS * 1000 - 1000))).value;
    const rotated = (await newStaffSession(db(), 'the-token-before-rotation')).value;
    // What the old cookie was: an expiry and an HMAC keyed from the token. Nothing computed from the token opens a session now.
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const key = createHmac('sha256', TOKEN).update('atelier-prints staff dashboard session v1').digest();
    const signedTheOldWay = `${expires}.${createHmac('sha256', key).update(`staff-session.${expires}`).digest('base64url')}`;
    for (const bad of [
      `${name}=${flipped}`, // id tampered
      `${name}=${crypto.randomUUID().replace(/-/g, '')}abcdefghijk`, // never issued
      `${name}=${expired}`,
      `${name}=${rotated}`, // signed in with a token that is no longer ADMIN_TOKEN
      `${name}=${signedTheOldWay}`,
      `${name}=${TOKEN}`, // the raw token is not a session
      `${name}=`,
      `other=${value}`,
    ]) {
      const answer = await trpc('board', {}, { cookie: bad });
      expect(answer.status, bad).toBe(401);
    }
  });

  test('the session is a server-side row: the cookie holds a random id whose hash is stored, never the id itself', async () => {
    const first = await signedInCookie();
    const second = await signedInCookie();
    expect(first).not.toBe(second);
    const id = first.split('=')[1]!;
    const rows = await db().staffSession.findMany({ where: { idHash: { in: [id] } } });
    expect(rows).toHaveLength(0);
    const { createHash } = await import('node:crypto');
    expect(await db().staffSession.count({ where: { idHash: createHash('sha256').update(id).digest('hex') } })).toBe(1);
  });

  test('sign-out deletes the session: a copy of the cookie kept elsewhere stops working too', async () => {
    const cookie = await signedInCookie();
    expect((await trpc('board', {}, { cookie })).status).toBe(200);
    const answer = await signOut(
      new Request(`${SITE}/staff/api/sign-out`, { method: 'POST', headers: { origin: SITE, cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'locale=en' }),
    );
    expect(answer.headers.get('location')).toBe('/staff/en/sign-in?signedOut=1');
    expect((await trpc('board', {}, { cookie })).status).toBe(401);
  });

  test('"sign out everywhere" ends every dashboard session, and needs a live session of its own', async () => {
    // A database of its own: ending every session must not sign out other test files' dashboards.
    const own = await ownDatabase('sessions');
    try {
      const signedIn = async () => cookieOf(await signIn(signInRequest(TOKEN), undefined, own.db));
      const board = (cookie: string) => staffTrpc(new Request(`${SITE}/staff/api/trpc/board?input=%7B%7D`, { headers: { cookie } }), undefined, own.db);
      const mine = await signedIn();
      const colleagues = await signedIn();
      const everywhere = (cookie: string | null) =>
        signOut(
          new Request(`${SITE}/staff/api/sign-out`, {
            method: 'POST',
            headers: { origin: SITE, ...(cookie ? { cookie } : {}), 'content-type': 'application/x-www-form-urlencoded' },
            body: 'locale=de&scope=everywhere',
          }),
          undefined,
          own.db,
        );
      // Anyone on this site (no session) cannot sign the studio out.
      expect((await everywhere(null)).headers.get('location')).toBe('/staff/de/sign-in');
      expect((await everywhere('atelier-staff=not-a-session')).headers.get('location')).toBe('/staff/de/sign-in');
      expect((await board(colleagues)).status).toBe(200);

      const answer = await everywhere(mine);
      expect(answer.status).toBe(303);
      expect(answer.headers.get('location')).toBe('/staff/de/sign-in?signedOut=everywhere');
      expect(answer.headers.get('set-cookie')).toMatch(/Max-Age=0/);
      expect((await board(mine)).status).toBe(401);
      expect((await board(colleagues)).status).toBe(401);
      expect(await own.db.staffSession.count()).toBe(0);
    } finally {
      await own.drop();
    }
  });

  test('rotating ADMIN_TOKEN signs every dashboard out', async () => {
    const cookie = await signedInCookie();
    const rotated = parseEnv({ ...process.env, ADMIN_TOKEN: 'a-fresh-token-after-rotation' });
    expect((await staffPhoto(new Request(`${SITE}/staff/api/photos/x`, { headers: { cookie } }), 'x', rotated)).status).toBe(401);
    expect((await staffPhoto(new Request(`${SITE}/staff/api/photos/x`, { headers: { cookie } }), 'x')).status).toBe(400);
  });

  test('sign-out clears the cookie on the same path', async () => {
    const answer = await signOut(
      new Request(`${SITE}/staff/api/sign-out`, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/x-www-form-urlencoded' }, body: 'locale=ja' }),
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/staff/ja/sign-in?signedOut=1');
    expect(answer.headers.get('set-cookie')).toMatch(/^atelier-staff=; Path=\/staff; HttpOnly; SameSite=Strict; .*Max-Age=0/);
  });

  test('a refused sign-in goes back to the form still knowing where the visit was going', async () => {
    const answer = await signIn(signInRequest('wrong', { origin: SITE }, '/staff/fr/catalog'));
    expect(answer.headers.get('location')).toBe('/staff/fr/sign-in?error=token&next=%2Fstaff%2Ffr%2Fcatalog');
  });

  test('a return address that leaves the dashboard is ignored', async () => {
    for (const next of ['https://evil.example/staff/en', '//evil.example/staff/en', '/en/account', '/staff/en/sign-in']) {
      const answer = await signIn(signInRequest(TOKEN, { origin: SITE }, next));
      expect(answer.headers.get('location'), next).toBe('/staff/fr');
    }
  });
});

describe('authorization on every /staff data route', () => {
  let code: string;
  beforeAll(async () => {
    code = await newOrder();
  });

  const reads: [string, unknown][] = [
    ['board', {}],
    ['order', { code: 'ABC' }],
    ['pipeline.stats', {}],
  ];
  const writes: [string, unknown][] = [
    ['changeOrder', { code: 'ABC', version: 1, status: 'paid' }],
    ['pipeline.publish', { count: 1 }],
    ['pipeline.refreshCounts', {}],
  ];

  test('without a session every procedure and the photo route answer 401 and change nothing', async () => {
    for (const [path, input] of reads) expect((await trpc(path, input)).status, path).toBe(401);
    for (const [path, input] of writes) expect((await trpc(path, input, { method: 'POST' })).status, path).toBe(401);
    const change = await trpc('changeOrder', { code, version: 1, status: 'paid' }, { method: 'POST' });
    expect(change.status).toBe(401);
    expect((await orderForStaff(db(), code)).status).toBe('pending');
    const photo = await staffPhoto(new Request(`${SITE}/staff/api/photos/${crypto.randomUUID()}`), crypto.randomUUID());
    expect(photo.status).toBe(401);
  });

  test('the Bearer header of /v1 does not open the dashboard routes: only the cookie does', async () => {
    const answer = await staffTrpc(new Request(`${SITE}/staff/api/trpc/board?input=%7B%7D`, { headers: { authorization: `Bearer ${TOKEN}` } }));
    expect(answer.status).toBe(401);
  });

  test('with a session, reads pass; writes pass only from this site (Origin), never cross-site or without Origin', async () => {
    const cookie = await signedInCookie();
    for (const [path, input] of reads.slice(0, 1).concat(reads.slice(2))) expect((await trpc(path, input, { cookie })).status, path).toBe(200);
    expect((await trpc('order', { code }, { cookie })).status).toBe(200);

    for (const origin of ['https://evil.example', null]) {
      const refused = await trpc('changeOrder', { code, version: 1, status: 'paid' }, { cookie, method: 'POST', origin });
      expect(refused.status, String(origin)).toBe(401);
      expect((await trpc('pipeline.refreshCounts', {}, { cookie, method: 'POST', origin })).status).toBe(401);
    }
    const moved = await trpc('changeOrder', { code, version: 1, status: 'paid', note: 'Paid by bank transfer' }, { cookie, method: 'POST' });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(((await moved.json()) as { result: { data: { status: string } } }).result.data.status).toBe('paid');
    expect(moved.headers.get('cache-control')).toBe('private, no-store');
    expect((await trpc('pipeline.refreshCounts', {}, { cookie, method: 'POST' })).status).toBe(200);
  });

  test('the customer photo is served to a session through the staff-only upload read', async () => {
    const cookie = await signedInCookie();
    const id = await uploadedPhoto();
    const answer = await staffPhoto(new Request(`${SITE}/staff/api/photos/${id}`, { headers: { cookie } }), id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/jpeg');
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await answer.arrayBuffer()).equals(photos.jpeg)).toBe(true);
    expect((await staffPhoto(new Request(`${SITE}/staff/api/photos/${crypto.randomUUID()}`, { headers: { cookie } }), crypto.randomUUID())).status).toBe(404);
  });
});

describe('the orders board', () => {
  let own: Awaited<ReturnType<typeof ownDatabase>>;
  const codes: string[] = [];
  const order = (db: Db, name: string, email: string) =>
    createOrder(db, CreateOrder.parse(reproduction({ customer: { name, email, address: '1 Rue de la Paix', city: 'Paris', postalCode: '75002', country: 'fr' } })));

  beforeAll(async () => {
    own = await ownDatabase('board');
    // 30 orders, oldest first: Ada ×12, Berthe Morisot ×10, Claude ×8.
    for (let i = 0; i < 30; i++) {
      const who = i < 12 ? ['Ada Lovelace', `ada${i}@example.com`] : i < 22 ? ['Berthe Morisot', `berthe${i}@peintres.fr`] : ['Claude Monet', `claude${i}@giverny.fr`];
      codes.push((await order(own.db, who[0]!, who[1]!)).code);
    }
    for (const code of codes.slice(0, 5)) await changeOrderStatus(own.db, code, { status: 'paid' });
    for (const code of codes.slice(5, 7)) await changeOrderStatus(own.db, code, { status: 'shipped', trackingNumber: 'TRK' });
    await changeOrderStatus(own.db, codes[7]!, { status: 'cancelled' });
  });
  afterAll(async () => {
    await own.drop();
  });

  test('counts every status, lists newest first, a page at a time', async () => {
    const board = await orderBoard(own.db, {}, 25);
    expect(board.counts).toEqual({ ...Object.fromEntries(orderStatuses.map((s) => [s, 0])), pending: 22, paid: 5, shipped: 2, cancelled: 1 });
    expect(board.all).toBe(30);
    expect(board.total).toBe(30);
    expect(board.items.map((o) => o.code)).toEqual([...codes].reverse().slice(0, 25));
    expect(board.items[0]).toMatchObject({ kind: 'reproduction', size: '50x70', frame: 'stretched', artworkTitle: 'The Starry Night', customer: { country: 'FR' } });
    const second = await orderBoard(own.db, { page: 2 }, 25);
    expect(second.items.map((o) => o.code)).toEqual([...codes].reverse().slice(25));
    expect((await orderBoard(own.db, { page: 3 }, 25)).items).toEqual([]);
  });

  test('a status tab lists that status only, the counts stay those of every status', async () => {
    const paid = await orderBoard(own.db, { status: 'paid' });
    expect(paid.items.map((o) => o.code)).toEqual(codes.slice(0, 5).reverse());
    expect(paid.total).toBe(5);
    expect(paid.counts.pending).toBe(22);
  });

  test('search finds by the start of a code (any case, look-alikes folded), part of an e-mail, or part of a name', async () => {
    const code = codes[3]!;
    const typed = (text: string) => text.toLowerCase().replace(/0/g, 'o').replace(/1/g, 'l');
    expect((await orderBoard(own.db, { q: typed(code) })).items.map((o) => o.code)).toEqual([code]);
    expect((await orderBoard(own.db, { q: typed(code.slice(0, 5)) })).items.map((o) => o.code)).toContain(code);

    const byEmail = await orderBoard(own.db, { q: 'GIVERNY' });
    expect(byEmail.all).toBe(8);
    expect(byEmail.items.every((o) => o.customer.name === 'Claude Monet')).toBe(true);

    const byName = await orderBoard(own.db, { q: 'morisot' });
    expect(byName.all).toBe(10);
    // The counts follow the search: Berthe's orders are the 13th to 22nd, all pending.
    expect(byName.counts).toMatchObject({ pending: 10, paid: 0 });

    // "lovelace", not "ada": a random code may start with ADA, and search also reads codes' starts.
    const inTab = await orderBoard(own.db, { q: 'lovelace', status: 'shipped' });
    expect(inTab.items.map((o) => o.code)).toEqual([codes[6], codes[5]]);
    expect(inTab.counts).toMatchObject({ pending: 4, paid: 5, shipped: 2, cancelled: 1 });

    expect((await orderBoard(own.db, { q: 'nobody-like-this' })).all).toBe(0);
    // LIKE wildcards are matched literally, not as "anything".
    expect((await orderBoard(own.db, { q: '%' })).all).toBe(0);
  });

  test('the order page knows the moves the server allows, and refuses a change made on a page someone else has changed since', async () => {
    const code = codes[10]!;
    const first = await orderForStaff(own.db, code.toLowerCase());
    expect(first).toMatchObject({ code, status: 'pending', version: 1, artworkTitle: 'The Starry Night', photo: null });
    // Forward along the chain, skipping allowed, or cancelled (src/shared/orders.ts).
    expect(first.moves).toEqual([...statusChain.slice(1), 'cancelled']);

    // Two people open the page; one moves the order, the other then tries with what they saw.
    await changeOrderFromDashboard(own.db, { code, version: first.version, status: 'paid', note: 'Bank transfer arrived', locale: 'en' });
    await expect(changeOrderFromDashboard(own.db, { code, version: first.version, status: 'cancelled', locale: 'en' })).rejects.toMatchObject({
      code: 'invalid_transition',
      details: [{ path: 'version' }],
    });
    const now = await orderForStaff(own.db, code);
    expect(now).toMatchObject({ status: 'paid', version: 2 });
    expect(now.moves).toEqual([...statusChain.slice(2), 'cancelled']);

    const shipped = await changeOrderFromDashboard(own.db, { code, version: 2, status: 'shipped', trackingNumber: '1Z999', note: 'On its way', locale: 'en' });
    expect(shipped).toMatchObject({ status: 'shipped', trackingNumber: '1Z999', version: 3, moves: ['delivered'] });
    const lookup = await lookupOrder(own.db, code, 'ada10@example.com', { photos: new PhotoAddresses('test'), payment: paying({ online: false, instructions: null }) });
    expect(lookup.events.map((e) => [e.status, e.note])).toEqual([
      ['pending', null],
      ['paid', 'Bank transfer arrived'],
      ['shipped', 'On its way'],
    ]);
    const delivered = await changeOrderFromDashboard(own.db, { code, version: 3, status: 'delivered', locale: 'en' });
    expect(delivered.moves).toEqual([]);
  });
});
