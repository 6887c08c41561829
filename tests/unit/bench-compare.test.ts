import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { linkNodeModules, prepareBaseline } from '../../scripts/lib/baseline';
import {
  fasterFloor,
  parseBenchArgs,
  renderComparison,
  roundRatios,
  spread,
  summarize,
  turnsOf,
  verdict,
  type ComparisonReport,
  type LoadStats,
  type Round,
  type SideBySide,
} from '../../scripts/lib/bench-compare';

/** The pure parts of `npm run bench` and of its comparison with another commit's build (scripts/lib/bench-compare.ts). */
describe('the command line', () => {
  test('defaults: the full run, a report, no baseline', () => {
    expect(parseBenchArgs([])).toEqual({
      quick: false,
      duration: 10,
      warmup: 2,
      connections: 32,
      cpuProf: false,
      writeReport: true,
      rounds: 2,
      keepBaseline: false,
    });
  });

  test('--quick shortens the load unless a duration is given; values come as --name=value or --name value', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ quick: true, duration: 3, warmup: 1 });
    expect(parseBenchArgs(['--quick', '--duration=5'])).toMatchObject({ duration: 5, warmup: 1 });
    expect(parseBenchArgs(['--connections', '8', '--only=search,artwork-detail', '--no-report'])).toMatchObject({
      connections: 8,
      only: ['search', 'artwork-detail'],
      writeReport: false,
    });
  });

  test('--baseline takes a commit, with its rounds and --keep-baseline', () => {
    expect(parseBenchArgs(['--baseline', 'main'])).toMatchObject({ baseline: 'main', rounds: 2, keepBaseline: false });
    expect(parseBenchArgs(['--baseline=0877d59', '--rounds', '3', '--keep-baseline', '--quick'])).toMatchObject({
      baseline: '0877d59',
      rounds: 3,
      keepBaseline: true,
      duration: 3,
    });
  });

  test('--growth takes the works of the other catalogs, smallest first, not with a baseline', () => {
    expect(parseBenchArgs(['--quick', '--growth', '10000'])).toMatchObject({ quick: true, growth: [10_000] });
    expect(parseBenchArgs(['--growth=1000000,10000,10000']).growth).toEqual([10_000, 1_000_000]);
    expect(() => parseBenchArgs(['--growth=10000,'])).toThrow('--growth takes a positive whole number, not ""');
    expect(parseBenchArgs(['--quick'])).not.toHaveProperty('growth');
    expect(() => parseBenchArgs(['--growth=ten'])).toThrow('--growth takes a positive whole number, not "ten"');
    expect(() => parseBenchArgs(['--baseline', 'main', '--growth', '10000'])).toThrow('--growth goes with a run of this checkout alone');
  });

  test('refuses what it does not know, missing values, bad numbers and options without their baseline', () => {
    expect(() => parseBenchArgs(['--baseline'])).toThrow('--baseline needs a value');
    expect(() => parseBenchArgs(['--baseline', '--quick'])).toThrow('--baseline needs a value');
    expect(() => parseBenchArgs(['--durations=3'])).toThrow('unknown option --durations');
    expect(() => parseBenchArgs(['main'])).toThrow('unexpected argument "main"');
    expect(() => parseBenchArgs(['--duration=0'])).toThrow('--duration takes a positive whole number, not "0"');
    expect(() => parseBenchArgs(['--connections=2.5'])).toThrow('positive whole number');
    expect(() => parseBenchArgs(['--quick=yes'])).toThrow('--quick takes no value');
    expect(() => parseBenchArgs(['--rounds=3'])).toThrow('go with --baseline');
    expect(() => parseBenchArgs(['--keep-baseline'])).toThrow('go with --baseline');
    expect(() => parseBenchArgs(['--baseline=main', '--cpu-prof'])).toThrow('--cpu-prof');
  });
});

const round = (times: number[], seconds: number, extra: Partial<Round> = {}): Round => ({
  times,
  seconds,
  non2xx: 0,
  errors: 0,
  bytes: times.length * 100,
  cacheHits: 0,
  cacheMisses: 0,
  ...extra,
});

describe('a measured load', () => {
  test('rounds merge into one: percentiles over every response, requests per second over all the seconds, each round kept', () => {
    const stats = summarize([round([1, 2, 3, 4], 2), round([5, 6, 7, 8, 9, 10], 2, { non2xx: 1, cacheHits: 5, cacheMisses: 1 })]);
    expect(stats).toEqual({ p50: 5, p95: 10, p99: 10, rps: 2.5, count: 10, non2xx: 1, errors: 0, avgBytes: 100, cacheHits: 5, cacheMisses: 1, roundRps: [2, 3] });
  });

  test('no response: no percentiles, no rate', () => {
    expect(summarize([round([], 3)])).toMatchObject({ p95: NaN, rps: 0, count: 0, avgBytes: 0, roundRps: [0] });
  });

  test("the spread of a build's rounds", () => {
    expect(spread([100])).toBe(0);
    expect(spread([90, 110])).toBeCloseTo(0.2);
  });
});

const stats = (rps: number, p95: number, extra: Partial<LoadStats> = {}): LoadStats => ({
  p50: p95 / 2,
  p95,
  p99: p95 * 1.5,
  rps,
  count: rps * 10,
  non2xx: 0,
  errors: 0,
  avgBytes: 2048,
  cacheHits: 0,
  cacheMisses: 0,
  roundRps: [rps * 0.98, rps * 1.02],
  ...extra,
});
const row = (name: string, old: LoadStats, fresh: LoadStats): SideBySide => ({ endpoint: { name, label: `GET /v1/${name}` }, old, new: fresh });

describe('the verdict (issue 16: requests/s within 10 % or better, p95 no worse)', () => {
  test('within the bar', () => {
    expect(verdict(row('a', stats(1000, 10), stats(950, 10)))).toMatchObject({ rpsOk: true, p95Ok: true, ok: true, rpsRatio: 0.95, p95Ratio: 1 });
    expect(verdict(row('a', stats(1000, 10), stats(900, 9)))).toMatchObject({ ok: true });
  });

  test('too slow, a worse p95, or errors on either side miss it', () => {
    expect(verdict(row('a', stats(1000, 10), stats(899, 9)))).toMatchObject({ rpsOk: false, ok: false });
    expect(verdict(row('a', stats(1000, 10), stats(1200, 10.1)))).toMatchObject({ rpsOk: true, p95Ok: false, ok: false });
    expect(verdict(row('a', stats(1000, 10, { non2xx: 3 }), stats(1000, 10)))).toMatchObject({ broken: true, ok: false });
    expect(verdict(row('a', stats(1000, 10), stats(1000, 10, { errors: 1 })))).toMatchObject({ broken: true, ok: false });
  });
});

describe('the side-by-side report', () => {
  const report: ComparisonReport = {
    date: new Date('2026-11-25T10:00:00.123Z'),
    command: 'npm run bench -- --baseline main',
    machine: { cores: 2, cpu: 'AMD EPYC', memoryGiB: 23.5, os: 'Linux 6.18' },
    versions: { node: 'v20.20.2', next: '16.4.6' },
    loadAverage: { start: [0.52, 0.61, 0.7], end: [2.04, 1.8, 1.1] },
    old: { commit: '0877d59aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', subject: 'Pin the new dev tools', build: 'built for this run in 3.1 min' },
    new: { commit: 'ce9b477bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', subject: 'One helper starts the shop', dirty: true, build: 'up to date' },
    options: { duration: 10, warmup: 2, connections: 32, rounds: 2 },
    cacheMb: '64',
    data: '100,000 works.',
    notes: ["The two commits' `package-lock.json` differ."],
    answers: { compared: 420, differing: ['/v1/artworks?page=1&locale=en'] },
    passes: [
      {
        name: 'cached',
        title: 'With the response cache (as deployed)',
        rows: [row('artworks-page-1', stats(4000, 10), stats(4400, 9)), row('search-en-one', stats(3000, 12), stats(2500, 14))],
      },
      { name: 'cold', title: 'Without the response cache (cold: every request computed)', rows: [row('artworks-page-1', stats(300, 120), stats(310, 118, { non2xx: 2 }))] },
    ],
    minutes: 31.4,
  };
  const text = renderComparison(report);

  test('names both builds, the machine load at the start and the end, and what the reader must know', () => {
    expect(text).toContain('# Catalog benchmark: ce9b477bbb against 0877d59aaa, 2026-11-25');
    expect(text).toContain('- **old**: `0877d59aaa` Pin the new dev tools (built for this run in 3.1 min)');
    expect(text).toContain('- **new**: `ce9b477bbb` One helper starts the shop, **with uncommitted changes** (up to date)');
    expect(text).toContain('Load average (1 / 5 / 15 min): 0.52 / 0.61 / 0.70 at the start, 2.04 / 1.80 / 1.10 at the end.');
    expect(text).toContain("- The two commits' `package-lock.json` differ.");
    expect(text).toContain('**Answers differ**: 1 of 420 addresses');
    expect(text).toContain('2 rounds of 10 s on each, alternating (old, new, old, new…)');
  });

  test('one row per endpoint and pass: requests/s and p95 side by side, the ratios, the spread and the verdict', () => {
    expect(text).toContain('| endpoint | old req/s | new req/s | new/old | old p95 ms | new p95 ms | new/old | spread old / new | verdict |');
    expect(text).toContain('| GET /v1/artworks-page-1 | 4000 | 4400 | 1.10 | 10.0 | 9.0 | 0.90 | 4 % / 4 % | ✅ |');
    expect(text).toContain('| GET /v1/search-en-one | 3000 | 2500 | 0.83 | 12.0 | 14.0 | 1.17 | 4 % / 4 % | ❌ req/s, p95 |');
    expect(text).toContain('| GET /v1/artworks-page-1 | 300 | 310 | 1.03 | 120.0 | 118.0 | 0.98 | 4 % / 4 % | ❌ errors (old 0, new 2) |');
    const cached = text.indexOf('## With the response cache');
    const cold = text.indexOf('## Without the response cache');
    expect(cached).toBeGreaterThan(0);
    expect(cold).toBeGreaterThan(cached);
  });

  test('sums up each pass', () => {
    expect(text).toContain('- **cached**: 1 of 2 endpoints within the bar. Missed: search-en-one (req/s 0.83×, p95 12.0 → 14.0 ms).');
    expect(text).toContain('- **cold**: 0 of 1 endpoints within the bar.');
  });

  test('never-rendered pages come as a pass of their own, with the method that measured them', () => {
    const withPages = renderComparison({
      ...report,
      passes: [
        report.passes[0]!,
        { name: 'pages', title: 'Never-rendered pages (each address once on each build, 8 at a time)', rows: [row('artwork-page', stats(40, 220), stats(52, 170))] },
        report.passes[1]!,
      ],
    });
    expect(text).not.toContain('- **Pages**:');
    expect(withPages).toContain('- **Pages**: in the cached pass, artwork, artist and browse pages in the seven locales that neither build had rendered');
    expect(withPages).toContain('4 groups per kind alternating which build goes first');
    expect(withPages.indexOf('## Never-rendered pages')).toBeGreaterThan(withPages.indexOf('## With the response cache'));
    expect(withPages).toContain('| GET /v1/artwork-page | 40 | 52 | 1.30 | 220.0 | 170.0 | 0.77 | 4 % / 4 % | ✅ |');
    expect(withPages).toContain('- **pages**: 1 of 1 endpoints within the bar.');
  });

  test('says so when every answer was the same', () => {
    expect(renderComparison({ ...report, answers: { compared: 420, differing: [] } })).toContain('- Answers: all 420 addresses answered the same bytes on both builds.');
  });
});

describe('the baseline checkout', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'bench-baseline-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  test("gets this checkout's node_modules as hard links, without the tools' caches", () => {
    const root = path.join(folder, 'root');
    const worktree = path.join(folder, 'worktree');
    mkdirSync(path.join(root, 'node_modules', 'pkg'), { recursive: true });
    mkdirSync(path.join(root, 'node_modules', '.cache', 'tool'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', 'pkg', 'index.js'), 'export default 1;\n');
    writeFileSync(path.join(root, 'node_modules', '.cache', 'tool', 'entry'), 'cached');
    mkdirSync(worktree);
    expect(linkNodeModules(root, worktree)).toMatch(/^hard-linked from /);
    const original = statSync(path.join(root, 'node_modules', 'pkg', 'index.js'));
    const linked = statSync(path.join(worktree, 'node_modules', 'pkg', 'index.js'));
    expect(linked.ino).toBe(original.ino);
    expect(lstatSync(path.join(worktree, 'node_modules')).isSymbolicLink()).toBe(false);
    expect(() => statSync(path.join(worktree, 'node_modules', '.cache'))).toThrow();
    expect(readFileSync(path.join(root, 'node_modules', '.cache', 'tool', 'entry'), 'utf8')).toBe('cached');
  });

  test('an unknown commit stops the run at once, before any worktree or build', async () => {
    await expect(prepareBaseline(process.cwd(), 'no-such-commit-3f9a', { keep: false, log: () => undefined, buildEnv: process.env })).rejects.toThrow(
      '--baseline no-such-commit-3f9a: no such commit',
    );
  });
});

describe("issue 20's floor", () => {
  test('the cold pass takes turns: app, floor, floor, app (and the fewest round trips beside the floor)', () => {
    expect(turnsOf(['app', 'floor'])).toEqual(['app', 'floor', 'floor', 'app']);
    expect(turnsOf(['app', 'floor', 'oneTrip'])).toEqual(['app', 'floor', 'oneTrip', 'oneTrip', 'floor', 'app']);
  });

  test("each round's ratio is the app's round over the same round of the floor", () => {
    const stats = (roundRps: number[]) => ({ roundRps }) as LoadStats;
    expect(roundRatios(stats([60, 90]), stats([100, 100]))).toEqual([0.6, 0.9]);
  });

  test('an endpoint is judged against the faster of its floors, not the one-trip floor because it is one trip', () => {
    const floor = { rps: 275 };
    expect(fasterFloor(floor, { rps: 184 })).toBe(floor);
    const oneTrip = { rps: 320 };
    expect(fasterFloor(floor, oneTrip)).toBe(oneTrip);
    expect(fasterFloor(floor)).toBe(floor);
  });
});
