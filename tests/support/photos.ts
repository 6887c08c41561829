import { readFileSync } from 'node:fs';
import { handleRest } from '@/server/api/rest';
import type { RestAnswer } from './rest';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/photos/${name}`, import.meta.url));

/** Real images (drawn by Chromium's canvas), and the leading box of an HEIC/HEIF file. */
export const photos = {
  jpeg: fixture('photo.jpg'),
  png: fixture('photo.png'),
  webp: fixture('photo.webp'),
  heic: isoBmff('heic'),
  heif: isoBmff('mif1'),
};

/** An ISO-BMFF `ftyp` box with the given major brand, padded like the start of a phone photo. */
function isoBmff(brand: string): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftyp', 4, 'latin1');
  ftyp.write(brand, 8, 'latin1');
  ftyp.write('mif1', 16, 'latin1');
  ftyp.write(brand === 'mif1' ? 'heif' : 'heic', 20, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(4096, 7)]);
}

/** A body of exactly `size` bytes that starts like a JPEG. */
export function jpegOfSize(size: number): Buffer {
  const body = Buffer.alloc(size, 0);
  photos.jpeg.copy(body, 0, 0, Math.min(size, photos.jpeg.length));
  return body;
}

export const STAFF = { authorization: 'Bearer test-staff-token-5c1f0e' };

/** POSTs raw bytes (a Buffer, or a stream sent without Content-Length) to /v1/uploads. */
export async function upload(
  body: Uint8Array | ReadableStream<Uint8Array> | null,
  contentType: string | null = 'image/jpeg',
  extraHeaders: Record<string, string> = {},
): Promise<RestAnswer> {
  const headers = new Headers(extraHeaders);
  if (contentType) headers.set('content-type', contentType);
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body: body as BodyInit | null };
  if (body instanceof ReadableStream) init.duplex = 'half';
  const response = await handleRest(new Request('http://shop.test/v1/uploads', init));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Uploads a real JPEG and answers its uploadId. */
export async function uploadedPhoto(): Promise<string> {
  const answer = await upload(photos.jpeg);
  if (answer.status !== 201) throw new Error(`upload failed: ${JSON.stringify(answer.body)}`);
  return answer.body.uploadId as string;
}

/** An endless stream of JPEG-looking bytes in 64 KiB chunks that records how much was pulled and whether it was cancelled. */
export function endlessJpegStream() {
  const state = { pulled: 0, cancelled: false };
  let first = true;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = Buffer.alloc(64 * 1024, 1);
        if (first) photos.jpeg.copy(chunk, 0, 0, 1024);
        first = false;
        state.pulled += chunk.length;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}
