import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ResponseCache, useResponseCache } from '@/server/api/response-cache';
import { recountCatalog } from '@/server/catalog/counts';
import { readCatalogVersion } from '@/server/catalog/version';
import { createDb, type Db } from '@/server/db/client';
import { publishRun } from '@/server/pipeline/publish';
import { translateTitles } from '@/server/pipeline/translations';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { STAFF } from '../support/photos';
import { rest } from '../support/rest';

/**
 * The in-process response cache of public catalog reads (src/server/api/response-cache.ts): two
 * "instances" are two database clients over one database, each with a cache of its own, as two
 * app servers would be. Whatever changes the catalog must reach both within the recheck bound,
 * and nothing queued may ever come out of a cache.
 */
let own: Awaited<ReturnType<typeof ownDatabase>>;
let a: Db;
let b: Db;
const RECHECK_MS = 300;
/** Both caches' clock (ms): the tests move it past the recheck bound instead of waiting it out. */
let clock = 0;
const now = () => clock;
const passRecheckBound = () => void (clock += RECHECK_MS + 1);
/** Queued works of these tests that are never published: no answer may name them. */
const leaks = (body: unknown) => JSON.stringify(body).match(/never-published-[a-z0-9-]+|Never Published/g) ?? [];
let serial = 0;

/** A queued work with an English story (ready to publish) whose title no published work shares. */
async function queuedWork(slug: string, title: string, popularity = 5_000) {
  const vanGogh = await a.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5582' } });
  return a.artwork.create({
    data: {
      slug,
      artistId: vanGogh.id,
      status: 'queued',
      popularity,
      wikidataId: `Q77${++serial}0${process.pid}`,
      texts: { create: catalogLocales.map((locale) => ({ locale, title: locale === 'en' ? title : null, story: locale === 'en' ? 'A story.' : null })) },
    },
  });
}

beforeAll(async () => {
  own = await ownDatabase('cache');
  a = own.db;
  b = createDb(own.url);
  useResponseCache(a, new ResponseCache(a, { maxBytes: 8 * 1024 * 1024, recheckMs: RECHECK_MS, now }));
  useResponseCache(b, new ResponseCache(b, { maxBytes: 8 * 1024 * 1024, recheckMs: RECHECK_MS, now }));
});
afterAll(async () => {
  await b.$disconnect();
  await own.drop();
});

describe('the catalog version', () => {
  test('is bumped at the commit of a change to a published work, and not by queued rows', async () => {
    const before = await readCatalogVersion(a);
    await queuedWork('version-probe', 'Version Probe');
    expect(await readCatalogVersion(a), 'a queued work changes nothing a shopper sees').toBe(before);

    const starry = await a.artwork.findUniqueOrThrow({ where: { slug: 'the-starry-night' } });
    await a.$transaction(async (tx) => {
      await tx.artwork.update({ where: { id: starry.id }, data: { popularity: { increment: 1 } } });
      await tx.artworkText.update({ where: { artworkId_locale: { artworkId: starry.id, locale: 'en' } }, data: { story: 'Changed inside a transaction.' } });
      // Another connection sees neither the change nor a new version before the commit.
      expect(await readCatalogVersion(b)).toBe(before);
    });
    const after = await readCatalogVersion(b);
    expect(BigInt(after), 'one transaction, one bump').toBe(BigInt(before) + 1n);
  });
});

describe('two instances over one database', () => {
  test('a publish reaches both caches within the recheck bound; a cached answer is served until then', async () => {
    const title = 'Lantern Nocturne';
    await queuedWork('lantern-nocturne', title, 1_000_000);
    const search = { q: 'lantern nocturne' };

    for (const db of [a, b]) {
      const first = await rest('GET', '/artworks', { query: search, db });
      expect(first.status).toBe(200);
      expect(first.body.items).toEqual([]);
      expect(leaks(first.body)).toEqual([]);
      const second = await rest('GET', '/artworks', { query: search, db });
      expect(second.headers.get('x-catalog-cache'), 'the repeated read comes from memory').toBe('hit');
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect((await rest('GET', '/artworks/lantern-nocturne', { db })).status).toBe(404);
    }
    const home = await rest('GET', '/artworks', { db: a });
    expect(home.body.items.map((c: { slug: string }) => c.slug)).not.toContain('lantern-nocturne');

    await translateTitles(a, null); // its six titles (stand-ins: no model), as the stories job gives them
    const run = await publishRun(a, { perDay: 10_000, baseUrl: 'https://shop.example', trigger: 'staff', count: 10 });
    expect(run.artworks).toContain('lantern-nocturne');
    await recountCatalog(a);
    // Ready for the next publish run, but queued: it must not show anywhere.
    await queuedWork('never-published-lantern', 'Never Published Lantern Nocturne', 2_000_000);

    // Within the bound, the instance that did not publish may still answer what it had computed.
    const stale = await rest('GET', '/artworks', { query: search, db: b });
    expect(stale.headers.get('x-catalog-cache')).toBe('hit');
    expect(stale.body.items).toEqual([]);
    passRecheckBound();
    for (const db of [a, b]) {
      const found = await rest('GET', '/artworks', { query: search, db });
      expect(found.headers.get('x-catalog-cache'), 'the catalog changed: computed again').toBe('miss');
      expect(found.body.items.map((c: { slug: string }) => c.slug)).toEqual(['lantern-nocturne']);
      expect(leaks(found.body)).toEqual([]);
      const detail = await rest('GET', '/artworks/lantern-nocturne', { db });
      expect(detail.status).toBe(200);
      expect(detail.body.artwork.title).toBe(title);
      const list = await rest('GET', '/artworks', { db });
      expect(list.body.items[0].slug, 'the most popular published work now leads the list').toBe('lantern-nocturne');
      expect(leaks(list.body)).toEqual([]);
      expect((await rest('GET', '/artworks/never-published-lantern', { db })).status).toBe(404);
    }
  });

  test('an unpublished work leaves both caches; queued rows added meanwhile never appear', async () => {
    const detailBefore = await rest('GET', '/artworks/the-starry-night', { db: b });
    expect(detailBefore.status).toBe(200);
    await rest('GET', '/artworks/the-starry-night', { db: b }).then((r) => expect(r.headers.get('x-catalog-cache')).toBe('hit'));

    await a.artwork.update({ where: { slug: 'the-starry-night' }, data: { status: 'queued' } });
    await queuedWork('never-published-starry', 'Never Published Starry Shadow');
    passRecheckBound();
    for (const db of [a, b]) {
      expect((await rest('GET', '/artworks/the-starry-night', { db })).status).toBe(404);
      const search = await rest('GET', '/artworks', { query: { q: 'starry' }, db });
      expect(search.body.items.map((c: { slug: string }) => c.slug)).not.toContain('the-starry-night');
      expect(leaks(search.body)).toEqual([]);
    }
    await a.artwork.update({ where: { slug: 'the-starry-night' }, data: { status: 'published' } });
  });
});

describe('answers from memory', () => {
  test('keep the ETag, answer If-None-Match with 304 and HEAD without a body', async () => {
    const first = await rest('GET', '/artists', { db: a });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    const cached = await rest('GET', '/artists', { db: a, headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.body).toBeNull();
    expect(cached.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=600');
    const head = await rest('HEAD', '/artists', { db: a });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    expect(head.headers.get('etag')).toBe(etag);
    // Another locale is another address, so another entry.
    const fr = await rest('GET', '/artists', { db: a, query: { locale: 'fr' } });
    expect(fr.headers.get('x-catalog-cache')).toBe('miss');
  });

  test('a kept answer goes out as the JSON of what the procedure answers: the same bytes on a miss, on a hit and without the cache', async () => {
    const kept = createDb(own.url);
    const uncached = createDb(own.url);
    useResponseCache(kept, new ResponseCache(kept, { maxBytes: 1024 * 1024, recheckMs: 60_000 }));
    useResponseCache(uncached, null);
    try {
      for (const path of ['/artworks', '/artists', `/artworks/${(await rest('GET', '/artworks', { db: uncached })).body.items[0].slug}`]) {
        const miss = await rest('GET', path, { db: kept, query: { locale: 'ja' } });
        const hit = await rest('GET', path, { db: kept, query: { locale: 'ja' } });
        const computed = await rest('GET', path, { db: uncached, query: { locale: 'ja' } });
        expect([miss.headers.get('x-catalog-cache'), hit.headers.get('x-catalog-cache'), computed.headers.get('x-catalog-cache')]).toEqual(['miss', 'hit', 'off']);
        expect(miss.body).toEqual(computed.body);
        expect(hit.body).toEqual(computed.body);
        expect(hit.headers.get('etag')).toBe(computed.headers.get('etag'));
        expect(Number(hit.headers.get('content-length') ?? JSON.stringify(hit.body).length)).toBeGreaterThan(100);
      }
    } finally {
      await Promise.all([kept.$disconnect(), uncached.$disconnect()]);
    }
  });

  test('errors are never kept: a bad page is refused every time, with its details', async () => {
    for (let i = 0; i < 2; i++) {
      const bad = await rest('GET', '/artworks', { db: a, query: { page: '0' } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('invalid_input');
      expect(bad.body.error.details[0].path).toBe('page');
      expect(bad.headers.get('x-catalog-cache')).toBeNull();
    }
  });

  test('stay within their memory cap, least recently used first', async () => {
    const small = createDb(own.url);
    const cache = new ResponseCache(small, { maxBytes: 128 * 1024, recheckMs: 60_000 });
    useResponseCache(small, cache);
    try {
      const slugs: string[] = (await rest('GET', '/artworks', { db: small })).body.items.map((c: { slug: string }) => c.slug);
      expect(slugs.length).toBeGreaterThan(20);
      const details: number[] = [];
      for (const slug of slugs) {
        const detail = await rest('GET', `/artworks/${slug}`, { db: small });
        expect(detail.status).toBe(200);
        details.push(JSON.stringify(detail.body).length);
      }
      // More than fits: every detail is kept (each, weighed twice for its value and its bytes, is
      // under an eighth of the cap), the oldest go.
      expect(2 * details.reduce((x, y) => x + y, 0)).toBeGreaterThan(128 * 1024);
      expect(2 * Math.max(...details)).toBeLessThan((128 * 1024) / 8);
      const stats = cache.snapshot();
      expect(stats.evictions).toBeGreaterThan(0);
      expect(stats.bytes).toBeLessThanOrEqual(128 * 1024);
      expect((await rest('GET', `/artworks/${slugs.at(-1)}`, { db: small })).headers.get('x-catalog-cache')).toBe('hit');
      expect((await rest('GET', `/artworks/${slugs[1]}`, { db: small })).headers.get('x-catalog-cache')).toBe('miss');
    } finally {
      await small.$disconnect();
    }
  });

  test('a write through an instance makes that instance read fresh at once, whatever its recheck interval', async () => {
    const slow = createDb(own.url);
    useResponseCache(slow, new ResponseCache(slow, { maxBytes: 1024 * 1024, recheckMs: 60_000 }));
    try {
      const starry = await a.artwork.findUniqueOrThrow({ where: { slug: 'the-starry-night' } });
      const setStory = (story: string) => a.artworkText.update({ where: { artworkId_locale: { artworkId: starry.id, locale: 'en' } }, data: { story } });
      await setStory('Before the staff action.');
      expect((await rest('GET', '/artworks/the-starry-night', { db: slow })).body.artwork.story).toBe('Before the staff action.');
      await setStory('Changed by another instance.');
      // Within its recheck interval this instance may answer from memory (the documented bound).
      const stale = await rest('GET', '/artworks/the-starry-night', { db: slow });
      expect(stale.headers.get('x-catalog-cache')).toBe('hit');
      expect(stale.body.artwork.story).toBe('Before the staff action.');
      // A staff recount through this instance: its next read checks the version and recomputes.
      const recount = await rest('POST', '/admin/seo/refresh-counts', { db: slow, headers: STAFF });
      expect(recount.status).toBe(200);
      const fresh = await rest('GET', '/artworks/the-starry-night', { db: slow });
      expect(fresh.headers.get('x-catalog-cache')).toBe('miss');
      expect(fresh.body.artwork.story).toBe('Changed by another instance.');
    } finally {
      await slow.$disconnect();
    }
  });

  test('with a recheck of 0 every read sees the last commit (the default outside production)', async () => {
    const fresh = createDb(own.url);
    useResponseCache(fresh, new ResponseCache(fresh, { maxBytes: 1024 * 1024, recheckMs: 0 }));
    try {
      const before = await rest('GET', '/artworks/the-starry-night', { db: fresh });
      expect((await rest('GET', '/artworks/the-starry-night', { db: fresh })).headers.get('x-catalog-cache')).toBe('hit');
      const starry = await a.artwork.findUniqueOrThrow({ where: { slug: 'the-starry-night' } });
      await a.artworkText.update({ where: { artworkId_locale: { artworkId: starry.id, locale: 'en' } }, data: { story: 'Read your writes.' } });
      const after = await rest('GET', '/artworks/the-starry-night', { db: fresh });
      expect(after.headers.get('x-catalog-cache')).toBe('miss');
      expect(after.body.artwork.story).toBe('Read your writes.');
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    } finally {
      await fresh.$disconnect();
    }
  });
});
