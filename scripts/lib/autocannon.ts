import { createRequire } from 'node:module';

/** The part of autocannon (untyped on npm) the benchmarks use. */
export type Autocannon = ((opts: Record<string, unknown>) => Promise<{ duration: number; errors: number; timeouts: number; non2xx: number }> & {
  on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void;
}) & { track?: unknown };

export const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
