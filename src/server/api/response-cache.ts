import 'server-only';
import { hash } from 'node:crypto';
import { compressBuffer, type Encoding } from '@/server/http/compress';
import { CatalogVersionWatch } from '@/server/catalog/version';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';

/**
 * A public catalog answer, serialized once: its UTF-8 body, the ETag of that body, and the body in
 * each content coding a client has asked for, compressed once (`encodedBody`).
 */
export interface PublicAnswer {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  encoded: Map<Encoding, Promise<Buffer>>;
}

const encoder = new TextEncoder();

export function publicAnswer(json: string): PublicAnswer {
  // The ETag hashes the bytes sent: the same tag as hashing the text, which would encode it again.
  const body = encoder.encode(json);
  return { body, etag: `W/"${hash('sha1', body, 'base64url')}"`, encoded: new Map() };
}

/**
 * The answer's body in `encoding`, compressed on the first request that asks for it and kept with
 * the answer: browsers and crawlers all accept gzip or brotli, and compressing a kept answer again
 * for each of them cost more than serving it (0.7 against 0.3 ms of CPU a request:
 * docs/benchmarks/compression.md).
 */
export function encodedBody(answer: PublicAnswer, encoding: Encoding): Promise<Buffer> {
  let body = answer.encoded.get(encoding);
  if (!body) {
    body = compressBuffer(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength), encoding);
    answer.encoded.set(encoding, body);
    // A failure is not kept: the next request tries again.
    body.catch(() => answer.encoded.delete(encoding));
  }
  return body;
}

/** A kept answer and the memory it holds: its key, its body and its compressed bodies. */
interface Entry {
  answer: PublicAnswer;
  bytes: number;
}

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
 * Public catalog answers of one database, kept in this process and keyed by the full request
 * address (path and query, so the locale too), each tagged with the catalog version it was
 * computed under. When the version changes every entry is dropped; so an answer is at most
 * `recheckMs` older than the catalog (docs/decisions.md "Catalog answers in memory"). Least
 * recently used entries go first when the bodies outgrow `maxBytes`. Concurrent misses for one
 * address share one computation.
 */
export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly computing = new Map<string, Promise<PublicAnswer>>();
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

  /** The answer for `key`, from memory when the catalog has not changed since it was computed. */
  async answer(key: string, compute: () => Promise<PublicAnswer>): Promise<{ answer: PublicAnswer; hit: boolean }> {
    // The version is read before the data, so an answer is never tagged newer than what it shows.
    const version = await this.version.current();
    if (version !== this.entriesVersion) this.dropAll(version);
    const kept = this.entries.get(key);
    if (kept) {
      this.stats.hits++;
      // Map order is the recency order: move the entry to the young end.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return { answer: kept.answer, hit: true };
    }
    this.stats.misses++;
    const shared = `${version}\u0000${key}`;
    let pending = this.computing.get(shared);
    if (!pending) {
      pending = compute().finally(() => this.computing.delete(shared));
      this.computing.set(shared, pending);
    }
    const answer = await pending;
    if (this.entriesVersion === version) this.keep(key, answer);
    return { answer, hit: false };
  }

  /** The body of the answer kept under `key` in `encoding` (encodedBody), counted in this cache's memory while it is kept. */
  async encoded(key: string, answer: PublicAnswer, encoding: Encoding): Promise<Buffer> {
    const first = !answer.encoded.has(encoding);
    const body = await encodedBody(answer, encoding);
    const entry = this.entries.get(key);
    if (first && entry?.answer === answer) {
      entry.bytes += body.length;
      this.bytes += body.length;
      this.evictOverCap();
    }
    return body;
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

  private keep(key: string, answer: PublicAnswer) {
    const bytes = answer.body.length + key.length;
    if (bytes > this.options.maxBytes / 8 || this.entries.has(key)) return;
    this.entries.set(key, { answer, bytes });
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
