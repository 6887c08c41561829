import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';

export type Db = PrismaClient;
/** A transaction client, as handed to the callback of `db.$transaction`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createDb(connectionString: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
}

const holder = globalThis as unknown as { __artPrintsDb?: Db };

/**
 * The process's database client. `npm start` resolves the database (the embedded one or
 * DATABASE_URL) before the server starts and hands its address on in DATABASE_URL.
 */
export function db(): Db {
  if (!holder.__artPrintsDb) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the shop with `npm start`, which starts the embedded PostgreSQL and sets it.');
    holder.__artPrintsDb = createDb(url);
  }
  return holder.__artPrintsDb;
}
