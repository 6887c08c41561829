// The capture (step 3 of scripts/bench.ts): what the service runs for each URL, called in-process
// through the real /v1 handler; and the plans of the search statements (step 5).
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { explainAsSent, type Explained } from '../lib/statements';
import type { RequestHead } from '@/server/http/answers';
import { EXPLAIN_RUNS } from './common';
import type { Endpoint } from './endpoints';
import { endPools, type FloorEntry, inWaves, oneTripText, openPools, sendAsApp, type Statement } from './floor';

// ───────────────────────────── capture: what the service runs for each URL ─────────────────────────────

export interface Capture {
  table: Record<string, FloorEntry>;
  /** Per URL: handleRest's own time in the capturing run (ms) and the statements' wall time. */
  breakdown: Record<string, { rest: number; restHit: number; prisma: number; pg: number; floor: number; statements: number; waves: number }>;
}

export async function capture(url: string, list: Endpoint[], base: string): Promise<Capture> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  const { PrismaClient } = await import('@/generated/prisma/client');
  const { handleRest } = await import('@/server/api/rest');
  const { createContext } = await import('@/server/api/context');
  const logging = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: 'event', level: 'query' }] });
  const { createDb, statementName, PLANNED_CONNECTION_SETUP } = await import('@/server/db/client');
  // As the app's: the statements it plans once are named (planOnce).
  const plain = createDb(url);
  // A client whose answers come from a response cache of its own: what handleRest costs on a hit.
  const { ResponseCache, useResponseCache } = await import('@/server/api/response-cache');
  const cached = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  useResponseCache(cached, new ResponseCache(cached, { maxBytes: 512 * 1024 * 1024, recheckMs: 60_000 }));
  const pools = openPools(url, PLANNED_CONNECTION_SETUP);
  let current: { sql: string; params: unknown[]; start: number; end: number }[] | null = null;
  (logging as unknown as { $on(e: 'query', cb: (event: { query: string; params: string; duration: number }) => void): void }).$on('query', (event) => {
    const end = performance.now();
    current?.push({ sql: event.query, params: JSON.parse(event.params) as unknown[], start: end - Number(event.duration), end });
  });
  const context = (client: unknown) => (options: { req: RequestHead }) => createContext({ ...options, db: client as never });
  const table: Record<string, FloorEntry> = {};
  const breakdown: Capture['breakdown'] = {};
  const time = async (f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  try {
    for (const endpoint of list) {
      for (const p of endpoint.paths) {
        if (table[p]) continue;
        current = [];
        const response = await handleRest(new Request(`${base}${p}`), context(logging));
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${p} answered ${response.status}: ${body.slice(0, 300)}`);
        const seen: NonNullable<typeof current> = current;
        current = null;
        if (!seen.length) throw new Error(`${p} ran no statement`);
        seen.sort((a, b) => a.start - b.start);
        // A statement that started after every earlier one had finished opens the next wave.
        let wave = -1;
        let waveEnd = -Infinity;
        const statements = seen.map((s) => {
          if (s.start >= waveEnd - 0.05) {
            wave++;
            waveEnd = s.end;
          } else {
            waveEnd = Math.max(waveEnd, s.end);
          }
          const name = statementName(s.sql);
          return { sql: s.sql, params: s.params, ...(name ? { name } : {}), wave, ms: s.end - s.start };
        });
        table[p] = { statements, ...(statements.length > 1 ? { oneTrip: oneTripText(statements) } : {}) };
        if (statements.length > 1) {
          // The one-trip text must answer exactly what the statements answer.
          const each = JSON.stringify((await inWaves(statements, sendAsApp(pools))).map((r) => r.rows));
          const whole = JSON.stringify(([] as pg.QueryResult[]).concat((await pools.shared.query(table[p].oneTrip!)) as unknown as pg.QueryResult[]).map((r) => r.rows));
          if (each !== whole) throw new Error(`${p}: the one-round-trip floor answers differently from the statements`);
        }
      }
    }
    // Where a request's time goes, one request at a time: a warm-up pass, then the measured one.
    const pgOne = sendAsApp(pools);
    const prismaOne = (s: Statement) => plain.$queryRawUnsafe<unknown[]>(s.sql, ...s.params).then((rows) => ({ rows }) as pg.QueryResult);
    for (const endpoint of list) {
      const sample = endpoint.paths.slice(0, endpoint.group === 'sitemap-chunk' ? 5 : 15);
      for (const pass of [0, 1]) {
        for (const p of sample) {
          const statements = table[p]!.statements;
          const rest = await time(async () => (await handleRest(new Request(`${base}${p}`), context(plain))).arrayBuffer());
          await (await handleRest(new Request(`${base}${p}`), context(cached))).arrayBuffer();
          const restHit =
            (await time(async () => {
              for (let k = 0; k < 20; k++) await (await handleRest(new Request(`${base}${p}`), context(cached))).arrayBuffer();
            })) / 20;
          const prisma = await time(() => inWaves(statements, prismaOne));
          const viaPg = await time(() => inWaves(statements, pgOne));
          const floor = await time(async () => JSON.stringify((await inWaves(statements, pgOne)).map((r) => r.rows)));
          if (pass === 1) breakdown[p] = { rest, restHit, prisma, pg: viaPg, floor, statements: statements.length, waves: statements[statements.length - 1]!.wave + 1 };
        }
      }
    }
  } finally {
    await logging.$disconnect();
    await plain.$disconnect();
    await cached.$disconnect();
    await endPools(pools);
  }
  return { table, breakdown };
}

// ───────────────────────────── plans ─────────────────────────────

export interface Plan {
  endpoint: string;
  query: string;
  statement: string;
  seqScanOfArtworks: boolean;
  /** Every table the plan reads with a (parallel) sequential scan. */
  seqScans: string[];
  /** Whether the app prepares it (planOnce): then its plan was made once, and planning here is that of EXECUTE. */
  prepared: boolean;
  planningMs: number;
  executionMs: number;
  text: string;
}

/** What a search request's statement does: its page (with the total), the "did you mean", or the page of what that suggests. */
function searchStatement(s: Statement, k: number): string {
  if (s.sql.includes('near_words')) return 'did you mean';
  if (s.sql.includes('matched')) return k === 0 ? 'page of cards' : 'page of the suggestion';
  return k === 0 ? 'suggestions' : 'other';
}

export async function explainSearches(url: string, plannedSetup: string, list: Endpoint[], table: Record<string, FloorEntry>): Promise<Plan[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // As the app runs them: a statement it plans once is prepared on a connection like those of
  // its planned pool, and its kept plan explained (EXECUTE); the others are planned for their values.
  const planned = new pg.Client({ connectionString: url });
  await planned.connect();
  await planned.query(plannedSetup);
  const plans: Plan[] = [];
  try {
    for (const endpoint of list.filter((e) => e.group === 'search')) {
      for (const p of endpoint.paths) {
        const query = decodeURIComponent(new URL(p, 'http://x').searchParams.get('q') ?? '');
        for (const [k, s] of table[p]!.statements.entries()) {
          if (s.name) await planned.query({ name: s.name, text: s.sql, values: s.params });
          // The median of EXPLAIN_RUNS, as one run right after the load can catch the machine busy.
          const runs: Explained[] = [];
          for (let i = 0; i < EXPLAIN_RUNS; i++) runs.push(await explainAsSent(client, planned, s));
          const { text, planningMs, executionMs } = runs.sort((a, b) => a.planningMs + a.executionMs - (b.planningMs + b.executionMs))[Math.floor(EXPLAIN_RUNS / 2)]!;
          plans.push({
            endpoint: endpoint.name,
            query,
            statement: searchStatement(s, k),
            prepared: Boolean(s.name),
            planningMs,
            seqScanOfArtworks: /Seq Scan on artworks\b/.test(text),
            seqScans: [...new Set([...text.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!))],
            executionMs,
            text,
          });
        }
      }
    }
  } finally {
    await client.end();
    await planned.end();
  }
  return plans;
}
