// `npm run bench`'s options and the constants and small helpers every part uses (scripts/bench.ts
// describes the run).
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseBenchArgs, type BenchOptions } from '../lib/bench-compare';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The entry point, which the floor server runs as with --floor-server. */
export const ENTRY = path.join(ROOT, 'scripts', 'bench.ts');

// ───────────────────────────── options ─────────────────────────────

export const FLOOR_MODE = process.argv.includes('--floor-server');

function readOptions(): BenchOptions {
  try {
    return parseBenchArgs(FLOOR_MODE ? [] : process.argv.slice(2));
  } catch (error) {
    console.error(`[bench] ${(error as Error).message}`);
    return process.exit(2);
  }
}
export const OPTIONS = readOptions();
export const quick = OPTIONS.quick;
export const DURATION = OPTIONS.duration;
export const WARMUP = OPTIONS.warmup;
export const CONNECTIONS = OPTIONS.connections;
export const ONLY = OPTIONS.only;
/** Never-rendered pages are measured unless --only names endpoints without `pages`. */
export const MEASURE_PAGES = !ONLY || ONLY.includes('pages');
export const CPU_PROF = OPTIONS.cpuProf;
export const WRITE_REPORT = OPTIONS.writeReport;
/** The app's response cache in the first (as deployed) pass; the second pass runs with it off. */
export const APP_CACHE_MB = process.env.CATALOG_CACHE_MB || '64';
export const WORKS = 100_000;
/** Twenty works an artist, at every size. */
export const artistsFor = (works: number) => Math.max(1, Math.round(works / 20));
export const ARTISTS = artistsFor(WORKS);
export const HOST = '127.0.0.1';
/** Prisma's adapter uses pg's default pool of 10; the floor uses the same. */
export const POOL = 10;
/** How often each search statement is explained; the report shows the median run. */
export const EXPLAIN_RUNS = 5;
/** Issue 20, item 3: a one- or two-word search's statement costs PostgreSQL less than this (planning and execution). */
export const SEARCH_DATABASE_MS = 5;
/** Seconds of each round of the cold pass: two rounds a side give each side about the cached pass's DURATION. */
export const COLD_ROUND = Math.max(1, Math.ceil(DURATION / 2));

/** Where this run's report goes: docs/benchmarks/<kind>.md, written over (the date is inside; git keeps the earlier ones). */
export function reportFile(kind: 'catalog' | 'catalog-compare'): string {
  const dir = path.join(ROOT, 'docs', 'benchmarks');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${kind}.md`);
}

// ───────────────────────────── small helpers ─────────────────────────────

export const log = (line: string) => console.log(`[bench] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const hitRatio = (stats: { cacheHits: number; cacheMisses: number }) => stats.cacheHits / (stats.cacheHits + stats.cacheMisses);

export function sha256(parts: (string | Buffer)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
/** One GET on a kept-alive connection; answers status, bytes and milliseconds. */
export function get(base: string, pathAndQuery: string): Promise<{ status: number; bytes: number; ms: number; body: Buffer; cacheState: string | undefined }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(`${base}${pathAndQuery}`, { agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const cache = res.headers['x-catalog-cache'];
        resolve({ status: res.statusCode ?? 0, bytes: body.length, ms: performance.now() - started, body, cacheState: Array.isArray(cache) ? cache[0] : cache });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

export async function waitForHttp(base: string, probe: string, seconds: number, child?: ChildProcess): Promise<void> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${probe}: the server exited with code ${child.exitCode}`);
    try {
      const res = await get(base, probe);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${base}${probe} did not answer 200 within ${seconds} s`);
    await sleep(250);
  }
}

/** Stops a child we started (its own process group), SIGKILL after 10 s. */
export async function stopChild(child: ChildProcess, name: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const killed = await Promise.race([exited.then(() => false), sleep(10_000).then(() => true)]);
  if (killed) {
    log(`${name} did not stop within 10 s: SIGKILL`);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await exited;
  }
}
