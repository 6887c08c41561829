import 'server-only';
import { createHash } from 'node:crypto';
import { invalidInput, notFound } from '@/server/errors';
import { USER_AGENT } from '@/server/integrations/http';
import { logger } from '@/server/logger';
import { imageWidths, type ImageWidth } from '@/lib/images';
import { diskImageCache } from './disk-cache';
import { placeholderSvg } from './placeholder';

/**
 * Artwork thumbnails, served from our own origin. The first request for a file and width fetches
 * the thumbnail from Wikimedia Commons and keeps it on disk; later ones read the disk. When Commons
 * cannot be reached (always, on machines without internet) or answers with something that is not
 * an image, a drawn placeholder is answered with a short lifetime, and Commons is not asked again
 * for that image for a few minutes, so a dead upstream never slows pages down.
 *
 * Not an open proxy: only image files of catalog artworks (queued or published) are served; any
 * other name is 404 and Commons is never asked for it. Without that, anyone could make the shop
 * fetch (and keep on disk, unbounded) every file Commons has, or ask Commons in the shop's name
 * until Commons blocks it. The disk cache is bounded (least recently used out), the memory of
 * failures too, and a client's misses (requests that cost a Commons fetch or a database lookup)
 * are rate limited (`countMiss`).
 */
export interface ImageSource {
  /** Where a file's thumbnail is fetched: `<sourceUrl><file>?width=<w>` (Commons' Special:FilePath). */
  sourceUrl: string;
  /** The folder thumbnails are kept in. */
  cacheDir: string;
  timeoutMs?: number;
  /** Bytes the kept thumbnails may take on disk (IMAGE_CACHE_MB); default 512 MiB. */
  maxCacheBytes?: number;
  /** Whether `file` is the image of a catalog artwork (queued or published): catalogImageFiles(db). */
  isCatalogImage: (file: string) => Promise<boolean>;
  /** Counts a miss against the client's allowance; throws RateLimited over it. Absent: not limited. */
  countMiss?: () => Promise<void>;
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
export const DEFAULT_IMAGE_CACHE_BYTES = 512 * 1024 * 1024;
/**
 * Images whose fetch failed recently, remembered so Commons is not asked again at once. Bounded: a
 * catalog has a few thousand files × 5 widths; past this the oldest failure is forgotten first (its
 * retry comes a little early, which is all it costs).
 */
export const MAX_REMEMBERED_FAILURES = 10_000;

const failedUntil = new Map<string, number>();
const inFlight = new Map<string, Promise<ServedImage>>();

export function rememberFailure(key: string): void {
  failedUntil.delete(key);
  while (failedUntil.size >= MAX_REMEMBERED_FAILURES) failedUntil.delete(failedUntil.keys().next().value!);
  failedUntil.set(key, Date.now() + RETRY_AFTER_FAILURE_MS);
}

/** How many failures are remembered now (tests). */
export const rememberedFailures = () => failedUntil.size;

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

/**
 * The thumbnail of a catalog artwork's image at `width`. Throws not_found for a file that is not a
 * catalog artwork's image (Commons is not asked), and RateLimited when a miss is over the client's
 * allowance.
 */
export async function artworkImage(source: ImageSource, file: string, width: ImageWidth): Promise<ServedImage> {
  if (!(await source.isCatalogImage(file))) {
    // Guessing names costs a lookup each: it counts as a miss.
    await source.countMiss?.();
    throw notFound('No artwork has this image.');
  }
  const key = createHash('sha256').update(`${file}\u0000${width}`).digest('hex');
  const cache = diskImageCache(source.cacheDir, source.maxCacheBytes ?? DEFAULT_IMAGE_CACHE_BYTES);
  const kept = await cache.read(key);
  if (kept) return { ...kept, cacheControl: KEPT, origin: 'hit' };
  if ((failedUntil.get(key) ?? 0) > Date.now()) return placeholder(file, width);

  const pending = inFlight.get(key);
  if (pending) return pending;
  // Only a request that makes the shop ask Commons counts (simultaneous ones share its fetch).
  await source.countMiss?.();
  const again = inFlight.get(key);
  if (again) return again;
  const work = fetchAndKeep(source, key, file, width).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

async function fetchAndKeep(source: ImageSource, key: string, file: string, width: ImageWidth): Promise<ServedImage> {
  try {
    const fetched = await fetchThumbnail(source, file, width);
    await diskImageCache(source.cacheDir, source.maxCacheBytes ?? DEFAULT_IMAGE_CACHE_BYTES).write(key, fetched);
    failedUntil.delete(key);
    return { ...fetched, cacheControl: KEPT, origin: 'fetched' };
  } catch (error) {
    rememberFailure(key);
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

/** Tests start from a clean slate. */
export function forgetFailures(): void {
  failedUntil.clear();
  lastWarning = 0;
  quietFailures = 0;
}
