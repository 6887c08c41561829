import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commonsWidths } from '@/shared/images';

/** A 1×1 PNG's first bytes: enough for the shop, which checks the type and not the pixels. */
export const standInPng = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

export interface CommonsRequest {
  /** The path and query asked, as sent (`/wiki/Special:FilePath/<file>?width=<w>`). */
  url: string;
  file: string;
  width: number | null;
  userAgent: string | undefined;
  status: number;
}

/**
 * A stand-in for Commons' Special:FilePath on 127.0.0.1, as Commons behaves since 2026 (T414805,
 * `$wgThumbnailSteps`): a thumbnail only at a standard width (20, 40, 60, 120, 250, 330, 500, 960,
 * 1280, 1920, 3840), any other width refused with 400. It records every request. `answer` makes it
 * fail on demand: `error` (503), `html` (200 but no image), `missing` (404), `limited` (429 with
 * `Retry-After: retryAfter`).
 */
export async function startCommonsStandIn() {
  const requests: CommonsRequest[] = [];
  const control: { answer: 'image' | 'html' | 'error' | 'missing' | 'limited'; retryAfter: number } = { answer: 'image', retryAfter: 3600 };
  const standard = new Set<number>(commonsWidths);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://commons.test');
    const file = decodeURIComponent(url.pathname.replace(/^\/wiki\/Special:FilePath\//, ''));
    const asked = url.searchParams.get('width');
    const width = asked === null ? null : Number(asked);
    const answer = (status: number) => (requests.push({ url: req.url ?? '', file, width, userAgent: req.headers['user-agent'], status }), status);
    if (width !== null && !standard.has(width))
      return void res.writeHead(answer(400), { 'content-type': 'text/html' }).end('<h1>400 Bad Request</h1>Use a standard thumbnail size.');
    if (control.answer === 'error') return void res.writeHead(answer(503)).end('busy');
    if (control.answer === 'missing') return void res.writeHead(answer(404)).end('no such file');
    if (control.answer === 'limited') return void res.writeHead(answer(429), { 'retry-after': String(control.retryAfter) }).end('too many requests');
    if (control.answer === 'html') return void res.writeHead(answer(200), { 'content-type': 'text/html' }).end('<h1>not an image</h1>');
    res.writeHead(answer(200), { 'content-type': 'image/png' }).end(standInPng);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    /** IMAGE_SOURCE_URL for the stand-in. */
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wiki/Special:FilePath/`,
    requests,
    control,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
