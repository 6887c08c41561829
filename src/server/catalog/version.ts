import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import { readRows, type Db, type Tx } from '@/server/db/client';

/**
 * The catalog version: a counter in the one row of `catalog_version`, bumped by triggers on the
 * catalog tables at the commit of any transaction that changes what a shopper can see (a published
 * work, artist or browse page, their texts and links). Nothing in the app has to remember to bump
 * it: publish runs, recounts, the seed and staff edits all do through the triggers.
 */
export async function readCatalogVersion(db: Db | Tx): Promise<string> {
  const [row] = await readRows<{ version: bigint }>(db, Prisma.sql`SELECT version FROM catalog_version WHERE id = 1`);
  return String(row?.version ?? 0n);
}

/**
 * One instance's knowledge of the catalog version of one database. The version is re-read at most
 * every `recheckMs` (0: on every call), with one read in flight at a time, so a changed catalog is
 * noticed at most `recheckMs` (plus one read) after its commit, on every instance.
 */
export class CatalogVersionWatch {
  private known: { version: string; readAt: number } | undefined;
  private reading: Promise<string> | undefined;

  constructor(
    private readonly db: Db,
    private readonly recheckMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The version as of at most `recheckMs` ago. */
  current(): Promise<string> | string {
    // 0: read-your-writes, so never join a read that may have started before the caller's change.
    if (this.recheckMs === 0) return this.read();
    const known = this.known;
    if (known && this.now() - known.readAt < this.recheckMs) return known.version;
    return (this.reading ??= this.read());
  }

  /** The next `current()` reads the database again (this instance just changed the catalog). */
  forget(): void {
    this.known = undefined;
  }

  private async read(): Promise<string> {
    // Time from before the read: the answer is at least as new as that moment.
    const readAt = this.now();
    try {
      const version = await readCatalogVersion(this.db);
      this.known = { version, readAt };
      return version;
    } finally {
      this.reading = undefined;
    }
  }
}
