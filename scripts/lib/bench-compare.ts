/**
 * The pure parts of `npm run bench` (scripts/bench.ts): its command line, the statistics of a
 * measured load, and the side-by-side report of `--baseline <commit>` (this checkout against
 * another commit's build, measured alternately in one run). No side effects on import, so the
 * tests can check them (tests/unit/bench-compare.test.ts).
 */

export interface BenchOptions {
  quick: boolean;
  /** Seconds of load per measurement (per endpoint, per side, per round). */
  duration: number;
  /** Seconds of load before the measurements of an endpoint, on each side. */
  warmup: number;
  connections: number;
  /** Endpoint names (prefixes) to measure; all when absent. */
  only?: string[];
  cpuProf: boolean;
  writeReport: boolean;
  /** `--baseline <commit>`: the commit whose build this checkout is compared with. */
  baseline?: string;
  /** With a baseline: measurements per endpoint and side, alternating old, new, old, new… */
  rounds: number;
  /** With a baseline: keep its worktree and build (in the system's temp folder) for the next run. */
  keepBaseline: boolean;
  /** `--growth <works>[,<works>…]`: also measure the cold pass on catalogs of these sizes, for the growth table. */
  growth?: number[];
}

const FLAGS = new Set(['quick', 'skip-build', 'cpu-prof', 'no-report', 'keep-baseline']);
const VALUES = new Set(['duration', 'connections', 'only', 'baseline', 'rounds', 'growth']);

/** Reads `npm run bench -- …`'s arguments (`--name value` or `--name=value`); throws on anything it does not know. */
export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unexpected argument "${arg}"`);
    const [, name, inline] = match as unknown as [string, string, string | undefined];
    if (FLAGS.has(name)) {
      if (inline !== undefined) throw new Error(`--${name} takes no value`);
      flags.add(name);
    } else if (VALUES.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '' || value.startsWith('--')) throw new Error(`--${name} needs a value`);
      values.set(name, value);
    } else {
      throw new Error(`unknown option --${name}`);
    }
  }
  const whole = (name: string, raw: string): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number, not "${raw}"`);
    return value;
  };
  const positive = (name: string, fallback: number): number => {
    const raw = values.get(name);
    return raw === undefined ? fallback : whole(name, raw);
  };
  const quick = flags.has('quick');
  const baseline = values.get('baseline');
  if (!baseline && (values.has('rounds') || flags.has('keep-baseline'))) throw new Error('--rounds and --keep-baseline go with --baseline <commit>');
  if (baseline && flags.has('cpu-prof')) throw new Error('--cpu-prof profiles one shop; run it without --baseline');
  if (baseline && values.has('growth')) throw new Error('--growth goes with a run of this checkout alone, not --baseline');
  return {
    quick,
    duration: positive('duration', quick ? 3 : 10),
    warmup: quick ? 1 : 2,
    connections: positive('connections', 32),
    ...(values.has('only') ? { only: values.get('only')!.split(',').filter(Boolean) } : {}),
    cpuProf: flags.has('cpu-prof'),
    writeReport: !flags.has('no-report'),
    ...(baseline ? { baseline } : {}),
    rounds: positive('rounds', 2),
    keepBaseline: flags.has('keep-baseline'),
    ...(values.has('growth')
      ? {
          growth: [
            ...new Set(
              values
                .get('growth')!
                .split(',')
                .map((raw) => whole('growth', raw)),
            ),
          ].sort((a, b) => a - b),
        }
      : {}),
  };
}

// ───────────────────────────── statistics ─────────────────────────────

/** One measurement: autocannon's responses on one side for `seconds`. */
export interface Round {
  /** Every response time, in milliseconds. */
  times: number[];
  seconds: number;
  non2xx: number;
  errors: number;
  bytes: number;
  cacheHits: number;
  cacheMisses: number;
}

export interface LoadStats {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  count: number;
  non2xx: number;
  errors: number;
  avgBytes: number;
  /** Answers the app's response cache gave (hit) or computed (miss); both 0 when it is off or for the floor. */
  cacheHits: number;
  cacheMisses: number;
  /** Requests per second of each round, in order (one entry without a baseline). */
  roundRps: number[];
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** The rounds of one side as one measurement: percentiles over every response, rps = responses / seconds. */
export function summarize(rounds: readonly Round[]): LoadStats {
  const times = rounds.flatMap((r) => r.times).sort((a, b) => a - b);
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0);
  const sum = (f: (r: Round) => number) => rounds.reduce((s, r) => s + f(r), 0);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    rps: seconds > 0 ? times.length / seconds : NaN,
    count: times.length,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    avgBytes: times.length ? sum((r) => r.bytes) / times.length : 0,
    cacheHits: sum((r) => r.cacheHits),
    cacheMisses: sum((r) => r.cacheMisses),
    roundRps: rounds.map((r) => (r.seconds > 0 ? r.times.length / r.seconds : NaN)),
  };
}

// ───────────────────────────── the floor ─────────────────────────────

/**
 * The floor an endpoint is judged against: the faster of the app's own statements and the fewest
 * round trips. One trip is not always faster: its statements go as one simple-protocol text with
 * the values written in, planned on every request, where the app's are prepared and planned once
 * (the typos: 184 a second in one trip against 275 in three, 2026-11-28).
 */
export function fasterFloor<S extends { rps: number }>(floor: S, oneTrip?: S): S {
  return oneTrip && oneTrip.rps > floor.rps ? oneTrip : floor;
}

/** Each round's requests a second of `side` over those of the same round of `floor` (the cold pass's turns): a run's own noise on the ratio. */
export function roundRatios(side: LoadStats, floor: LoadStats): number[] {
  return side.roundRps.map((rps, k) => rps / floor.roundRps[k]!);
}

/**
 * The order of the cold pass's rounds beside the floor: each side once, then each again in the
 * reverse order (app, floor, floor, app), so that a steady change of the host's speed during the
 * rounds falls on every side alike.
 */
export function turnsOf<T>(sides: readonly T[]): T[] {
  return [...sides, ...[...sides].reverse()];
}

// ───────────────────────────── the comparison ─────────────────────────────

/** The issue's bar (#16 "Performance must not regress"): rps within 10 % of the old build or better, p95 no worse. */
export const REGRESSION = { minRpsRatio: 0.9 };

export interface SideBySide {
  endpoint: { name: string; label: string };
  old: LoadStats;
  new: LoadStats;
}

export interface Verdict {
  rpsRatio: number;
  p95Ratio: number;
  rpsOk: boolean;
  p95Ok: boolean;
  /** Non-2xx answers or errors on either side. */
  broken: boolean;
  ok: boolean;
}

export function verdict(row: SideBySide): Verdict {
  const rpsRatio = row.new.rps / row.old.rps;
  const p95Ratio = row.new.p95 / row.old.p95;
  const rpsOk = rpsRatio >= REGRESSION.minRpsRatio;
  const p95Ok = row.new.p95 <= row.old.p95;
  const broken = row.old.non2xx + row.old.errors + row.new.non2xx + row.new.errors > 0;
  return { rpsRatio, p95Ratio, rpsOk, p95Ok, broken, ok: rpsOk && p95Ok && !broken };
}

/** How far apart a side's rounds were: (max − min) / mean of their rps, the run's own noise. */
export function spread(rps: readonly number[]): number {
  if (rps.length < 2) return 0;
  const mean = rps.reduce((a, b) => a + b, 0) / rps.length;
  return (Math.max(...rps) - Math.min(...rps)) / mean;
}

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
const pct = (n: number) => (Number.isFinite(n) ? `${(n * 100).toFixed(0)} %` : '–');
const loadAvg = (l: readonly number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export interface Build {
  /** The commit (full hash); for the checkout, HEAD. */
  commit: string;
  subject: string;
  /** The checkout only: uncommitted changes are part of what was measured. */
  dirty?: boolean;
  /** How its build was made (built for this run, reused, …). */
  build: string;
}

export interface ComparisonReport {
  date: Date;
  command: string;
  machine: { cores: number; cpu: string; memoryGiB: number; os: string };
  versions: Record<string, string>;
  /** os.loadavg() (1, 5, 15 min) when the run started and when it ended. */
  loadAverage: { start: number[]; end: number[] };
  old: Build;
  new: Build;
  options: Pick<BenchOptions, 'duration' | 'warmup' | 'connections' | 'rounds'>;
  cacheMb: string;
  data: string;
  /** Things the reader must know to trust the comparison (a different lockfile, migrations, data scripts). */
  notes: string[];
  /** Same URL, same body on both sides (with the response cache on). */
  answers: { compared: number; differing: string[] };
  passes: { name: 'cached' | 'pages' | 'cold'; title: string; rows: SideBySide[] }[];
  minutes: number;
}

const short = (commit: string) => commit.slice(0, 10);

/** The report of a `--baseline` run: both builds side by side, cached and cold, with the ratios and verdicts. */
export function renderComparison(report: ComparisonReport): string {
  const lines: string[] = [];
  const w = (s = '') => lines.push(s);
  const day = report.date.toISOString().slice(0, 10);
  w(`# Catalog benchmark: ${short(report.new.commit)} against ${short(report.old.commit)}, ${day}`);
  w();
  w(
    `Issue 16, "Performance must not regress". Produced by \`${report.command}\` (scripts/bench.ts) on ${report.date.toISOString().replace(/\.\d+Z$/, 'Z')}; the whole run took ${fmt(report.minutes)} min.`,
  );
  w();
  w('## What was compared');
  w();
  w(`- **old**: \`${short(report.old.commit)}\` ${report.old.subject} (${report.old.build})`);
  w(`- **new**: \`${short(report.new.commit)}\` ${report.new.subject}${report.new.dirty ? ', **with uncommitted changes**' : ''} (${report.new.build})`);
  for (const note of report.notes) w(`- ${note}`);
  const { compared, differing } = report.answers;
  w(
    differing.length
      ? `- **Answers differ**: ${differing.length} of ${compared} addresses answered other bytes on the two builds, for instance ${differing
          .slice(0, 5)
          .map((u) => `\`${u}\``)
          .join(', ')}.`
      : `- Answers: all ${compared} addresses answered the same bytes on both builds.`,
  );
  w();
  w('## Machine');
  w();
  w(`- ${report.machine.cores} cores (${report.machine.cpu}), ${fmt(report.machine.memoryGiB)} GiB memory, ${report.machine.os}`);
  w(
    `- Load average (1 / 5 / 15 min): ${loadAvg(report.loadAverage.start)} at the start, ${loadAvg(report.loadAverage.end)} at the end. Both builds ran at the same time on this machine, so what else ran hit both alike.`,
  );
  w(
    `- ${Object.entries(report.versions)
      .map(([k, v]) => `${k} ${v}`)
      .join(' · ')}`,
  );
  w();
  w('## Method');
  w();
  w(`- **Data**: ${report.data}`);
  w(
    "- **Databases**: one copy of that database per build (`CREATE DATABASE … TEMPLATE`), on the same PostgreSQL server: the same rows, statistics and server memory for both, and nothing one build does (its start migrates and seeds, its job worker polls) reaches the other's catalog version, hence its response cache.",
  );
  w(
    "- **Shops**: each build as its image runs it: the tree its own Dockerfile makes (the same install flags, build and prune; scripts/lib/image-tree.ts; the old one from a temporary git worktree of its commit), started with the image's CMD, each on its own port of 127.0.0.1, both running during the whole pass.",
  );
  w(
    `- **Load**: autocannon, ${report.options.connections} connections. Per endpoint: ${report.options.warmup} s of warm-up on each build, then ${report.options.rounds} rounds of ${report.options.duration} s on each, alternating (old, new, old, new…), so that the machine's ups and downs fall on both. p95 over every response of a build's rounds; requests/s = responses / seconds. Every address was requested once on both before timing.`,
  );
  w(
    `- **Passes**: *cached*, as deployed, with the in-process response cache (${report.cacheMb} MiB); *cold*, both shops started again with \`CATALOG_CACHE_MB=0\`, every request computed.`,
  );
  if (report.passes.some((pass) => pass.name === 'pages'))
    w(
      `- **Pages**: in the cached pass, artwork, artist and browse pages in the seven locales that neither build had rendered, each address once on each build, ${report.options.rounds * 2} groups per kind alternating which build goes first, after a warm-up of other addresses of the kind on each; requests/s = addresses / seconds from the first request to the last answer.`,
    );
  w(
    `- **Verdict** (issue 16): new requests/s ≥ ${REGRESSION.minRpsRatio} × old and new p95 ≤ old p95, with no errors. *Spread* is (max − min) / mean of a build's per-round requests/s: differences smaller than it are noise.`,
  );
  w();
  for (const pass of report.passes) {
    w(`## ${pass.title}`);
    w();
    w('| endpoint | old req/s | new req/s | new/old | old p95 ms | new p95 ms | new/old | spread old / new | verdict |');
    w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const row of pass.rows) {
      const v = verdict(row);
      const problems = [!v.rpsOk && 'req/s', !v.p95Ok && 'p95', v.broken && `errors (old ${row.old.non2xx + row.old.errors}, new ${row.new.non2xx + row.new.errors})`].filter(
        Boolean,
      );
      w(
        `| ${row.endpoint.label} | ${fmt(row.old.rps, 0)} | ${fmt(row.new.rps, 0)} | ${fmt(v.rpsRatio, 2)} | ${fmt(row.old.p95)} | ${fmt(row.new.p95)} | ${fmt(v.p95Ratio, 2)} | ${pct(spread(row.old.roundRps))} / ${pct(spread(row.new.roundRps))} | ${v.ok ? '✅' : `❌ ${problems.join(', ')}`} |`,
      );
    }
    w();
  }
  w('## Verdict');
  w();
  for (const pass of report.passes) {
    const misses = pass.rows.filter((row) => !verdict(row).ok);
    w(
      `- **${pass.name}**: ${pass.rows.length - misses.length} of ${pass.rows.length} endpoints within the bar.${
        misses.length
          ? ` Missed: ${misses
              .map((row) => {
                const v = verdict(row);
                return `${row.endpoint.name} (req/s ${fmt(v.rpsRatio, 2)}×, p95 ${fmt(row.old.p95)} → ${fmt(row.new.p95)} ms)`;
              })
              .join('; ')}.`
          : ''
      }`,
    );
  }
  w();
  return `${lines.join('\n')}\n`;
}
