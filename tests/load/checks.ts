/**
 * What must hold in the database after a run, whatever the load: nothing accepted is lost or
 * doubled, every history is one the rules allow, each Stripe event took effect once, nothing is
 * left half-written. Read straight from PostgreSQL, not through the shop.
 */
import pg from 'pg';
import { mailOnStatus, planTransition } from '@/server/orders/status';
import { chainIndex, paintingStarts, type OrderStatus } from '@/shared/orders';
import { expected, type Operation, type Traffic } from './traffic';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

interface OrderRow {
  id: number;
  code: string;
  kind: 'reproduction' | 'custom';
  status: OrderStatus;
  sketch_status: string | null;
  total_cents: number;
  customer_email: string;
  upload_id: string | null;
}

export async function checkDatabase(databaseUrl: string, traffic: Traffic, options: { maxErrorRate?: number } = {}): Promise<Check[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const checks: Check[] = [];
  const check = (name: string, problems: string[], okDetail: string) =>
    checks.push({ name, ok: problems.length === 0, detail: problems.length ? `${problems.length} problem(s): ${problems.slice(0, 5).join('; ')}` : okDetail });
  try {
    const emails = [...new Set(traffic.accepted.map((o) => o.email))];
    const { rows: orders } = await client.query<OrderRow>(
      `SELECT id, code, kind::text AS kind, status::text AS status, sketch_status::text AS sketch_status, total_cents, customer_email, upload_id::text AS upload_id
         FROM orders WHERE customer_email LIKE 'load-%@example.com'`,
    );
    const byCode = new Map<string, OrderRow[]>();
    for (const order of orders) byCode.set(order.code, [...(byCode.get(order.code) ?? []), order]);

    // 1. Every 201 is an order, exactly once, as it was answered.
    const lost: string[] = [];
    for (const accepted of traffic.accepted) {
      const found = byCode.get(accepted.code) ?? [];
      if (found.length !== 1) lost.push(`${accepted.code} found ${found.length} times`);
      else if (found[0]!.customer_email !== accepted.email || found[0]!.total_cents !== accepted.total || found[0]!.kind !== accepted.kind)
        lost.push(`${accepted.code} differs from its 201 answer`);
      else if (accepted.uploadId && found[0]!.upload_id !== accepted.uploadId) lost.push(`${accepted.code} lost its photo`);
    }
    const answered = new Set(traffic.accepted.map((o) => o.code));
    const unanswered = orders.filter((o) => !answered.has(o.code));
    if (unanswered.length > traffic.uncertainCreates)
      lost.push(`${unanswered.length} orders exist that no client was told about, but only ${traffic.uncertainCreates} creations went unanswered or failed`);
    check(
      'every order answered 201 exists exactly once, as answered',
      lost,
      `${traffic.accepted.length} accepted orders, each found once (${emails.length} shoppers); ${unanswered.length} more from creations whose answer was lost or 5xx`,
    );

    // 2. Histories follow the rules of src/server/orders/status.ts.
    const { rows: events } = await client.query<{ order_id: number; status: OrderStatus; actor: string }>(
      `SELECT e.order_id, e.status::text AS status, e.actor::text AS actor FROM order_events e JOIN orders o ON o.id = e.order_id
        WHERE o.customer_email LIKE 'load-%@example.com' ORDER BY e.order_id, e.id`,
    );
    const history = new Map<number, { status: OrderStatus; actor: string }[]>();
    for (const event of events) history.set(event.order_id, [...(history.get(event.order_id) ?? []), event]);
    const impossible: string[] = [];
    let moves = 0;
    for (const order of orders) {
      const steps = history.get(order.id) ?? [];
      if (steps[0]?.status !== 'pending') {
        impossible.push(`${order.code} starts with ${steps[0]?.status ?? 'no event'}`);
        continue;
      }
      let current: OrderStatus = 'pending';
      for (const step of steps.slice(1)) {
        try {
          planTransition({ kind: order.kind, status: current, sketchStatus: null, disputed: false, trackingNumber: null }, { status: step.status });
        } catch (error) {
          impossible.push(`${order.code}: ${current} → ${step.status} (${(error as Error).message})`);
        }
        if (step.actor === 'payment' && !(current === 'pending' && step.status === 'paid')) impossible.push(`${order.code}: a payment moved ${current} → ${step.status}`);
        current = step.status;
        moves++;
      }
      if (current !== order.status) impossible.push(`${order.code} is ${order.status} but its history ends at ${current}`);
      const payments = steps.filter((s) => s.actor === 'payment').length;
      if (payments > 1) impossible.push(`${order.code} was paid by ${payments} webhook events`);
      const reachedPainting = chainIndex(order.status) >= chainIndex(paintingStarts);
      if (order.kind === 'reproduction' && order.sketch_status !== null) impossible.push(`${order.code}: a reproduction with a sketch`);
      if (order.kind === 'custom' && reachedPainting && order.sketch_status !== 'approved') impossible.push(`${order.code}: painted without an approved sketch`);
    }
    check('no order has an impossible history', impossible, `${orders.length} histories, ${events.length} events (${moves} moves), each move allowed by planTransition`);

    // 3. Each Stripe event id took effect once, and every one answered 200 is recorded.
    const sentIds = [...new Set(traffic.webhooks.filter((w) => w.status === 200).map((w) => w.id))];
    const { rows: recorded } = await client.query<{ id: string; order_code: string | null }>('SELECT id, order_code FROM payment_events WHERE id = ANY($1::text[])', [sentIds]);
    const stripeProblems: string[] = [];
    if (recorded.length !== sentIds.length) stripeProblems.push(`${sentIds.length} distinct event ids answered 200, ${recorded.length} recorded`);
    const { rows: paidBy } = await client.query<{ code: string; payments: number; recorded: number }>(
      `SELECT o.code, count(*) FILTER (WHERE e.actor = 'payment')::int AS payments,
              (SELECT count(*)::int FROM payment_events p WHERE p.order_code = o.code) AS recorded
         FROM orders o JOIN order_events e ON e.order_id = o.id
        WHERE o.customer_email LIKE 'load-%@example.com' GROUP BY o.code`,
    );
    for (const row of paidBy) if (row.payments > 0 && row.recorded === 0) stripeProblems.push(`${row.code} paid by a webhook no event row names`);
    const deliveries = traffic.webhooks.length;
    const paidOrders = paidBy.filter((r) => r.payments === 1).length;
    check(
      'each Stripe event id processed once',
      stripeProblems,
      `${deliveries} deliveries of ${sentIds.length} distinct events (${deliveries - sentIds.length} replays), ${paidOrders} orders paid by webhook, none twice`,
    );

    // 4. Nothing half-written: every mail a change calls for is in the outbox, once; no orphans.
    const { rows: outbox } = await client.query<{ order_id: number; name: string; n: number }>(
      `SELECT (payload->>'orderId')::int AS order_id, name, count(*)::int AS n FROM outbox_events WHERE name LIKE 'shop/order.%' GROUP BY 1, 2`,
    );
    const mails = new Map(outbox.map((row) => [`${row.order_id}|${row.name}`, row.n]));
    const halfWritten: string[] = [];
    for (const order of orders) {
      const steps = history.get(order.id) ?? [];
      const wanted = new Map<string, number>([['shop/order.received', 1]]);
      for (let i = 1; i < steps.length; i++) {
        const mail = steps[i]!.status !== steps[i - 1]!.status ? mailOnStatus[steps[i]!.status] : undefined;
        if (mail) wanted.set(mail, (wanted.get(mail) ?? 0) + 1);
      }
      for (const [name, n] of wanted)
        if ((mails.get(`${order.id}|${name}`) ?? 0) !== n) halfWritten.push(`${order.code}: ${mails.get(`${order.id}|${name}`) ?? 0} × ${name}, expected ${n}`);
    }
    const orphans = await client.query<{ what: string; n: number }>(`
      SELECT 'order events without an order' AS what, count(*)::int AS n FROM order_events e WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = e.order_id)
      UNION ALL SELECT 'outbox events naming no order', count(*)::int FROM outbox_events x
        WHERE x.name LIKE 'shop/order.%' AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = (x.payload->>'orderId')::int)
      UNION ALL SELECT 'payment events naming no order', count(*)::int FROM payment_events p
        WHERE p.order_code IS NOT NULL AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.code = p.order_code)
      UNION ALL SELECT 'orders without an event', count(*)::int FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_events e WHERE e.order_id = o.id)`);
    for (const row of orphans.rows) if (row.n > 0) halfWritten.push(`${row.n} ${row.what}`);
    // A photo whose order failed stays unreferenced (the shopper may retry); any other loose photo is an orphan.
    const { rows: loose } = await client.query<{ id: string }>('SELECT u.id::text AS id FROM uploads u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.upload_id = u.id)');
    const abandoned = new Set(traffic.abandonedUploads);
    const strayUploads = loose.filter((u) => !abandoned.has(u.id));
    if (strayUploads.length) halfWritten.push(`${strayUploads.length} photos no order references and no failed order explains`);
    check(
      'nothing half-written, no orphan rows',
      halfWritten,
      `order, events and outbox mails agree for every order; no orphan events, outbox or payment rows; ${loose.length} unreferenced photos, all from failed custom orders`,
    );

    // 5. Error rate (timeouts and dropped connections count).
    const total = traffic.samples.length;
    const errors = traffic.samples.filter((s) => !expected[s.op].includes(s.status)).length;
    const rate = total ? errors / total : 1;
    const max = options.maxErrorRate ?? 0.001;
    checks.push({ name: `error rate below ${(max * 100).toFixed(1)} %`, ok: total > 0 && rate < max, detail: `${errors} of ${total} requests (${(rate * 100).toFixed(3)} %)` });
    return checks;
  } finally {
    await client.end();
  }
}

export const operations: Operation[] = ['create reproduction', 'upload photo', 'create custom', 'lookup', 'staff status', 'stripe webhook'];
