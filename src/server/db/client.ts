import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';

export type Db = PrismaClient;
/** A transaction client, as handed to the callback of `db.$transaction`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export function createDb(connectionString: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
}

/**
 * The client, kept on globalThis so `next dev` reloading a module does not open another pool. The
 * server process loads this code once (docs/architecture.md, "The server process"); the map is
 * keyed by the PrismaClient class all the same, so that a second copy, should one ever be loaded
 * (a test harness, a script importing both), would use its own client: otherwise
 * `instanceof Prisma.PrismaClientKnownRequestError` (the unique-violation retries) would test one
 * copy's errors against the other copy's class.
 */
const holder = globalThis as unknown as { __artPrintsDbs?: Map<unknown, Db> };

/**
 * The process's database client. `npm start` resolves the database (the embedded one or
 * DATABASE_URL) before the server starts and hands its address on in DATABASE_URL.
 */
export function db(): Db {
  const clients = (holder.__artPrintsDbs ??= new Map<unknown, Db>());
  let client = clients.get(PrismaClient);
  if (!client) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the shop with `npm start`, which starts the embedded PostgreSQL and sets it.');
    client = createDb(url);
    clients.set(PrismaClient, client);
  }
  return client;
}
