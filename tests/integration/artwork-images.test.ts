import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '@/server/db/client';
import { frontHeaders } from '@/front/identity';
import { catalogImageFiles } from '@/server/images/catalog';
import { imageResponse } from '@/server/images/handler';
import {
  artworkImage,
  checkFileName,
  checkWidth,
  forgetFailures,
  MAX_REMEMBERED_FAILURES,
  rememberedFailures,
  rememberFailure,
  type ImageSource,
} from '@/server/images/service';

/** A stand-in for Commons' Special:FilePath: a real HTTP server that counts what it was asked. */
const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
let server: Server;
let base: string;
const asked: string[] = [];
let answer: 'image' | 'html' | 'error' = 'image';

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (answer === 'error') return void res.writeHead(503).end('busy');
    if (answer === 'html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>not an image</h1>');
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wiki/Special:FilePath/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(path.join(tmpdir(), 'image-cache-'));
  asked.length = 0;
  answer = 'image';
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
    take: 12,
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
    const first = await artworkImage(source(), catalogFiles[0]!, 640);
    expect(first).toMatchObject({ origin: 'fetched', contentType: 'image/png' });
    expect(first.body.equals(png)).toBe(true);
    expect(asked).toEqual([`/wiki/Special:FilePath/${encodeURIComponent(catalogFiles[0]!)}?width=640`]);

    const again = await artworkImage(source(), catalogFiles[0]!, 640);
    expect(again.origin).toBe('hit');
    expect(again.body.equals(png)).toBe(true);
    expect(again.cacheControl).toMatch(/max-age=604800/);
    expect(asked).toHaveLength(1);
  });

  it('asks the source once for simultaneous requests of one image', async () => {
    await Promise.all(Array.from({ length: 8 }, () => artworkImage(source(), catalogFiles[1]!, 320)));
    expect(asked).toHaveLength(1);
  });

  it('draws a short-lived placeholder when the source fails, and does not ask again at once', async () => {
    answer = 'error';
    const drawn = await artworkImage(source(), catalogFiles[2]!, 960);
    expect(drawn).toMatchObject({ origin: 'placeholder', contentType: 'image/svg+xml', cacheControl: 'public, max-age=300' });
    expect(drawn.body.toString()).toMatch(/^<svg [^>]*width="960"/);
    await artworkImage(source(), catalogFiles[2]!, 960);
    expect(asked).toHaveLength(1);
  });

  it('refuses what is not a raster image from the source', async () => {
    answer = 'html';
    expect((await artworkImage(source(), catalogFiles[3]!, 320)).origin).toBe('placeholder');
  });

  it('draws a placeholder when the source cannot be reached at all', async () => {
    const unreachable = source({ sourceUrl: 'http://127.0.0.1:1/', timeoutMs: 1_000 });
    expect((await artworkImage(unreachable, catalogFiles[4]!, 320)).origin).toBe('placeholder');
  });

  it('draws the same placeholder for the same work every time', async () => {
    answer = 'error';
    const a = await artworkImage(source(), catalogFiles[5]!, 320);
    forgetFailures();
    const b = await artworkImage(source(), catalogFiles[5]!, 320);
    expect(a.body.equals(b.body)).toBe(true);
  });

  it('refuses file names that could leave the cache folder, and unknown widths', () => {
    for (const bad of ['', '../etc/passwd', 'a/b.jpg', 'a\\b.jpg', '..', 'x\u0000.jpg', 'x'.repeat(241)]) {
      expect(() => checkFileName(bad), JSON.stringify(bad)).toThrow(/Not an image file name/);
    }
    for (const bad of [null, '', '0', '641', '640.5', 'abc', '99999']) expect(() => checkWidth(bad)).toThrow(/w must be one of/);
    expect(checkWidth('1600')).toBe(1600);
  });
});

describe('not an open proxy', () => {
  it('answers 404 for a name that is no catalog artwork image, and never asks the source', async () => {
    for (const name of ['Some other file on Commons.jpg', 'Barack Obama.jpg', `${catalogFiles[0]!}x`, 'Example.svg']) {
      await expect(artworkImage(source(), name, 320), name).rejects.toMatchObject({ code: 'not_found' });
    }
    const answer = await imageResponse(new Request('http://shop.test/images/Anything.jpg?w=320'), 'Anything.jpg', deps());
    expect(answer.status).toBe(404);
    expect((await answer.json()).error.code).toBe('not_found');
    expect(asked).toEqual([]);
  });

  it('serves the images of queued works too (the pipeline shows them to staff before publishing)', async () => {
    expect((await artworkImage(source(), QUEUED, 320)).origin).toBe('fetched');
    expect(asked).toHaveLength(1);
  });

  it('keeps the disk cache under its bound, least recently used out', async () => {
    // Each kept thumbnail is the stand-in's PNG plus its type: room for two, not three.
    const one = png.length + 'image/png'.length;
    const small = () => source({ maxCacheBytes: Math.floor(one * 2.5), cacheDir: path.join(cacheDir, 'bounded') });
    const file = catalogFiles[6]!;
    await artworkImage(small(), file, 320);
    await artworkImage(small(), file, 640);
    expect((await artworkImage(small(), file, 320)).origin).toBe('hit'); // 320 is now the most recent
    await artworkImage(small(), file, 960); // 640, the least recently used, goes
    expect(asked).toHaveLength(3);
    expect((await artworkImage(small(), file, 320)).origin).toBe('hit');
    expect((await artworkImage(small(), file, 960)).origin).toBe('hit');
    expect((await artworkImage(small(), file, 640)).origin).toBe('fetched');
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
    const ask = (file: string, w = 320) =>
      imageResponse(new Request(`http://shop.test/images/${encodeURIComponent(file)}?w=${w}`, { headers: frontHeaders(client) }), encodeURIComponent(file), limited);
    expect((await ask(catalogFiles[7]!)).status).toBe(200); // a fetch: 1
    for (let i = 0; i < 5; i++) expect((await ask(catalogFiles[7]!)).status).toBe(200); // hits: not counted
    expect((await ask('Not in the catalog.jpg')).status).toBe(404); // 2
    expect((await ask(catalogFiles[8]!)).status).toBe(200); // 3
    const refused = await ask(catalogFiles[9]!);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ask('Another unknown.jpg')).status).toBe(429);
    expect((await ask(catalogFiles[7]!)).status).toBe(200); // still a hit
    expect(asked).toHaveLength(2);
  });
});

function deps(limits = { multiplier: 0 } as Parameters<typeof imageResponse>[2]['limits']): Parameters<typeof imageResponse>[2] {
  return { db: db(), settings: { IMAGE_SOURCE_URL: base, DATA_DIR: cacheDir, IMAGE_CACHE_MB: 16 }, limits, timeoutMs: 2_000 };
}
