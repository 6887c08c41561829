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
 * One client per copy of the Prisma client code in the process, kept on globalThis so `next dev`
 * reloading a module does not open another pool. Keyed by that copy's PrismaClient class because
 * the production front (scripts/serve.ts) loads these sources itself next to Next's bundled copy:
 * each copy must use its own client, or `instanceof Prisma.PrismaClientKnownRequestError` (the
 * unique-violation retries) would test one copy's errors against the other copy's class.
 */
const holder = globalThis as unknown as { __artPrintsDbs?: Map<unknown, Db> };

/**
 * The process's database client. `npm start` resolves the database (the embedded one or
 * DATABASE_URL) before the server starts and hands its address on in DATABASE_URL.
 */
export function db(): Db {
  const clients = (holder.__artPrintsDbs ??= new Map());
  let client = clients.get(PrismaClient);
  if (!client) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the shop with `npm start`, which starts the embedded PostgreSQL and sets it.');
    client = createDb(url);
    clients.set(PrismaClient, client);
  }
  return client;
}
