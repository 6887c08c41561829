import 'server-only';
import type { Prisma } from '@/generated/prisma/client';
import type { Tx } from '@/server/db/client';

/**
 * Writes an event for the job engine in the caller's transaction (decisions.md "Jobs"): it exists
 * exactly when the change that caused it committed, and a relay hands it on after commit.
 */
export async function enqueue(tx: Tx, name: string, payload: Prisma.InputJsonObject): Promise<void> {
  await tx.outboxEvent.create({ data: { name, payload } });
}
