import 'server-only';
import type { PartnerKey } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { notFound } from '@/server/errors';
import { newPartnerKey, partnerKeyHash } from './keys';
import { CreatePartnerKey, type CreatedPartnerKey, type PartnerKeyView } from './schema';

/**
 * Partner keys (docs/security.md "Partner keys"): staff make, list and revoke them; `/v1` finds the
 * partner a key belongs to. Nothing here knows about HTTP; the key itself never reaches the
 * database, only its SHA-256.
 */

/** Who a partner key says is asking, with its own allowances (the actor of its requests). */
export interface Partner {
  id: string;
  name: string;
  ordersPerHour: number;
  uploadsPerHour: number;
}

/**
 * The live partner a key belongs to, counting the request as the key's use: one statement finds
 * the key by its hash and records the use (last used, requests in all and in this clock hour), so
 * simultaneous requests each count once. A revoked or unknown key is null.
 */
export async function partnerForKey(db: Db, key: string): Promise<Partner | null> {
  const rows = await db.$queryRaw<{ id: string; name: string; orders_per_hour: number; uploads_per_hour: number }[]>`
    UPDATE partner_keys
       SET last_used_at = now(),
           requests_total = LEAST(requests_total + 1, 2000000000),
           requests_in_hour = CASE WHEN request_hour = date_trunc('hour', now(), 'UTC') THEN LEAST(requests_in_hour + 1, 2000000000) ELSE 1 END,
           request_hour = date_trunc('hour', now(), 'UTC')
     WHERE key_hash = ${partnerKeyHash(key)} AND revoked_at IS NULL
    RETURNING id::text AS id, name, orders_per_hour, uploads_per_hour`;
  const row = rows[0];
  return row ? { id: row.id, name: row.name, ordersPerHour: row.orders_per_hour, uploadsPerHour: row.uploads_per_hour } : null;
}

/** A new key: stored by its hash; the answer holds the key itself, to be shown once. */
export async function createPartnerKey(db: Db, input: CreatePartnerKey, now = new Date()): Promise<CreatedPartnerKey> {
  const { name, ordersPerHour, uploadsPerHour } = CreatePartnerKey.parse(input);
  const made = newPartnerKey();
  const row = await db.partnerKey.create({ data: { name, keyHash: made.hash, keyPrefix: made.prefix, ordersPerHour, uploadsPerHour, createdAt: now } });
  return { partner: viewOf(row, { thisHour: 0, total: 0 }, now), key: made.key };
}

/**
 * Ends a key for good: from the next request on it is 401. Revoking a revoked key changes nothing
 * (the first revocation's time stays).
 */
export async function revokePartnerKey(db: Db, id: string, now = new Date()): Promise<PartnerKeyView> {
  await db.partnerKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
  const [view] = await partnerKeyViews(db, { id }, now);
  if (!view) throw notFound('No partner key has this id.');
  return view;
}

/** Every key with its use: live keys first, newest first. */
export function listPartnerKeys(db: Db, now = new Date()): Promise<PartnerKeyView[]> {
  return partnerKeyViews(db, {}, now);
}

/** The clock hour (UTC) `now` falls in, the hour the usage columns and the orders allowance count. */
const hourOf = (now: Date) => new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);

async function partnerKeyViews(db: Db, where: { id?: string }, now: Date): Promise<PartnerKeyView[]> {
  const hour = hourOf(now);
  const [keys, total, thisHour] = await Promise.all([
    db.partnerKey.findMany({ where, orderBy: [{ revokedAt: { sort: 'desc', nulls: 'first' } }, { createdAt: 'desc' }] }),
    db.order.groupBy({ by: ['partnerKeyId'], where: { partnerKeyId: where.id ?? { not: null } }, _count: { _all: true } }),
    db.order.groupBy({ by: ['partnerKeyId'], where: { partnerKeyId: where.id ?? { not: null }, createdAt: { gte: hour } }, _count: { _all: true } }),
  ]);
  const countOf = (rows: typeof total, id: string) => rows.find((r) => r.partnerKeyId === id)?._count._all ?? 0;
  return keys.map((key) => viewOf(key, { thisHour: countOf(thisHour, key.id), total: countOf(total, key.id) }, now));
}

function viewOf(key: PartnerKey, orders: { thisHour: number; total: number }, now: Date): PartnerKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.keyPrefix,
    ordersPerHour: key.ordersPerHour,
    uploadsPerHour: key.uploadsPerHour,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    requestsThisHour: key.requestHour?.getTime() === hourOf(now).getTime() ? key.requestsInHour : 0,
    requestsTotal: key.requestsTotal,
    ordersThisHour: orders.thisHour,
    ordersTotal: orders.total,
  };
}
