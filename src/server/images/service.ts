import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { invalidInput } from '@/server/errors';
import { USER_AGENT } from '@/server/integrations/http';
import { logger } from '@/server/logger';
import { imageWidths, type ImageWidth } from '@/lib/images';
import { placeholderSvg } from './placeholder';

/**
 * Artwork thumbnails, served from our own origin. The first request for a file and width fetches
 * the thumbnail from Wikimedia Commons and keeps it on disk; later ones read the disk. When Commons
 * cannot be reached (always, on machines without internet) or answers with something that is not
 * an image, a drawn placeholder is answered with a short lifetime, and Commons is not asked again
 * for that image for a few minutes, so a dead upstream never slows pages down.
 */
export interface ImageSource {
  /** Where a file's thumbnail is fetched: `<sourceUrl><file>?width=<w>` (Commons' Special:FilePath). */
  sourceUrl: string;
  /** The folder thumbnails are kept in. */
  cacheDir: string;
  timeoutMs?: number;
}

export interface ServedImage {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  /** `hit`: from disk; `fetched`: from the source just now; `placeholder`: drawn. */
  origin: 'hit' | 'fetched' | 'placeholder';
}

/** A week: Commons files rarely change under the same name, and a CDN in front keeps them too. */
const KEPT = 'public, max-age=604800, stale-while-revalidate=86400';
/** A placeholder is retried soon: the real image may be reachable next time. */
const PLACEHOLDER = 'public, max-age=300';
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;
const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

const failedUntil = new Map<string, number>();
const inFlight = new Map<string, Promise<ServedImage>>();

/** Commons file names: no path separators, no control characters, and not absurdly long. */
export function checkFileName(file: string): string {
  if (!file || file.length > 240 || /[/\\\u0000-\u001f]/.test(file) || file === '.' || file === '..') {
    throw invalidInput('Not an image file name.');
  }
  return file;
}

export function checkWidth(value: string | null): ImageWidth {
  const width = Number(value);
  const known = imageWidths.find((w) => w === width);
  if (known === undefined) throw invalidInput(`w must be one of ${imageWidths.join(', ')}.`);
  return known;
}

export async function artworkImage(source: ImageSource, file: string, width: ImageWidth): Promise<ServedImage> {
  const key = createHash('sha256').update(`${file}\u0000${width}`).digest('hex');
  const pending = inFlight.get(key);
  if (pending) return pending;
  const work = serve(source, key, file, width).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

async function serve(source: ImageSource, key: string, file: string, width: ImageWidth): Promise<ServedImage> {
  const stored = path.join(source.cacheDir, key.slice(0, 2), key);
  const kept = await readKept(stored);
  if (kept) return { ...kept, cacheControl: KEPT, origin: 'hit' };

  if ((failedUntil.get(key) ?? 0) > Date.now()) return placeholder(file, width);
  try {
    const fetched = await fetchThumbnail(source, file, width);
    await keep(stored, fetched);
    failedUntil.delete(key);
    return { ...fetched, cacheControl: KEPT, origin: 'fetched' };
  } catch (error) {
    failedUntil.set(key, Date.now() + RETRY_AFTER_FAILURE_MS);
    warnAtMostEveryMinute(file, width, error);
    return placeholder(file, width);
  }
}

let lastWarning = 0;
let quietFailures = 0;

/** Offline, every image fails: one line a minute says so instead of one line per image. */
function warnAtMostEveryMinute(file: string, width: number, error: unknown): void {
  const now = Date.now();
  if (now - lastWarning < 60_000) {
    quietFailures++;
    return;
  }
  logger.warn({ file, width, quietFailures, err: error }, 'artwork image not fetched, drawing a placeholder');
  lastWarning = now;
  quietFailures = 0;
}

function placeholder(file: string, width: ImageWidth): ServedImage {
  return { body: Buffer.from(placeholderSvg(file, width)), contentType: 'image/svg+xml', cacheControl: PLACEHOLDER, origin: 'placeholder' };
}

async function fetchThumbnail(source: ImageSource, file: string, width: ImageWidth): Promise<{ body: Buffer; contentType: string }> {
  const url = `${source.sourceUrl}${encodeURIComponent(file)}?width=${width}`;
  const response = await fetch(url, { headers: { 'user-agent': USER_AGENT }, redirect: 'follow', signal: AbortSignal.timeout(source.timeoutMs ?? 8_000) });
  if (!response.ok) throw new Error(`${new URL(url).host} answered ${response.status}`);
  const contentType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  // SVG from upstream is refused too: it could carry script, and we only serve raster thumbnails.
  if (!/^image\/(jpeg|png|webp|gif|avif)$/.test(contentType)) throw new Error(`not a raster image (${contentType || 'no type'})`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_IMAGE_BYTES) throw new Error(`too large (${declared} bytes)`);
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > MAX_IMAGE_BYTES) throw new Error(`too large (${body.length} bytes)`);
  return { body, contentType };
}

async function readKept(stored: string): Promise<{ body: Buffer; contentType: string } | null> {
  try {
    const [body, type] = await Promise.all([readFile(stored), readFile(`${stored}.type`, 'utf8')]);
    return { body, contentType: type.trim() };
  } catch {
    return null;
  }
}

/** Written to a temporary name and renamed, so a reader never sees half a file. */
async function keep(stored: string, image: { body: Buffer; contentType: string }): Promise<void> {
  await mkdir(path.dirname(stored), { recursive: true });
  const temp = `${stored}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(`${temp}.type`, image.contentType);
  await writeFile(temp, image.body);
  await rename(`${temp}.type`, `${stored}.type`);
  await rename(temp, stored);
}

/** Tests start from a clean slate. */
export function forgetFailures(): void {
  failedUntil.clear();
  lastWarning = 0;
  quietFailures = 0;
}
