import { formActionSourcesOfEnvironment, hashedPagePolicy } from './page-policy.mjs';

/**
 * Next's cache for pages (ISR) and `unstable_cache` data, replacing its default (`cacheHandler` in
 * next.config.mjs, Next's documented seam). Plain JavaScript, types in page-cache.d.mts: Next loads
 * it as it is, outside its bundle, under `next dev`, `next build` and `next start` alike. Two reasons:
 *
 * - **The policy of a cached page.** Every visitor of a cached page gets the same HTML, so its
 *   inline scripts cannot carry a per-request nonce. When Next stores a page, its policy (the hash
 *   of each inline script) is computed once and stored with the page's headers; Next sends stored
 *   headers with every copy it serves. The first answer, the one that rendered the page, is served
 *   from the very entry stored here, so it carries the policy too (tests/e2e/security.spec.ts
 *   checks both the first and a later answer of a never-rendered page).
 * - **A bounded memory.** About 700,000 addresses (100,000 works in seven languages) would not fit:
 *   entries are kept in memory up to PAGE_CACHE_MB (default 128), least recently used out. Each
 *   instance has its own; a page missing is rendered again, as after a restart.
 *
 * Revalidation: entries older than their page's `revalidate` are refreshed by Next itself (it
 * compares `lastModified`); `revalidateTag` and `revalidatePath` expire every entry carrying one of
 * the tags (a page's tags are in its `x-next-cache-tags` header; `unstable_cache` data's are given
 * when it is read).
 */

/**
 * What Next stores: a page, a route's answer, `unstable_cache` data (`kind` says which).
 * @typedef {{ kind: string, html?: string, rscData?: Buffer, headers?: Record<string, string | string[] | number | undefined>, [field: string]: unknown }} CacheValue
 */

/**
 * `stored`: when it was stored, in the order of stores and revalidations (two can fall in one millisecond).
 * @typedef {{ value: CacheValue | null, lastModified: number, stored: number, tags: string[], bytes: number }} Entry
 */

/**
 * Next's context of a read: for `unstable_cache` data, its tags and the page's implicit ones.
 * @typedef {{ kind?: string, tags?: string[], softTags?: string[] }} ReadContext
 */

const TAGS_HEADER = 'x-next-cache-tags';

/** The store, shared by every handler instance: Next makes a handler per request. */
/** @type {Map<string, Entry>} */
const entries = new Map();
/** When each tag was last revalidated (in `moment`s): entries stored before that are expired. */
/** @type {Map<string, number>} */
const expiredAt = new Map();
let storedBytes = 0;
let moment = 0;
/** Where the pages' forms may post (their `form-action`), from the settings, read once. */
/** @type {string[] | undefined} */
let formActions;

/** @param {CacheValue | null} value */
function sizeOf(value) {
  if (!value) return 64;
  let bytes = 256;
  if (typeof value.html === 'string') bytes += Buffer.byteLength(value.html);
  if (value.rscData) bytes += value.rscData.byteLength;
  if (value.kind === 'FETCH') bytes += JSON.stringify(value.data ?? null).length;
  if (value.segmentData instanceof Map) for (const segment of value.segmentData.values()) bytes += segment?.byteLength ?? 0;
  return bytes;
}

/**
 * @param {CacheValue | null} value
 * @param {string[] | undefined} given
 * @returns {string[]}
 */
function tagsOf(value, given) {
  const header = value?.headers?.[TAGS_HEADER];
  const fromHeader = typeof header === 'string' ? header.split(',') : [];
  return [...new Set([...(given ?? []), ...fromHeader])];
}

/** @param {string} key */
function forget(key) {
  const entry = entries.get(key);
  if (!entry) return;
  storedBytes -= entry.bytes;
  entries.delete(key);
}

/**
 * Adds the page's policy to the headers Next stores and serves with it. The object is the one Next
 * serves the rendering answer from, so that answer carries the policy as well.
 */
/** @param {CacheValue} value */
function withPolicy(value) {
  if (value.kind !== 'APP_PAGE' || typeof value.html !== 'string') return;
  formActions ??= formActionSourcesOfEnvironment();
  value.headers ??= {};
  value.headers['content-security-policy'] = hashedPagePolicy(value.html, formActions);
}

export default class PageCache {
  /**
   * @param {string} key
   * @param {ReadContext} [context]
   * @returns {Promise<{ value: CacheValue | null, lastModified: number } | null>}
   */
  async get(key, context = {}) {
    const entry = entries.get(key);
    if (!entry) return null;
    const tags = [...entry.tags, ...(context.tags ?? []), ...(context.softTags ?? [])];
    if (tags.some((tag) => (expiredAt.get(tag) ?? -1) > entry.stored)) {
      forget(key);
      return null;
    }
    // Least recently used out: a read moves the entry to the end of the Map's order.
    entries.delete(key);
    entries.set(key, entry);
    return { value: entry.value, lastModified: entry.lastModified };
  }

  /**
   * @param {string} key
   * @param {CacheValue | null} value
   * @param {{ tags?: string[] }} [context]
   */
  async set(key, value, context = {}) {
    forget(key);
    if (value) withPolicy(value);
    /** @type {Entry} */
    const entry = { value, lastModified: Date.now(), stored: ++moment, tags: tagsOf(value, context.tags), bytes: sizeOf(value) };
    const limit = pageCacheBytes();
    if (entry.bytes > limit) return;
    entries.set(key, entry);
    storedBytes += entry.bytes;
    for (const oldest of entries.keys()) {
      if (storedBytes <= limit) break;
      forget(oldest);
    }
  }

  /** @param {string | string[]} tags */
  async revalidateTag(tags) {
    const now = ++moment;
    for (const tag of typeof tags === 'string' ? [tags] : tags) expiredAt.set(tag, now);
  }

  resetRequestCache() {}
}

/** For tests: what the cache holds. */
export function pageCacheSize() {
  return { entries: entries.size, bytes: storedBytes };
}

/** The page cache's memory, PAGE_CACHE_MB (default 128), in bytes. */
export function pageCacheBytes(env = process.env) {
  const mb = Number(env.PAGE_CACHE_MB ?? 128);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 128) * 1024 * 1024;
}
