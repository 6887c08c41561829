import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { artworkImage, checkFileName, checkWidth, forgetFailures, type ImageSource } from '@/server/images/service';

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
const source = (): ImageSource => ({ sourceUrl: base, cacheDir, timeoutMs: 2_000 });

describe('artwork images', () => {
  it('fetches a thumbnail once and serves it from disk afterwards', async () => {
    const first = await artworkImage(source(), 'The Starry Night.jpg', 640);
    expect(first).toMatchObject({ origin: 'fetched', contentType: 'image/png' });
    expect(first.body.equals(png)).toBe(true);
    expect(asked).toEqual(['/wiki/Special:FilePath/The%20Starry%20Night.jpg?width=640']);

    const again = await artworkImage(source(), 'The Starry Night.jpg', 640);
    expect(again.origin).toBe('hit');
    expect(again.body.equals(png)).toBe(true);
    expect(again.cacheControl).toMatch(/max-age=604800/);
    expect(asked).toHaveLength(1);
  });

  it('asks the source once for simultaneous requests of one image', async () => {
    await Promise.all(Array.from({ length: 8 }, () => artworkImage(source(), 'Mona Lisa.jpg', 320)));
    expect(asked).toHaveLength(1);
  });

  it('draws a short-lived placeholder when the source fails, and does not ask again at once', async () => {
    answer = 'error';
    const drawn = await artworkImage(source(), 'Gone.jpg', 960);
    expect(drawn).toMatchObject({ origin: 'placeholder', contentType: 'image/svg+xml', cacheControl: 'public, max-age=300' });
    expect(drawn.body.toString()).toMatch(/^<svg [^>]*width="960"/);
    await artworkImage(source(), 'Gone.jpg', 960);
    expect(asked).toHaveLength(1);
  });

  it('refuses what is not a raster image from the source', async () => {
    answer = 'html';
    expect((await artworkImage(source(), 'Odd.jpg', 320)).origin).toBe('placeholder');
  });

  it('draws a placeholder when the source cannot be reached at all', async () => {
    const unreachable = { sourceUrl: 'http://127.0.0.1:1/', cacheDir, timeoutMs: 1_000 };
    expect((await artworkImage(unreachable, 'Any.jpg', 320)).origin).toBe('placeholder');
  });

  it('draws the same placeholder for the same work every time', async () => {
    answer = 'error';
    const a = await artworkImage(source(), 'Same.jpg', 320);
    forgetFailures();
    const b = await artworkImage(source(), 'Same.jpg', 320);
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
