/**
 * `npm run bench`: the catalog's load benchmark at 100,000 works (issue 3, "Scale data and benchmark").
 *
 *   npm run bench [-- --quick] [--duration=10] [--connections=32] [--only=search,artwork-detail,pages]
 *                 [--cpu-prof] [--no-report] [--growth=10000[,1000000]]
 *
 * 1. An embedded PostgreSQL in the OS temp folder, migrated, seeded and filled with the synthetic
 *    catalog of scripts/fill-catalog.ts. The filled folder is kept between runs and reused while the
 *    fingerprint of everything that shapes the data (migrations, seed, fill script) is unchanged.
 * 2. The production image's tree, made by following the Dockerfile (scripts/lib/image-tree.ts),
 *    started with the image's CMD (through scripts/lib/shop-server.ts, the helper the tests and
 *    Lighthouse use) on a free port of 127.0.0.1.
 * 3. The floor: a bare `node:http` + `pg` server (own process, pool of 10 like Prisma's adapter)
 *    that replays, for each URL, exactly the SQL statements the service ran for that URL. They are
 *    captured once per URL by calling the real /v1 handler (handleRest) in-process with a Prisma
 *    client that logs its queries. Every statement of a request, wave after wave as the service
 *    ran them, named where the app prepares them (issue 20's fair floor); and, for a request of
 *    several statements, all of them in one round trip (the fewest-round-trips floor). The floor
 *    answers JSON.stringify(rows).
 * 4. autocannon, 32 connections, 10 s per endpoint (3 s with --quick), after a short warm-up, on the
 *    app and on the floor; p50/p95/p99 come from every response time, rps = responses / duration.
 * 5. One-at-a-time latencies (sitemap chunk target), an in-process breakdown of where a request's
 *    time goes (HTTP to the served app, handleRest, the same statements through Prisma, through pg), and
 *    EXPLAIN (ANALYZE, BUFFERS) of the search statements.
 * 6. Never-rendered artwork, artist and browse pages in seven locales, each address requested once,
 *    beside the /v1 answers they are built from; the shop's memory at rest and under each load;
 *    with --growth, the cold pass again on catalogs of other sizes (issue 20, items 4 and 5).
 * 7. The report, printed and written to docs/benchmarks/catalog.md, over the last one (one current
 *    report per kind; the date is inside, git keeps the earlier ones). Every server it started
 *    is stopped at the end, also on failure or Ctrl-C.
 *
 * Against another commit's build, in one run (issue 16, "Performance must not regress"):
 *
 *   npm run bench -- --baseline <commit> [--rounds=2] [--keep-baseline] [--quick] [--duration=10]
 *                    [--connections=32] [--only=…] [--no-report]
 *
 * builds <commit> in a git worktree in the temp folder (scripts/lib/baseline.ts), starts it and this
 * checkout side by side, each on its own copy of the filled database, and measures every endpoint
 * on both, alternating (old, new, old, new: --rounds per side), with the response cache and
 * without it, and never-rendered pages on both (each address once on each; left out when --only
 * names endpoints but not `pages`); the side-by-side report (requests/s and p95 per endpoint, the
 * ratios, the machine's load average at the start and the end) goes to
 * docs/benchmarks/catalog-compare.md, over the last one. No floor, capture or plans in that mode.
 * --keep-baseline keeps the baseline's worktree after the run (its image's tree is made again each run).
 *
 * The parts, in scripts/bench/: common.ts (options, helpers, the build), database.ts (1), floor.ts and
 * capture.ts (3, and 5's plans), endpoints.ts, load.ts (4–6), run.ts (the run), report.ts (7) and
 * compare.ts (--baseline).
 */
import { FLOOR_MODE, OPTIONS } from './bench/common';
import { compare } from './bench/compare';
import { floorServer } from './bench/floor';
import { main } from './bench/run';

if (FLOOR_MODE) {
  await floorServer();
} else {
  (OPTIONS.baseline ? compare(OPTIONS.baseline) : main()).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`[bench] failed: ${error instanceof Error ? error.stack : String(error)}`);
      process.exit(1);
    },
  );
}
