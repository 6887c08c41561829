import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db/client';
import { identityHeaders } from '@/server/http/identity';
import { catalogImageFiles } from '@/server/images/catalog';
import { imageResponse } from '@/server/images/handler';
import {
  artworkImage,
  checkFileName,
  checkWidth,
  FIRST_BACKOFF_MS,
  forgetFailures,
  MAX_BACKOFF_MS,
  MAX_REMEMBERED_FAILURES,
  rememberedFailures,
  rememberFailure,
  type ImageSource,
} from '@/server/images/service';
import { userAgent } from '@/server/integrations/http';
import { commonsWidths, imageWidths } from '@/shared/images';
import { standInPng as png, startCommonsStandIn } from '../support/commons';

/** Commons' Special:FilePath as it is today: standard widths only, anything else 400 (tests/support/commons.ts). */
let commons: Awaited<ReturnType<typeof startCommonsStandIn>>;
let base: string;
beforeAll(async () => {
  commons = await startCommonsStandIn();
  base = commons.url;
});
afterAll(() => commons.close());
/** What the stand-in was asked (path and query), in order. */
const asked = () => commons.requests.map((r) => r.url);
const setAnswer = (answer: typeof commons.control.answer) => void (commons.control.answer = answer);

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(tmpdir(), 'image-cache-'));
  commons.requests.length = 0;
  setAnswer('image');
  forgetFailures();
  return () => rmSync(cacheDir, { recursive: true, force: true });
});
const source = (extra: Partial<ImageSource> = {}): ImageSource => ({ sourceUrl: base, cacheDir, timeoutMs: 2_000, isCatalogImage: catalogImageFiles(db()), ...extra });

// Image files of the seeded catalog (published works), and one of a queued work made here.
const QUEUED = 'A queued work for the image tests.jpg';
let catalogFiles: string[] = [];
beforeAll(async () => {
  const works = await db().artwork.findMany({
    where: { status: 'published', imageFile: { not: null } },
    select: { imageFile: true, artistId: true },
    take: 16,
    orderBy: { id: 'asc' },
  });
  catalogFiles = works.map((w) => w.imageFile!);
  await db().artwork.upsert({
    where: { slug: 'image-tests-queued-work' },
    create: { slug: 'image-tests-queued-work', artistId: works[0]!.artistId, imageFile: QUEUED, status: 'queued' },
    update: {},
  });
});

describe('artwork images', () => {
  it('fetches a thumbnail once and serves it from disk afterwards', async () => {
    const first = await artworkImage(source(), catalogFiles[0]!, 500);
    expect(first).toMatchObject({ origin: 'fetched', contentType: 'image/png' });
    expect(first.body.equals(png)).toBe(true);
    expect(asked()).toEqual([`/wiki/Special:FilePath/${encodeURIComponent(catalogFiles[0]!)}?width=500`]);

    const again = await artworkImage(source(), catalogFiles[0]!, 500);
    expect(again.origin).toBe('hit');
    expect(again.body.equals(png)).toBe(true);
    expect(again.cacheControl).toMatch(/max-age=604800/);
    expect(asked()).toHaveLength(1);
  });

  it('asks the source once for simultaneous requests of one image', async () => {
    await Promise.all(Array.from({ length: 8 }, () => artworkImage(source(), catalogFiles[1]!, 330)));
    expect(asked()).toHaveLength(1);
  });

  it('draws a short-lived placeholder when the source fails, and does not ask again at once', async () => {
    setAnswer('error');
    const drawn = await artworkImage(source(), catalogFiles[2]!, 960);
    expect(drawn).toMatchObject({ origin: 'placeholder', contentType: 'image/svg+xml', cacheControl: 'public, max-age=300' });
    expect(drawn.body.toString()).toMatch(/^<svg [^>]*width="960"/);
    await artworkImage(source(), catalogFiles[2]!, 960);
    expect(asked()).toHaveLength(1);
  });

  it('refuses what is not a raster image from the source', async () => {
    setAnswer('html');
    expect((await artworkImage(source(), catalogFiles[3]!, 330)).origin).toBe('placeholder');
  });

  it('draws a placeholder when the source cannot be reached at all', async () => {
    const unreachable = source({ sourceUrl: 'http://127.0.0.1:1/', timeoutMs: 1_000 });
    expect((await artworkImage(unreachable, catalogFiles[4]!, 330)).origin).toBe('placeholder');
  });

  it('draws the same placeholder for the same work every time', async () => {
    setAnswer('error');
    const a = await artworkImage(source(), catalogFiles[5]!, 330);
    forgetFailures();
    const b = await artworkImage(source(), catalogFiles[5]!, 330);
    expect(a.body.equals(b.body)).toBe(true);
  });

  it('refuses file names that could leave the cache folder, and unknown widths', () => {
    for (const bad of ['', '../etc/passwd', 'a/b.jpg', 'a\\b.jpg', '..', 'x\u0000.jpg', 'x'.repeat(241)]) {
      expect(() => checkFileName(bad), JSON.stringify(bad)).toThrow(/Not an image file name/);
    }
    for (const bad of [null, '', '0', '-5', '640.5', 'abc', '1e400']) expect(() => checkWidth(bad), String(bad)).toThrow(/w must be a whole number/);
    // Any other whole width is served at the next step up (older pages' 320, 640, 1600, 2400 too).
    for (const w of imageWidths) expect(checkWidth(String(w))).toBe(w);
    expect([1, 320, 331, 640, 1000, 1600, 2400, 99999].map((w) => checkWidth(String(w)))).toEqual([330, 330, 500, 960, 1280, 1920, 1920, 1920]);
  });
});

describe('not an open proxy', () => {
  it('answers 404 for a name that is no catalog artwork image, and never asks the source', async () => {
    for (const name of ['Some other file on Commons.jpg', 'Barack Obama.jpg', `${catalogFiles[0]!}x`, 'Example.svg']) {
      await expect(artworkImage(source(), name, 330), name).rejects.toMatchObject({ code: 'not_found' });
    }
    const answer = await imageResponse(new Request('http://shop.test/images/Anything.jpg?w=330'), 'Anything.jpg', deps());
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.code).toBe('not_found');
    expect(asked()).toEqual([]);
  });

  it('serves the images of queued works too (the pipeline shows them to staff before publishing)', async () => {
    expect((await artworkImage(source(), QUEUED, 330)).origin).toBe('fetched');
    expect(asked()).toHaveLength(1);
  });

  it('keeps the disk cache under its bound, least recently used out', async () => {
    // Each kept thumbnail is the stand-in's PNG plus its type: room for two, not three.
    const one = png.length + 'image/png'.length;
    const small = () => source({ maxCacheBytes: Math.floor(one * 2.5), cacheDir: path.join(cacheDir, 'bounded') });
    const file = catalogFiles[6]!;
    await artworkImage(small(), file, 330);
    await artworkImage(small(), file, 500);
    expect((await artworkImage(small(), file, 330)).origin).toBe('hit'); // 330 is now the most recent
    await artworkImage(small(), file, 960); // 500, the least recently used, goes
    expect(asked()).toHaveLength(3);
    expect((await artworkImage(small(), file, 330)).origin).toBe('hit');
    expect((await artworkImage(small(), file, 960)).origin).toBe('hit');
    expect((await artworkImage(small(), file, 500)).origin).toBe('fetched');
    const { DiskImageCache } = await import('@/server/images/disk-cache');
    // A restarted instance finds what is kept and the same bound.
    const restarted = new DiskImageCache(path.join(cacheDir, 'bounded'), Math.floor(one * 2.5));
    expect(await restarted.size()).toBeLessThanOrEqual(Math.floor(one * 2.5));
  });

  it('remembers a bounded number of failures', () => {
    for (let i = 0; i < MAX_REMEMBERED_FAILURES + 50; i++) rememberFailure(`failed-${i}`);
    expect(rememberedFailures()).toBe(MAX_REMEMBERED_FAILURES);
  });

  it("limits a client's misses (unknown names and fetches), never its hits", async () => {
    const client = '192.0.2.77';
    const limited = deps({ multiplier: 1, policies: { imageMiss: { allowance: 3, windowSeconds: 3 * 3600 + 11 } } });
    const ask = (file: string, w = 330) =>
      imageResponse(new Request(`http://shop.test/images/${encodeURIComponent(file)}?w=${w}`, { headers: identityHeaders(client) }), encodeURIComponent(file), limited);
    expect((await ask(catalogFiles[7]!)).status).toBe(200); // a fetch: 1
    for (let i = 0; i < 5; i++) expect((await ask(catalogFiles[7]!)).status).toBe(200); // hits: not counted
    expect((await ask('Not in the catalog.jpg')).status).toBe(404); // 2
    expect((await ask(catalogFiles[8]!)).status).toBe(200); // 3
    const refused = await ask(catalogFiles[9]!);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('Another unknown.jpg')).status).toBe(429);
    expect((await ask(catalogFiles[7]!)).status).toBe(200); // still a hit
    expect(asked()).toHaveLength(2);
  });
});

describe('Commons as it is (standard widths, a contact, bounded retries)', () => {
  const get = (file: string, w: number | string, contact?: string) =>
    imageResponse(new Request(`http://shop.test/images/${encodeURIComponent(file)}?w=${w}`), encodeURIComponent(file), deps(undefined, contact));

  it('the stand-in refuses a width that is not a standard step, as Commons does', async () => {
    expect((await fetch(`${base}${encodeURIComponent(catalogFiles[10]!)}?width=640`)).status).toBe(400);
    expect((await fetch(`${base}${encodeURIComponent(catalogFiles[10]!)}?width=500`)).status).toBe(200);
  });

  it('asks Commons only for standard widths, whatever width a page or a visitor asks for', async () => {
    const file = catalogFiles[10]!;
    for (const w of [1, 20, 320, 330, 500, 640, 1000, 1280, 1600, 1920, 2400, 5000, 99999]) {
      const answer = await get(file, w);
      expect(answer.status, `w=${w}`).toBe(200);
      expect(answer.headers.get('content-type'), `w=${w}`).toBe('image/png');
    }
    expect(commons.requests.every((r) => r.status === 200 && (commonsWidths as readonly number[]).includes(r.width!))).toBe(true);
    // One fetch per served width, whatever was asked: the rest are read from disk.
    expect(commons.requests.map((r) => r.width).sort((a, b) => a! - b!)).toEqual([...imageWidths]);
    expect((await get(file, 'abc')).status).toBe(400);
  });

  it("sends WIKIDATA_CONTACT in the User-Agent, as the SPARQL client's", async () => {
    const contact = 'catalog@atelier-prints.example';
    expect((await get(catalogFiles[11]!, 500, contact)).status).toBe(200);
    const agent = commons.requests[0]!.userAgent!;
    expect(agent).toBe(userAgent(contact));
    expect(agent).toContain(`(${contact})`);
  });

  describe('with the clock moved', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-12-01T00:00:00Z'));
    });
    afterEach(() => void vi.useRealTimers());
    const minutes = (n: number) => vi.setSystemTime(Date.now() + n * 60_000);

    it('backs off a failing file exponentially up to a cap: a day of page views asks Commons ten times, not 1,440', async () => {
      setAnswer('missing');
      const file = catalogFiles[12]!;
      const at: number[] = [];
      const start = Date.now();
      for (let minute = 0; minute < 24 * 60; minute++) {
        const before = commons.requests.length;
        // A page view every minute asks the card's and the large picture's widths.
        for (const w of [500, 1280] as const) expect((await artworkImage(source(), file, w)).origin).toBe('placeholder');
        if (commons.requests.length > before) at.push((Date.now() - start) / 60_000);
        minutes(1);
      }
      // 5, 10, 20, 40, 80, 160, 320 minutes, then the cap (6 hours); the other width waits with the file.
      expect(FIRST_BACKOFF_MS).toBe(5 * 60_000);
      expect(MAX_BACKOFF_MS).toBe(360 * 60_000);
      expect(at).toEqual([0, 5, 15, 35, 75, 155, 315, 635, 995, 1355]);
      expect(commons.requests).toHaveLength(10);

      // Back on Commons: after the back-off the image comes, and the file's failures are forgotten.
      setAnswer('image');
      minutes(360);
      expect((await artworkImage(source(), file, 500)).origin).toBe('fetched');
      expect(rememberedFailures()).toBe(0);
    });

    it("stops asking Commons for any file until a 429's Retry-After has passed", async () => {
      setAnswer('limited');
      commons.control.retryAfter = 3600;
      expect((await artworkImage(source(), catalogFiles[13]!, 500)).origin).toBe('placeholder');
      setAnswer('image');
      minutes(59);
      expect((await artworkImage(source(), catalogFiles[14]!, 500)).origin).toBe('placeholder');
      expect(commons.requests).toHaveLength(1);
      minutes(2);
      expect((await artworkImage(source(), catalogFiles[14]!, 500)).origin).toBe('fetched');
    });
  });
});

function deps(limits = { multiplier: 0 } as Parameters<typeof imageResponse>[2]['limits'], contact?: string): Parameters<typeof imageResponse>[2] {
  return { db: db(), settings: { IMAGE_SOURCE_URL: base, DATA_DIR: cacheDir, IMAGE_CACHE_MB: 16, WIKIDATA_CONTACT: contact }, limits, timeoutMs: 2_000 };
}
