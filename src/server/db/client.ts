import 'server-only';
import { hash } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { Prisma, PrismaClient } from '@/generated/prisma/client';
import { logger } from '@/server/logger';

export type Db = PrismaClient;
/** A transaction client, as handed to the callback of `db.$transaction`. */
export type Tx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

/** How many different statement texts a process prepares; later ones are sent unnamed. */
const PREPARED_STATEMENTS = 500;
const PLAN_ONCE = '/* plan once */ ';
/** The named statements' texts and names (a text is hashed once per process, not on every request). */
const named = new Map<string, string>();

/**
 * A statement PostgreSQL plans once per pooled connection instead of for every request.
 * Why: a catalog read is one statement whose planning (1–3 ms at 100,000 works) can cost more
 * than its execution. Sent as a named prepared statement on the pool of planned statements, it is
 * parsed and planned once per connection: one generic plan, made without the values
 * (PLANNED_CONNECTION_SETUP). Only for statements measured to gain (scripts/catalog-plans.ts
 * --prepared): where the best plan depends on the values (the size of a browse page, a search
 * inside a filtered grid), a generic plan was slower than planning each time.
 */
export function planOnce(statement: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(PLAN_ONCE)}${statement}`;
}

/**
 * The name a statement is prepared under on every connection (the text's hash, so connections and
 * processes agree), or undefined to send it unnamed: only `planOnce` statements are named, and at
 * most PREPARED_STATEMENTS texts, so a connection's prepared statements stay bounded.
 * A transaction-mode connection pooler (PgBouncer before 1.21) would not keep them: docs/deploy.md.
 */
export function statementName(sql: string): string | undefined {
  if (!sql.startsWith(PLAN_ONCE)) return undefined;
  const known = named.get(sql);
  if (known) return known;
  if (named.size >= PREPARED_STATEMENTS) return undefined;
  const name = `s${hash('sha1', sql, 'base64url').slice(0, 22)}`;
  named.set(sql, name);
  return name;
}

/**
 * What each connection that runs `planOnce` statements is set to first: every named statement gets
 * a generic plan at once. PostgreSQL's own choice (plan_cache_mode auto) compares the generic
 * plan's estimated cost with the plans made for the values, and kept planning the search box's
 * statement for every request (1.1–1.6 ms of its 4–6 ms at 100,000 works) although its generic
 * plan runs as fast. A setting of the connection, so a pool of its own: on the shared pool it
 * would also make Prisma's unnamed statements generic. (A SET rather than a startup option, which
 * some poolers refuse.)
 */
export const PLANNED_CONNECTION_SETUP = 'SET plan_cache_mode = force_generic_plan';

/** Each client's pools: the one shared by Prisma and `readRows`, and the one for `planOnce` statements. */
const pools = new WeakMap<Db, { shared: pg.Pool; planned: pg.Pool }>();

/**
 * A pool whose idle connection the server drops (a restart) is replaced by the next query, not a
 * crash; `setup`, when given, runs on each new connection before the pool hands it out (pg-pool
 * awaits `onConnect`). Sent from a 'connect' listener, it went alongside the query that opened
 * the connection, which pg deprecates ("already executing a query") and pg 9 will refuse. A setup
 * that fails leaves the connection as it is, planning for the values: slower, not wrong.
 */
function openPool(config: pg.PoolConfig, setup?: string): pg.Pool {
  const onConnect =
    setup === undefined
      ? undefined
      : async (client: pg.ClientBase) => {
          try {
            await client.query(setup);
          } catch (error) {
            const { code, message } = error as Error & { code?: string };
            logger.warn({ code, reason: message }, 'database: a new connection could not be set up');
          }
        };
  // @types/pg says onConnect returns void; pg-pool (3.14, index.js `_promiseTry`) awaits what it returns.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const pool = new pg.Pool({ ...config, onConnect });
  // Without a listener, the pool's 'error' would end the process.
  // (Its code and text only: the error carries the pg client, settings and all.)
  pool.on('error', (error: Error & { code?: string }) => logger.warn({ code: error.code, reason: error.message }, 'database: an idle connection was closed'));
  return pool;
}

/**
 * A client with its own pools, each of pg's default of 10 connections unless `connections` says
 * otherwise: one shared by Prisma and `readRows`, one for the statements planned once.
 */
export function createDb(connectionString: string, options: { connections?: number } = {}): Db {
  const shared = openPool({ connectionString, max: options.connections });
  const planned = openPool({ connectionString, max: options.connections }, PLANNED_CONNECTION_SETUP);
  // '' names no statement: pg sends it unnamed, planned for its values.
  const adapter = new PrismaPg(shared, { statementNameGenerator: ({ sql }) => statementName(sql) ?? '' });
  const client = new PrismaClient({ adapter });
  // The pools are ours, not the adapter's: they end with the client, also when only `readRows` used them.
  const disconnect = client.$disconnect.bind(client);
  client.$disconnect = async () => {
    await disconnect();
    await Promise.all([shared, planned].filter((pool) => !pool.ending).map((pool) => pool.end()));
  };
  pools.set(client, { shared, planned });
  return client;
}

/**
 * PostgreSQL types a read through `readRows` may return: those pg parses to the same JavaScript
 * value as Prisma's `$queryRaw` (int8 made a BigInt below, as Prisma does). Not numeric (Prisma:
 * a Decimal), date or timestamp without zone (Prisma reads them as UTC, pg as local time), bytea,
 * int8 arrays or the schema's enums (pg leaves an enum array one string): cast those in the SQL.
 */
const SAME_AS_PRISMA = new Set([16, 18, 19, 20, 21, 23, 25, 114, 700, 701, 1000, 1005, 1007, 1009, 1015, 1042, 1043, 1184, 2950, 3802]);
const rowTypes = new pg.TypeOverrides();
rowTypes.setTypeParser(pg.types.builtins.INT8, (value) => BigInt(value));

/**
 * The rows of a read-only statement, sent to the client's pool directly rather than through
 * Prisma's query engine: the same rows as `db.$queryRaw`, without Prisma's per-query work (27 % of
 * the cheapest answer's CPU). Side by side, cold, each catalog read measured answered 8–25 % more
 * requests a second, /v1/health 22 % (docs/benchmarks/README.md "catalog-compare-2026-11-24-readrows").
 * For the hot reads (catalog, catalog version, health, sitemaps); every write stays with Prisma. A
 * transaction client has no pool of its own here, so it reads through `$queryRaw`.
 */
export async function readRows<T>(db: Db | Tx, statement: Prisma.Sql): Promise<T[]> {
  const own = pools.get(db as Db);
  if (!own) return (db as Db).$queryRaw<T[]>(statement);
  const name = statementName(statement.text);
  const pool = name ? own.planned : own.shared;
  const result = await pool.query({ name, text: statement.text, values: statement.values, types: rowTypes });
  for (const field of result.fields) {
    if (!SAME_AS_PRISMA.has(field.dataTypeID)) {
      throw new Error(`readRows: column "${field.name}" has type oid ${field.dataTypeID}, which pg and Prisma read differently: cast it in the statement`);
    }
  }
  return result.rows as T[];
}

/**
 * The client, kept on globalThis so `next dev` reloading a module does not open another pool. The
 * server process loads this code once (docs/deploy.md, "The server process"); the map is
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
