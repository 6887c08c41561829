import 'server-only';
import { Prisma } from '@/generated/prisma/client';
import type { Db } from '@/server/db/client';
import { logger } from '@/server/logger';

export interface OutboxRow {
  id: string;
  name: string;
  payload: Prisma.JsonValue;
  /** Including this one. */
  attempts: number;
}

export interface ClaimOptions {
  /** Only events of these names (the worker takes the ones it has jobs for). */
  names?: readonly string[];
  /** Only these rows. */
  ids?: readonly string[];
  limit?: number;
  /** How long a claimed row is hidden from other workers; a worker that dies lets it come back after this. */
  leaseSeconds?: number;
}

/** 5 s, 10 s, 20 s, … up to an hour between attempts; a failing event is retried forever, never dropped. */
export const backoffMs = (attempts: number) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/**
 * Takes due outbox rows for this worker: rows another worker holds are skipped (SKIP LOCKED), and a
 * claimed row is leased (its available_at moves ahead) so it is not taken twice while it is worked on.
 */
export async function claimOutbox(db: Db, options: ClaimOptions = {}): Promise<OutboxRow[]> {
  const filters = [
    options.names ? Prisma.sql`AND name = ANY(${[...options.names]}::text[])` : Prisma.empty,
    options.ids ? Prisma.sql`AND id = ANY(${[...options.ids]}::uuid[])` : Prisma.empty,
  ];
  return db.$queryRaw<OutboxRow[]>(Prisma.sql`
    UPDATE outbox_events
       SET attempts = attempts + 1, available_at = now() + make_interval(secs => ${options.leaseSeconds ?? 300})
     WHERE id IN (
       SELECT id FROM outbox_events
        WHERE sent_at IS NULL AND available_at <= now() ${Prisma.join(filters, ' ')}
        ORDER BY available_at, created_at
        LIMIT ${options.limit ?? 20}
        FOR UPDATE SKIP LOCKED)
    RETURNING id::text AS id, name, payload, attempts`);
}

export async function markSent(db: Db, id: string): Promise<void> {
  await db.outboxEvent.update({ where: { id }, data: { sentAt: new Date(), lastError: null } });
}

export async function markFailed(db: Db, row: OutboxRow, error: unknown, backoff: (attempts: number) => number = backoffMs): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await db.outboxEvent.update({
    where: { id: row.id },
    data: { lastError: message.slice(0, 2000), availableAt: new Date(Date.now() + backoff(row.attempts)) },
  });
}

export type OutboxHandler = (row: OutboxRow) => Promise<unknown>;

/** Claims one batch and hands each row to `handle`: done rows are marked sent, failed ones wait their backoff. */
export async function drainOutbox(
  db: Db,
  handle: OutboxHandler,
  options: ClaimOptions & { backoff?: (attempts: number) => number } = {},
): Promise<{ claimed: number; sent: number; failed: number }> {
  const rows = await claimOutbox(db, options);
  let sent = 0;
  let failed = 0;
  for (const row of rows) {
    try {
      await handle(row);
      await markSent(db, row.id);
      sent++;
    } catch (error) {
      failed++;
      logger.warn({ outboxEvent: row.id, event: row.name, attempt: row.attempts, err: error }, 'outbox event failed, retried later');
      await markFailed(db, row, error, options.backoff);
    }
  }
  return { claimed: rows.length, sent, failed };
}

export interface OutboxLoop {
  stop(): Promise<void>;
}

/** Polls the outbox every `intervalMs` (and at once after a full batch) until stopped. */
export function startOutboxLoop(db: Db, handle: OutboxHandler, options: ClaimOptions & { intervalMs?: number; backoff?: (attempts: number) => number } = {}): OutboxLoop {
  const interval = options.intervalMs ?? 2_000;
  const limit = options.limit ?? 20;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    try {
      while (!stopped) {
        const { claimed } = await drainOutbox(db, handle, { ...options, limit });
        if (claimed < limit) break;
      }
    } catch (error) {
      logger.error({ err: error }, 'outbox: could not read pending events (retrying)');
    }
    if (!stopped) timer = setTimeout(() => void (running = tick()), interval).unref();
  };
  timer = setTimeout(() => void (running = tick()), 0).unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
