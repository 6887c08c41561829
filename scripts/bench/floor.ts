// The floor (step 3 of scripts/bench.ts): a bare node:http + pg server, run as a child process of
// the benchmark (`scripts/bench.ts --floor-server`), that replays for each URL exactly the statements
// the service ran for it.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { sqlLiteral } from '../lib/statements';
import { HOST, POOL } from './common';

// ───────────────────────────── the floor server (child process mode) ─────────────────────────────

export interface Statement {
  sql: string;
  params: unknown[];
  /** The name the app prepares it under (planOnce), absent when the app sends it unnamed. */
  name?: string;
  /** Statements of one wave ran at the same time in the service; waves ran one after another. */
  wave: number;
  ms: number;
}
export interface FloorEntry {
  statements: Statement[];
  /**
   * The fewest round trips: every statement of the request in one simple-protocol message, the
   * parameters written in as literals. Only for requests of more than one statement; a request
   * of one statement is already one round trip, and its second floor is the first.
   */
  oneTrip?: string;
}
/** The floor server answers `${ONE_TRIP}${url}` with the request's statements in one round trip. */
export const ONE_TRIP = '/one-trip';

/** Runs the statements wave after wave, each wave's statements at once, as the service ran them. */
export async function inWaves(statements: Statement[], one: (s: Statement) => Promise<pg.QueryResult>): Promise<pg.QueryResult[]> {
  const results: pg.QueryResult[] = [];
  const waves = Math.max(...statements.map((s) => s.wave)) + 1;
  for (let w = 0; w < waves; w++) results.push(...(await Promise.all(statements.filter((s) => s.wave === w).map(one))));
  return results;
}
/** The app's two pools as the floor opens them: `planned`, for the statements the app plans once, with the app's settings for them. */
interface Pools {
  shared: pg.Pool;
  planned: pg.Pool;
}
export function openPools(connectionString: string | undefined, plannedSetup: string): Pools {
  // As the app's pool does it (src/server/db/client.ts): set up before the connection is handed
  // out (pg-pool awaits what onConnect returns, whatever @types/pg says).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  const planned = new pg.Pool({ connectionString, max: POOL, onConnect: (client) => client.query(plannedSetup) });
  return { shared: new pg.Pool({ connectionString, max: POOL }), planned };
}
export const endPools = (pools: Pools) => Promise.all([pools.shared.end(), pools.planned.end()]);
/** A statement as the app sends it: named, on the pool of planned statements, when the app prepares it (src/server/db/client.ts). */
export const sendAsApp = (pools: Pools) => (s: Statement) =>
  s.name ? pools.planned.query({ name: s.name, text: s.sql, values: s.params }) : pools.shared.query({ text: s.sql, values: s.params });

/** All the statements in one text, each `$n` replaced by its literal (`$1` never matches inside `$10`). */
export function oneTripText(statements: Statement[]): string {
  return statements.map((s) => s.sql.replace(/\$(\d+)(?!\d)/g, (_, n: string) => sqlLiteral(s.params[Number(n) - 1]))).join(';\n');
}

export async function floorServer() {
  const table = JSON.parse(readFileSync(process.env.FLOOR_TABLE!, 'utf8')) as Record<string, FloorEntry>;
  const pools = openPools(process.env.FLOOR_DATABASE_URL, process.env.FLOOR_PLANNED_SETUP!);
  const send = sendAsApp(pools);
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const oneTrip = req.url?.startsWith(ONE_TRIP) ?? false;
    const entry = table[(oneTrip ? req.url!.slice(ONE_TRIP.length) : req.url) ?? ''];
    if (!entry || (oneTrip && !entry.oneTrip)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown"}');
      return;
    }
    try {
      // A multi-statement simple query answers one result per statement.
      const results = oneTrip
        ? ([] as pg.QueryResult[]).concat((await pools.shared.query(entry.oneTrip!)) as unknown as pg.QueryResult | pg.QueryResult[])
        : await inWaves(entry.statements, send);
      const body = JSON.stringify(results.length === 1 ? results[0]!.rows : results.map((r) => r.rows));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    }
  };
  const server = http.createServer((req, res) => void answer(req, res));
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.FLOOR_PORT), HOST, () => console.log('floor ready'));
  const stop = () => server.close(() => void endPools(pools).then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
