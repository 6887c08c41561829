import 'server-only';
import type { Db } from '@/server/db/client';

/**
 * Whether a file name is the image of a catalog artwork (queued or published): the only names
 * /images serves. Answers are remembered for a minute (a page asks for the same few dozen files
 * again and again), in a bounded memory: names sprayed by a client push out only the oldest.
 */
const REMEMBER_MS = 60_000;
const MAX_REMEMBERED = 20_000;

type Memory = Map<string, { known: boolean; until: number }>;
const memories = new WeakMap<Db, Memory>();

export function catalogImageFiles(db: Db): (file: string) => Promise<boolean> {
  let memory = memories.get(db);
  if (!memory) memories.set(db, (memory = new Map() as Memory));
  const remembered = memory;
  return async (file) => {
    const now = Date.now();
    const hit = remembered.get(file);
    if (hit && hit.until > now) return hit.known;
    // artworks_image_file_idx (migration 20261124020000_security) answers this without a scan.
    const rows = await db.$queryRaw<{ known: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM artworks WHERE image_file = ${file} AND status IN ('queued', 'published')) AS known`;
    const known = Boolean(rows[0]?.known);
    remembered.delete(file);
    while (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.set(file, { known, until: now + REMEMBER_MS });
    return known;
  };
}

/** Tests that change the catalog under a running memory. */
export function forgetCatalogImages(db: Db): void {
  memories.delete(db);
}
