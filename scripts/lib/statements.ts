/**
 * Statements captured from the app, sent again by the measuring scripts (scripts/bench.ts,
 * scripts/catalog-plans.ts) as the app sends them. Imports nothing of the app: the benchmark's
 * floor server loads it too.
 */
import type pg from 'pg';

/**
 * A parameter written into the SQL text, as a literal PostgreSQL types from its context like a
 * parameter (standard_conforming_strings is on).
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  if (Array.isArray(value)) return `ARRAY[${value.map(sqlLiteral).join(', ')}]`;
  throw new Error(`no literal for ${JSON.stringify(value)}`);
}

export interface Explained {
  text: string;
  planningMs: number;
  executionMs: number;
}

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of a statement as the app runs it: one it plans once (`name`, already
 * prepared on `planned`, a connection set up like those of the app's planned pool) by its kept plan
 * (`EXECUTE`: its planning is that of the EXECUTE itself); any other planned for its values on `plain`.
 */
export async function explainAsSent(plain: pg.Client, planned: pg.Client, s: { sql: string; params: unknown[]; name?: string }): Promise<Explained> {
  const result = s.name
    ? await planned.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE "${s.name}"(${s.params.map(sqlLiteral).join(', ')})`)
    : await plain.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, s.params);
  const text = result.rows.map((r) => r['QUERY PLAN']).join('\n');
  const ms = (label: string) => Number(new RegExp(`${label} Time: ([\\d.]+) ms`).exec(text)?.[1] ?? NaN);
  return { text, planningMs: ms('Planning'), executionMs: ms('Execution') };
}
