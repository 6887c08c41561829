import 'server-only';
import { hash } from 'node:crypto';
import { CatalogVersionWatch } from '@/server/catalog/version';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';

/**
 * A computed answer: the value (what the website's pages read), the JSON text a /v1 client is sent
 * of it, as UTF-8 bytes made once, and that text's ETag.
 */
interface Computed {
  value: unknown;
  json: Buffer;
  etag: string;
}

/** A kept answer and the memory it holds (its value's and its bytes', each weighed as the JSON's length, and the key's). */
interface Entry extends Computed {
  bytes: number;
}

/** What the cache answers: the value, its JSON bytes and their weak ETag, and whether it was kept from before. */
export interface CachedAnswer<T> {
  answer: T;
  json: Buffer;
  etag: string;
  hit: boolean;
}

/** The weak ETag of an answer's JSON text (the /v1 body is exactly that text). */
export const etagOf = (text: string | Uint8Array): string => `W/"${hash('sha1', text, 'base64url')}"`;

export interface CacheStats {
  hits: number;
  misses: number;
  /** Entries dropped to stay under the memory cap. */
  evictions: number;
  /** Times every entry was dropped because the catalog changed. */
  invalidations: number;
  entries: number;
  bytes: number;
}

export interface ResponseCacheOptions {
  /** Memory for bodies, in bytes; an answer larger than an eighth of it is never kept. */
  maxBytes: number;
  /** How often the catalog version is re-read (ms); 0: on every read. */
  recheckMs: number;
  /** The monotonic clock (ms) the recheck interval is measured on: performance.now unless a test moves time itself. */
  now?: () => number;
}

/**
 * Public catalog answers of one database, kept in this process and keyed by the procedure and its
 * input (the locale too), each tagged with the catalog version it was computed under. The
 * procedures keep their answers here through a middleware of theirs (`keptForEveryone` in
 * trpc.ts), so /v1 and the website's tRPC share them. When the version changes every entry is
 * dropped; so an answer is at most `recheckMs` older than the catalog (docs/decisions.md "Catalog answers in memory"). Least
 * recently used entries go first when the bodies outgrow `maxBytes`. Concurrent misses for one
 * address share one computation.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly computing = new Map<string, Promise<Computed>>();
  private readonly version: CatalogVersionWatch;
  private entriesVersion: string | undefined;
  private bytes = 0;
  readonly stats: Omit<CacheStats, 'entries' | 'bytes'> = { hits: 0, misses: 0, evictions: 0, invalidations: 0 };

  constructor(
    db: Db,
    private readonly options: ResponseCacheOptions,
  ) {
    this.version = new CatalogVersionWatch(db, options.recheckMs, options.now);
  }

  /**
   * The answer for `key`, from memory when the catalog has not changed since it was computed.
   * `sent` is the part of it a client is sent, whose JSON text is weighed and tagged (the whole
   * answer unless said).
   */
  async answer<T>(key: string, compute: () => Promise<T>, sent: (answer: T) => unknown = (answer) => answer): Promise<CachedAnswer<T>> {
    // The version is read before the data, so an answer is never tagged newer than what it shows.
    const version = await this.version.current();
    if (version !== this.entriesVersion) this.dropAll(version);
    const kept = this.entries.get(key);
    if (kept) {
      this.stats.hits++;
      // Map order is the recency order: move the entry to the young end.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return { answer: kept.value as T, json: kept.json, etag: kept.etag, hit: true };
    }
    this.stats.misses++;
    const shared = `${version}\u0000${key}`;
    let pending = this.computing.get(shared);
    if (!pending) {
      // Serialized and tagged once, in the shared computation, however many calls wait for it.
      pending = compute()
        .then((value): Computed => {
          const json = Buffer.from(JSON.stringify(sent(value)));
          return { value, json, etag: etagOf(json) };
        })
        .finally(() => this.computing.delete(shared));
      this.computing.set(shared, pending);
    }
    const computed = await pending;
    if (this.entriesVersion === version) this.keep(key, computed);
    return { answer: computed.value as T, json: computed.json, etag: computed.etag, hit: false };
  }

  /** This instance changed the catalog: the next read re-reads the version. */
  forgetVersion(): void {
    this.version.forget();
  }

  snapshot(): CacheStats {
    return { ...this.stats, entries: this.entries.size, bytes: this.bytes };
  }

  private dropAll(version: string) {
    if (this.entries.size) this.stats.invalidations++;
    this.entries.clear();
    this.bytes = 0;
    this.entriesVersion = version;
  }

  /** Keeps a computed answer, unless it is too large or kept already; its JSON is what it weighs, twice (the value and the bytes). */
  private keep(key: string, computed: Computed) {
    const bytes = 2 * computed.json.length + key.length;
    if (bytes > this.options.maxBytes / 8 || this.entries.has(key)) return;
    this.entries.set(key, { ...computed, bytes });
    this.bytes += bytes;
    this.evictOverCap();
  }

  private evictOverCap() {
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.bytes;
      this.stats.evictions++;
    }
  }
}

const caches = new WeakMap<Db, ResponseCache | null>();

/** The response cache of a database client (one per client, so tests on their own databases never share one); null when off. */
export function responseCacheFor(db: Db): ResponseCache | null {
  let cache = caches.get(db);
  if (cache === undefined) {
    const e = env();
    const recheckMs = e.CATALOG_CACHE_RECHECK_MS ?? (e.NODE_ENV === 'production' ? 1000 : 0);
    cache = e.CATALOG_CACHE_MB > 0 ? new ResponseCache(db, { maxBytes: e.CATALOG_CACHE_MB * 1024 * 1024, recheckMs }) : null;
    caches.set(db, cache);
  }
  return cache;
}

/** Hands a database client a cache of its own settings (tests run two instances over one database). */
export function useResponseCache(db: Db, cache: ResponseCache | null): void {
  caches.set(db, cache);
}
