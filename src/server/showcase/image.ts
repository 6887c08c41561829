import 'server-only';
import { createHash } from 'node:crypto';
import path from 'node:path';
import sharp from 'sharp';
import { errorResponse } from '@/server/api/contract-errors';
import type { Db } from '@/server/db/client';
import type { Env } from '@/server/env';
import { DomainError, invalidInput, notFound, RateLimited } from '@/server/errors';
import { clientOf } from '@/server/http/client';
import { diskImageCache } from '@/server/images/disk-cache';
import type { PhotoStorage } from '@/server/integrations/storage';
import { enforceLimit, type LimitSettings } from '@/server/limits/service';
import { DEFAULT_SHOWCASE_WIDTH, showcaseWidths, type ShowcaseWidth } from './schema';
import { shownPhoto } from './service';

/**
 * `/images/showcase/<id>?w=<width>`: a photo in the gallery, drawn by sharp at one of a few widths.
 * Only a photo shown now (shown by staff, `finished`, its order's customer consenting) is served;
 * anything else, a customer's photo above all, is the same 404 as an unknown id. The check runs on
 * every request, before the thumbnail kept on disk is read, so a photo taken down stops at once
 * here; browsers and proxies may keep it for SHOWCASE_IMAGE_MAX_AGE seconds.
 *
 * The drawing turns the photo upright (EXIF), never enlarges it, and writes WebP without any of the
 * original's metadata (a phone's GPS position, its camera and owner fields stay private).
 */

/** Short, because staff can take a photo down: at most this long in a browser or a CDN after that. */
export const SHOWCASE_IMAGE_MAX_AGE = 300;
/** Disk for drawn gallery images: 24 photos × 4 widths need a few MB; the bound only caps abuse. */
const MAX_SHOWCASE_CACHE_BYTES = 64 * 1024 * 1024;
/** A stored photo is at most 20 MiB (the upload rules); anything larger is not read into memory. */
const MAX_SOURCE_BYTES = 21 * 1024 * 1024;

export interface ShowcaseImageDeps {
  db: Db;
  storage: PhotoStorage;
  settings: Pick<Env, 'DATA_DIR' | 'IMAGE_CACHE_MB'>;
  limits: LimitSettings;
}

export function checkShowcaseWidth(value: string | null): ShowcaseWidth {
  if (value === null) return DEFAULT_SHOWCASE_WIDTH;
  const width = showcaseWidths.find((w) => String(w) === value);
  if (width === undefined) throw invalidInput(`w must be one of ${showcaseWidths.join(', ')}.`);
  return width;
}

const drawing = new Map<string, Promise<Buffer>>();

async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > MAX_SOURCE_BYTES) throw new Error('stored photo larger than the upload limit');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

async function draw(storage: PhotoStorage, id: string, width: ShowcaseWidth): Promise<Buffer> {
  const stored = await storage.open(id);
  if (!stored) throw notFound('No photo in the gallery has this id.');
  const source = await readAll(stored.body);
  return sharp(source, { failOn: 'error' }).rotate().resize({ width, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
}

export async function showcaseImageResponse(request: Request, id: string, deps: ShowcaseImageDeps): Promise<Response> {
  const client = clientOf(request.headers);
  const countMiss = async () => void (await enforceLimit(deps.db, 'imageMiss', client, deps.limits));
  try {
    const width = checkShowcaseWidth(new URL(request.url).searchParams.get('w'));
    const photo = await shownPhoto(deps.db, id);
    if (!photo) {
      // Guessing ids costs a lookup each: it counts like a catalog image miss.
      await countMiss();
      throw notFound('No photo in the gallery has this id.');
    }
    // Shown again after being taken down: a new key, so nothing kept from before is reused.
    const key = createHash('sha256').update(`showcase\u0000${photo.id}\u0000${photo.showcasedAt.getTime()}\u0000${width}`).digest('hex');
    const cache = diskImageCache(path.join(deps.settings.DATA_DIR, 'showcase-cache'), Math.min(MAX_SHOWCASE_CACHE_BYTES, deps.settings.IMAGE_CACHE_MB * 1024 * 1024));
    let body = (await cache.read(key))?.body;
    if (!body) {
      let pending = drawing.get(key);
      if (!pending) {
        await countMiss();
        pending = draw(deps.storage, photo.id, width)
          .then(async (drawn) => {
            await cache.write(key, { body: drawn, contentType: 'image/webp' });
            return drawn;
          })
          .finally(() => drawing.delete(key));
        drawing.set(key, pending);
      }
      body = await pending;
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      headers: {
        'Content-Type': 'image/webp',
        'Content-Length': String(body.length),
        'Cache-Control': `public, max-age=${SHOWCASE_IMAGE_MAX_AGE}`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      },
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const headers: Record<string, string> = { 'Cache-Control': 'private, no-store' };
    if (error instanceof RateLimited) headers['Retry-After'] = String(error.retryAfterSeconds);
    return errorResponse(error.code, error.message, error.details, headers);
  }
}
