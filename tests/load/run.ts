/**
 * `npm run test:load [-- --clients 200 --seconds 60] [--port 3400] [--no-report]`: load without loss
 * (issue 9, item 4).
 *
 * A database of its own (on TEST_DATABASE_URL's server, or an embedded PostgreSQL in a temporary
 * folder), the production shop started the way production starts it (scripts/start.ts: migrate,
 * seed, build when the sources changed, serve) with Stripe pointed at the local stand-in, then
 * `--clients` shoppers for `--seconds` while staff move orders and Stripe's webhooks arrive,
 * replayed and out of order (tests/load/traffic.ts). Afterwards the database is checked
 * (tests/load/checks.ts) and the report written to docs/reliability/load-<date>.md. Exits 1 when a
 * check fails. Run it alone on the machine (`flock /tmp/atelier-heavy.lock npm run test:load`).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStripeServer, STRIPE_TEST_KEY, WEBHOOK_SECRET } from '../support/stripe';
import { checkDatabase, operations, type Check } from './checks';
import { ROOT, startShop, testServer } from './shop';
import { driveTraffic, expected, type Traffic } from './traffic';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = inline ? inline.split('=')[1] : at >= 0 ? process.argv[at + 1] : undefined;
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number, not ${raw}`);
  return value;
}

export async function runLoad(options: { clients: number; seconds: number; port: number; report?: string | null; log?: (line: string) => void }) {
  const log = options.log ?? ((line: string) => console.log(line));
  const server = await testServer();
  const stripe = await startStripeServer();
  let shop: Awaited<ReturnType<typeof startShop>> | undefined;
  try {
    const databaseUrl = await server.createDatabase('load');
    log(`load: starting the shop on port ${options.port} (scripts/start.ts: migrate, seed, build if needed, serve)`);
    const startedAt = Date.now();
    shop = await startShop({
      databaseUrl,
      port: options.port,
      env: { STRIPE_SECRET_KEY: STRIPE_TEST_KEY, STRIPE_API_BASE: stripe.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET },
    });
    log(`load: shop answered after ${((Date.now() - startedAt) / 1000).toFixed(1)} s; ${options.clients} shoppers for ${options.seconds} s`);
    const traffic = await driveTraffic({ url: shop.url, clients: options.clients, seconds: options.seconds });
    log(`load: ${traffic.samples.length} requests in ${traffic.seconds.toFixed(1)} s; checking the database`);
    const checks = await checkDatabase(databaseUrl, traffic);
    if (!checks.every((c) => c.ok)) {
      // What the server said about its failures (it logs an error for each 500, without the client's data).
      const errors = shop
        .output()
        .split('\n')
        .filter((line) => /error|fail|timed out/i.test(line));
      log(`load: the server's last error lines:\n${errors.slice(-15).join('\n')}`);
    }
    const report = renderReport(options, traffic, checks, stripe.requests.length);
    if (options.report) {
      writeFileSync(options.report, report);
      log(`load: report written to ${path.relative(ROOT, options.report)}`);
    }
    return { traffic, checks, report, ok: checks.every((c) => c.ok) };
  } finally {
    await shop?.stop();
    await stripe.close();
    await server.close();
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)}` : '–');

export function renderReport(options: { clients: number; seconds: number }, traffic: Traffic, checks: Check[], checkoutSessions: number): string {
  const lines: string[] = [];
  const total = traffic.samples.length;
  const date = new Date().toISOString().slice(0, 10);
  lines.push(`# Load without loss, ${date}`, '');
  lines.push(
    `\`npm run test:load -- --clients ${options.clients} --seconds ${options.seconds}\` (tests/load/run.ts) against the production build, started`,
    'by `scripts/start.ts` on a fresh PostgreSQL database, with Stripe pointed at the local stand-in (tests/support/stripe.ts),',
    '`TRUST_PROXY=1` (each virtual client sends its own `X-Forwarded-For`) and `RATE_LIMIT_MULTIPLIER=1000`.',
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; the load generator runs on the same machine.`,
    '',
    'Traffic: each shopper loops without pause: 70 % reproduction orders, 20 % custom orders (a real JPEG uploaded to',
    '`/v1/uploads`, then the order naming it), 10 % lookups of an own order. Four staff members move recent orders along',
    '(`POST /v1/admin/orders/{code}/status`, forward, skipping, cancelling, sketch approvals; they race each other and the',
    'webhooks, so 409 is an expected answer). Four Stripe senders deliver a signed `checkout.session.completed` per order,',
    'replay earlier events (same id, new signature), deliver one event twice at once, and send',
    '`checkout.session.async_payment_succeeded` after the completed event (out of order).',
    '',
    'Reading the numbers: every client loops without think time, so the run measures the shop saturated on this machine',
    '(the app, its PostgreSQL and the load generator share the cores): latency is mostly queueing (requests/s × mean',
    'latency ≈ concurrent callers). The point of the run is the checks below: under that pressure nothing is lost,',
    'doubled or half-written. Creating an order includes the Stripe checkout call to the stand-in.',
    '',
  );
  lines.push('## Throughput', '');
  lines.push(`- ${total} requests in ${traffic.seconds.toFixed(1)} s: **${(total / traffic.seconds).toFixed(0)} requests/s**`);
  lines.push(
    `- ${traffic.accepted.length} orders accepted (${traffic.accepted.filter((o) => o.kind === 'custom').length} custom), ${(traffic.accepted.length / traffic.seconds).toFixed(1)} orders/s; ${checkoutSessions} Stripe checkout sessions opened`,
  );
  lines.push(`- ${traffic.webhooks.length} webhook deliveries`, '');
  lines.push('## Latency per operation (ms)', '');
  lines.push('| operation | requests | rps | p50 | p95 | p99 | max | unexpected answers |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const op of operations) {
    const samples = traffic.samples.filter((s) => s.op === op);
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    const bad = samples.filter((s) => !expected[op].includes(s.status)).length;
    lines.push(
      `| ${op} | ${samples.length} | ${(samples.length / traffic.seconds).toFixed(1)} | ${ms(percentile(sorted, 50))} | ${ms(percentile(sorted, 95))} | ${ms(percentile(sorted, 99))} | ${ms(sorted.at(-1) ?? NaN)} | ${bad} |`,
    );
  }
  lines.push('', '## Answers by status', '');
  lines.push('| operation | status | count | expected |', '| --- | ---: | ---: | --- |');
  const counts = new Map<string, number>();
  for (const s of traffic.samples) counts.set(`${s.op}|${s.status}`, (counts.get(`${s.op}|${s.status}`) ?? 0) + 1);
  for (const [key, count] of [...counts].sort()) {
    const [op, status] = key.split('|') as [keyof typeof expected, string];
    lines.push(`| ${op} | ${status === '0' ? 'no answer' : status} | ${count} | ${expected[op].includes(Number(status)) ? 'yes' : '**no**'} |`);
  }
  const failures = [...new Set(traffic.samples.filter((s) => s.failure).map((s) => s.failure))];
  if (failures.length) lines.push('', `Requests without an answer: ${failures.slice(0, 5).join('; ')}`);
  lines.push('', '## Checks (in PostgreSQL, after the run)', '');
  for (const c of checks) lines.push(`- ${c.ok ? 'PASS' : '**FAIL**'} ${c.name}: ${c.detail}`);
  lines.push('', `Result: **${checks.every((c) => c.ok) ? 'all checks passed' : 'FAILED'}**.`, '');
  return lines.join('\n');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, 'tests/load/run.ts');
if (isMain) {
  const clients = option('clients', 200);
  const seconds = option('seconds', 60);
  const port = option('port', 3400);
  const report = process.argv.includes('--no-report') ? null : path.join(ROOT, 'docs/reliability', `load-${new Date().toISOString().slice(0, 10)}.md`);
  runLoad({ clients, seconds, port, report })
    .then((result) => {
      console.log(`\n${result.checks.map((c) => `${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}`).join('\n')}`);
      process.exit(result.ok ? 0 : 1);
    })
    .catch((error: unknown) => {
      console.error(`load: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    });
}
