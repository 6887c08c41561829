import 'server-only';
import type { Tx } from './client';

/**
 * The keys of the shop's advisory locks, in one list so that no two steps can take the same
 * number by accident. Each serialises one step across instances, held to the end of a transaction:
 * - ingest: concurrent ingest runs write their works one at a time;
 * - publish: the day's cap is read and spent under it, so two runs never exceed it;
 * - seed: instances starting together write the curated catalog once.
 * (Prisma Migrate's own key, which the migrate step shares with it, is in migrate.ts.)
 */
const transactionLocks = { ingest: 73_050_001, publish: 73_050_002, seed: 73_050_003 } as const;

/** Waits for the lock, then holds it until the transaction ends (commit or rollback). */
export async function lockForTransaction(tx: Tx, step: keyof typeof transactionLocks): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${transactionLocks[step]})`;
}
