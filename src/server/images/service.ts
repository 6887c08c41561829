import 'server-only';
import { createHash } from 'node:crypto';
import { invalidInput, notFound } from '@/server/errors';
import { retryAfterMs, USER_AGENT } from '@/server/integrations/http';
import { logger } from '@/server/logger';
import { imageWidths, servedWidth, type ImageWidth } from '@/shared/images';
import { diskImageCache } from './disk-cache';
import { placeholderSvg } from './placeholder';

/**
 * Artwork thumbnails, served from our own origin. The first request for a file and width fetches
 * the thumbnail from Wikimedia Commons and keeps it on disk; later ones read the disk. When Commons
 * cannot be reached (always, on machines without internet), refuses or answers with something that
 * is not an image, a drawn placeholder is answered with a short lifetime, and Commons is not asked
 * again for that file for a while that doubles with each failure in a row (5 minutes up to 6
 * hours), so neither a dead upstream nor a file Commons refuses makes page views hammer Commons.
 * Only Commons' standard widths are ever asked for (src/shared/images.ts).
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
  /** Wikimedia's policy wants a contact in it: userAgent(WIKIDATA_CONTACT), as the SPARQL client's. */
  userAgent?: string;
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
/** After a file's first failure in a row Commons is not asked for it for this long, then twice as long each time… */
export const FIRST_BACKOFF_MS = 5 * 60_000;
/** …up to this: a file Commons refuses for good (deleted, renamed) costs it four requests a day. */
export const MAX_BACKOFF_MS = 6 * 3_600_000;
const MAX_IMAGE_BYTES = 15 * 1024 * 1024;
export const DEFAULT_IMAGE_CACHE_BYTES = 512 * 1024 * 1024;
/**
 * Files whose fetch failed recently (any width: a refused or missing file fails at every width), so
 * Commons is not asked again before their back-off ends. In memory, per instance: it is small,
 * short-lived and on the path of every page view (no database write there); a restart forgets it
 * at the cost of one request per failing file, and each instance asks Commons for its own cache
 * anyway. Bounded: a catalog has a few thousand files; past this the oldest failure is forgotten
 * first (its retry comes early, which is all it costs).
 */
export const MAX_REMEMBERED_FAILURES = 10_000;

const failures = new Map<string, { until: number; inARow: number }>();
/** Commons answered 429: nobody asks it again before its `Retry-After` (at most MAX_BACKOFF_MS). */
let pausedUntil = 0;
const inFlight = new Map<string, Promise<ServedImage>>();

/** Remembers one more failure in a row for `file`; returns how long it is not asked for again. */
export function rememberFailure(file: string): number {
  const inARow = (failures.get(file)?.inARow ?? 0) + 1;
  failures.delete(file);
  while (failures.size >= MAX_REMEMBERED_FAILURES) failures.delete(failures.keys().next().value!);
  const backoff = Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(inARow - 1, 30), MAX_BACKOFF_MS);
  failures.set(file, { until: Date.now() + backoff, inARow });
  return backoff;
}

const backingOff = (file: string) => pausedUntil > Date.now() || (failures.get(file)?.until ?? 0) > Date.now();

/** How many failures are remembered now (tests). */
export const rememberedFailures = () => failures.size;

/** Commons' refusal of too many requests: carries its `Retry-After`. */
class TooManyRequests extends Error {
  constructor(readonly retryAfterMs: number | undefined) {
    super('answered 429');
  }
}

/** Commons file names: no path separators, no control characters, and not absurdly long. */
export function checkFileName(file: string): string {
  if (!file || file.length > 240 || /[/\\\u0000-\u001f]/.test(file) || file === '.' || file === '..') {
    throw invalidInput('Not an image file name.');
  }
  return file;
}

/**
 * `w`: a whole number of pixels, answered at the next width the shop serves (or its largest), so
 * addresses written for older widths keep working and Commons is only ever asked a standard width.
 */
export function checkWidth(value: string | null): ImageWidth {
  const width = Number(value);
  if (!value || !Number.isInteger(width) || width < 1) throw invalidInput(`w must be a whole number of pixels; served: ${imageWidths.join(', ')}.`);
  return servedWidth(width);
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
  if (backingOff(file)) return placeholder(file, width);

  const pending = inFlight.get(key);
  if (pending) return pending;
  // Only a request that makes the shop ask Commons counts (simultaneous ones share its fetch).
  await source.countMiss?.();
  const again = inFlight.get(key);
  if (again) return again;
  if (backingOff(file)) return placeholder(file, width);
  const work = fetchAndKeep(source, key, file, width).finally(() => inFlight.delete(key));
  inFlight.set(key, work);
  return work;
}

async function fetchAndKeep(source: ImageSource, key: string, file: string, width: ImageWidth): Promise<ServedImage> {
  try {
    const fetched = await fetchThumbnail(source, file, width);
    await diskImageCache(source.cacheDir, source.maxCacheBytes ?? DEFAULT_IMAGE_CACHE_BYTES).write(key, fetched);
    failures.delete(file);
    return { ...fetched, cacheControl: KEPT, origin: 'fetched' };
  } catch (error) {
    const backoff = rememberFailure(file);
    if (error instanceof TooManyRequests) pausedUntil = Date.now() + Math.min(Math.max(error.retryAfterMs ?? 0, backoff), MAX_BACKOFF_MS);
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
  const response = await fetch(url, { headers: { 'user-agent': source.userAgent ?? USER_AGENT }, redirect: 'follow', signal: AbortSignal.timeout(source.timeoutMs ?? 8_000) });
  if (response.status === 429) throw new TooManyRequests(retryAfterMs(response.headers.get('retry-after')));
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
  failures.clear();
  pausedUntil = 0;
  lastWarning = 0;
  quietFailures = 0;
}
