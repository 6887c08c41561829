import 'server-only';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { invalidInput, type FieldProblem } from '@/server/errors';
import { BasketEntry, type Basket } from '@/shared/basket-schema';
import { MAX_CHECKOUT_ITEMS } from '@/shared/orders';

/**
 * The signed-in shopper's basket before it is ordered (decisions.md "A basket"): one `baskets` row
 * per user holding the whole list as JSON, each entry the shared `BasketEntry` (the browser's
 * checkout item plus its id, times and thumbnail). Replaced whole by the website, merged at sign-in
 * with the list the browser kept while signed out. Knows nothing of HTTP.
 */

/**
 * The entries a stored basket holds, oldest first. Each is read back through `BasketEntry`, and one
 * that no longer parses is dropped: the shared contract may have tightened since it was saved (a
 * size, frame or style taken off the shared lists, a smaller thumbnail), and one stale entry must
 * not turn the whole basket into a failed answer the shopper cannot get past. The browser's own
 * copy drops what it cannot read the same way; the row is rewritten at the next save.
 */
function storedEntries(json: unknown): BasketEntry[] {
  if (!Array.isArray(json)) return [];
  return json
    .flatMap((raw) => {
      const parsed = BasketEntry.safeParse(raw);
      return parsed.success ? [parsed.data] : [];
    })
    .slice(0, MAX_CHECKOUT_ITEMS);
}

const asJson = (entries: BasketEntry[]) => entries as unknown as Prisma.InputJsonValue;

/** The account's basket; an account that never saved one has an empty one. */
export async function basketOf(db: Db, userId: string): Promise<Basket> {
  const row = await db.basket.findUnique({ where: { userId }, select: { entries: true } });
  return { entries: storedEntries(row?.entries) };
}

/** The same entry twice, or one photo in two custom items: each repeat names itself and the first. */
function repeats(entries: BasketEntry[]): FieldProblem[] {
  const ids = new Map<string, number>();
  const uploads = new Map<string, number>();
  const problems: FieldProblem[] = [];
  entries.forEach((entry, index) => {
    const sameId = ids.get(entry.id);
    if (sameId === undefined) ids.set(entry.id, index);
    else problems.push({ path: `entries[${index}].id`, message: `the same id as entries[${sameId}]` });
    if (entry.item.kind !== 'custom') return;
    const samePhoto = uploads.get(entry.item.uploadId);
    if (samePhoto === undefined) uploads.set(entry.item.uploadId, index);
    else problems.push({ path: `entries[${index}].item.uploadId`, message: `the same photo as entries[${samePhoto}]: one photo makes one painting` });
  });
  return problems;
}

/**
 * Replaces the account's basket with the list given, all of it (an empty list empties it). Two
 * entries with one id, or two custom items with one photo, are refused: the message names the
 * entry at fault (`entries[3].id: …`) and nothing is saved.
 */
export async function saveBasket(db: Db, userId: string, entries: BasketEntry[]): Promise<Basket> {
  const problems = repeats(entries);
  const first = problems[0];
  if (first) throw invalidInput(`${first.path}: ${first.message}`, problems);
  await db.basket.upsert({ where: { userId }, create: { userId, entries: asJson(entries) }, update: { entries: asJson(entries) } });
  return { entries };
}

/**
 * The account's entries first, then those of `given` whose id and (a custom item) photo are not
 * there yet, cut at MAX_CHECKOUT_ITEMS: what does not fit is dropped. A repeat within `given` is
 * ignored as well: the browser's list is merged, not checked.
 */
function mergedEntries(stored: BasketEntry[], given: BasketEntry[]): BasketEntry[] {
  const ids = new Set<string>();
  const uploads = new Set<string>();
  const merged: BasketEntry[] = [];
  for (const entry of [...stored, ...given]) {
    if (merged.length === MAX_CHECKOUT_ITEMS) break;
    const upload = entry.item.kind === 'custom' ? entry.item.uploadId : null;
    if (ids.has(entry.id) || (upload !== null && uploads.has(upload))) continue;
    ids.add(entry.id);
    if (upload !== null) uploads.add(upload);
    merged.push(entry);
  }
  return merged;
}

/**
 * Merges the list the browser kept while signed out into the account's basket (at sign-in, as
 * favorites are) and answers the merged basket. One transaction under the row's lock: the row is
 * made first if the account has none (a concurrent insert waits for this one's commit and then
 * finds it), then read FOR UPDATE, so two tabs merging at once run one after the other and the
 * second merges into what the first saved: nothing is lost.
 */
export async function mergeBasket(db: Db, userId: string, given: BasketEntry[]): Promise<Basket> {
  return db.$transaction(async (tx) => {
    await tx.$executeRaw`INSERT INTO baskets (user_id, entries, updated_at) VALUES (${userId}, '[]'::jsonb, now()) ON CONFLICT (user_id) DO NOTHING`;
    const [row] = await tx.$queryRaw<{ entries: unknown }[]>`SELECT entries FROM baskets WHERE user_id = ${userId} FOR UPDATE`;
    const entries = mergedEntries(storedEntries(row?.entries), given);
    await tx.basket.update({ where: { userId }, data: { entries: asJson(entries) } });
    return { entries };
  });
}
