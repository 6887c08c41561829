import 'server-only';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The thumbnails kept on disk, bounded in bytes (IMAGE_CACHE_MB): when a new one would pass the
 * bound, the least recently used go first. Recency is kept in memory (a Map in use order) and,
 * roughly, in each file's mtime, so a restarted instance starts from the same order (the folder is
 * scanned once, on first use). One instance per folder: instances behind a balancer each have
 * their own DATA_DIR; two sharing one would each keep their own count and evict each other's files.
 */
export interface KeptImage {
  body: Buffer;
  contentType: string;
}

interface Entry {
  bytes: number;
  touched: number;
}

/** A file's mtime is moved on a hit at most this often: recency across restarts, without a write per hit. */
const TOUCH_EVERY_MS = 60 * 60_000;

export class DiskImageCache {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private loading: Promise<void> | undefined;

  constructor(
    readonly folder: string,
    readonly maxBytes: number,
  ) {}

  /** Bytes held now (after the first scan). */
  async size(): Promise<number> {
    await this.load();
    return this.total;
  }

  private fileOf(key: string): string {
    return path.join(this.folder, key.slice(0, 2), key);
  }

  /** The kept image, marked as just used; null when it is not kept. */
  async read(key: string): Promise<KeptImage | null> {
    await this.load();
    const entry = this.entries.get(key);
    if (!entry) return null;
    const stored = this.fileOf(key);
    try {
      const [body, type] = await Promise.all([readFile(stored), readFile(`${stored}.type`, 'utf8')]);
      // Most recently used: to the end of the Map's order.
      this.entries.delete(key);
      this.entries.set(key, entry);
      const now = Date.now();
      if (now - entry.touched > TOUCH_EVERY_MS) {
        entry.touched = now;
        void utimes(stored, new Date(now), new Date(now)).catch(() => undefined);
      }
      return { body, contentType: type.trim() };
    } catch {
      // Removed under us (by hand, or by another process): forget it.
      this.forget(key);
      return null;
    }
  }

  /** Keeps an image (written to a temporary name and renamed, so a reader never sees half a file), then evicts down to the bound. */
  async write(key: string, image: KeptImage): Promise<void> {
    await this.load();
    if (image.body.length > this.maxBytes) return;
    const stored = this.fileOf(key);
    await mkdir(path.dirname(stored), { recursive: true });
    const temp = `${stored}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(`${temp}.type`, image.contentType);
    await writeFile(temp, image.body);
    await rename(`${temp}.type`, `${stored}.type`);
    await rename(temp, stored);
    this.forget(key);
    const bytes = image.body.length + Buffer.byteLength(image.contentType);
    this.entries.set(key, { bytes, touched: Date.now() });
    this.total += bytes;
    await this.evict();
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** Least recently used out until the cache is under its bound. */
  private async evict(): Promise<void> {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) return;
      this.entries.delete(key);
      this.total -= entry.bytes;
      const stored = this.fileOf(key);
      await Promise.all([unlink(stored).catch(() => undefined), unlink(`${stored}.type`).catch(() => undefined)]);
    }
  }

  /** The first use scans the folder (what an earlier run kept), oldest first by mtime. */
  private load(): Promise<void> {
    this.loading ??= (async () => {
      const found: { key: string; bytes: number; mtime: number }[] = [];
      const shards = await readdir(this.folder).catch(() => [] as string[]);
      for (const shard of shards) {
        const names = await readdir(path.join(this.folder, shard)).catch(() => [] as string[]);
        for (const name of names) {
          if (!/^[0-9a-f]{64}$/.test(name)) continue;
          const stored = path.join(this.folder, shard, name);
          try {
            const [file, type] = await Promise.all([stat(stored), stat(`${stored}.type`)]);
            found.push({ key: name, bytes: file.size + type.size, mtime: file.mtimeMs });
          } catch {
            // half-written or half-removed: not kept
          }
        }
      }
      found.sort((a, b) => a.mtime - b.mtime);
      for (const f of found) {
        this.entries.set(f.key, { bytes: f.bytes, touched: f.mtime });
        this.total += f.bytes;
      }
      await this.evict();
    })();
    return this.loading;
  }
}

const caches = new Map<string, DiskImageCache>();

/** One cache per folder in this process, so every request counts into the same bound. */
export function diskImageCache(folder: string, maxBytes: number): DiskImageCache {
  const id = `${path.resolve(folder)}\u0000${maxBytes}`;
  let cache = caches.get(id);
  if (!cache) caches.set(id, (cache = new DiskImageCache(folder, maxBytes)));
  return cache;
}
