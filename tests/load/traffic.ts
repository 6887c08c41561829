/**
 * The traffic of a busy day, against a running shop over HTTP: shoppers ordering reproductions and
 * custom paintings (photo upload first), looking their orders up; staff moving orders along; Stripe
 * delivering signed webhooks, replayed, duplicated and out of order. Every answer is recorded with
 * the operation, its status and its time; a timeout or a dropped connection is status 0.
 */
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { frames, sizes } from '@/shared/canvas';
import { catalogLocales } from '@/shared/locales';
import { sketchDecisions, styles, type OrderStatus } from '@/shared/orders';
import { checkoutEvent, signed } from '../support/stripe';
import { LOAD_ADMIN_TOKEN } from './shop';

export type Operation = 'create reproduction' | 'upload photo' | 'create custom' | 'lookup' | 'staff status' | 'stripe webhook';

/** The statuses each operation may answer in a healthy shop; anything else is an error. */
export const expected: Record<Operation, number[]> = {
  'create reproduction': [201],
  'upload photo': [201],
  'create custom': [201],
  lookup: [200],
  // Two staff members, or staff and a webhook, can race for one order: the loser gets 409.
  'staff status': [200, 409],
  'stripe webhook': [200],
};

export interface Sample {
  op: Operation;
  status: number;
  ms: number;
  /** For status 0: what went wrong (timeout, reset, …). */
  failure?: string;
  /** When did it start (ms since the traffic began), to place it against a fault. */
  at: number;
  /** The body of an answer the operation does not expect (first 500 characters). */
  body?: string;
}

export interface AcceptedOrder {
  code: string;
  email: string;
  kind: 'reproduction' | 'custom';
  total: number;
  uploadId?: string;
  checkoutUrl: string | null;
}

export interface SentWebhook {
  id: string;
  code: string;
  status: number;
}

export interface Traffic {
  samples: Sample[];
  accepted: AcceptedOrder[];
  webhooks: SentWebhook[];
  /** Uploads answered 201 whose custom order then failed (the shopper left; the photo stays unreferenced). */
  abandonedUploads: string[];
  /** Order creations that got no answer or a 5xx: the order may or may not exist (a commit whose answer was lost). */
  uncertainCreates: number;
  seconds: number;
}

const photo = readFileSync(new URL('../fixtures/photos/photo.jpg', import.meta.url));
const locales = catalogLocales;
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
/** No answer, or the server's own failure: the commit may have happened before the answer was lost. */
const uncertain = (status: number) => status === 0 || status >= 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A distinct client address per virtual client (the shop runs with TRUST_PROXY=1). */
export const clientAddress = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export async function driveTraffic(options: {
  url: string;
  clients: number;
  seconds: number;
  staff?: number;
  webhookSenders?: number;
  timeoutMs?: number;
  /** Stop when this says so (the fault runs end the traffic themselves). */
  until?: () => boolean;
}): Promise<Traffic> {
  const { url } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const traffic: Traffic = { samples: [], accepted: [], webhooks: [], abandonedUploads: [], uncertainCreates: 0, seconds: options.seconds };
  const slugs = await artworkSlugs(url);
  const started = Date.now();
  const end = started + options.seconds * 1000;
  const running = () => Date.now() < end && !(options.until?.() ?? false);

  async function call(op: Operation, path: string, init: RequestInit & { address: string }): Promise<{ status: number; body: any }> {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', init.address);
    const t0 = performance.now();
    const at = Date.now() - started;
    try {
      const response = await fetch(`${url}${path}`, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
      const text = await response.text();
      const unexpected = !expected[op].includes(response.status);
      traffic.samples.push({ op, status: response.status, ms: performance.now() - t0, at, ...(unexpected ? { body: text.slice(0, 500) } : {}) });
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text for the error count
      }
      return { status: response.status, body };
    } catch (error) {
      const failure = error instanceof Error ? `${error.name}: ${(error.cause as Error | undefined)?.message ?? error.message}` : String(error);
      traffic.samples.push({ op, status: 0, ms: performance.now() - t0, at, failure });
      return { status: 0, body: null };
    }
  }

  const json = (body: unknown, extra: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });

  async function shopper(n: number) {
    const address = clientAddress(n + 1);
    const email = `load-${n}-${randomBytes(3).toString('hex')}@example.com`;
    const customer = { name: `Shopper ${n}`, email, address: `${n} Load Street`, city: 'Leeds', postalCode: 'LS1 4AP', country: 'GB' };
    const mine: AcceptedOrder[] = [];
    while (running()) {
      const roll = Math.random();
      if (roll < 0.7) {
        const answer = await call('create reproduction', '/v1/orders', {
          address,
          ...json({ kind: 'reproduction', artworkSlug: pick(slugs), size: pick(sizes), frame: pick(frames), locale: pick(locales), customer }),
        });
        if (answer.status === 201) mine.push(accept(answer.body, email, 'reproduction'));
        if (uncertain(answer.status)) traffic.uncertainCreates++;
      } else if (roll < 0.9) {
        const uploaded = await call('upload photo', '/v1/uploads', { address, method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: photo });
        if (uploaded.status !== 201) continue;
        const uploadId = uploaded.body.uploadId as string;
        const answer = await call('create custom', '/v1/orders', {
          address,
          ...json({
            kind: 'custom',
            uploadId,
            style: pick(styles),
            subjects: 1 + Math.floor(Math.random() * 3),
            size: pick(sizes),
            frame: pick(frames),
            locale: pick(locales),
            customer,
          }),
        });
        if (answer.status === 201) mine.push({ ...accept(answer.body, email, 'custom'), uploadId });
        else traffic.abandonedUploads.push(uploadId);
        if (uncertain(answer.status)) traffic.uncertainCreates++;
      } else if (mine.length) {
        const order = pick(mine);
        await call('lookup', `/v1/orders/${order.code}?email=${encodeURIComponent(email)}`, { address, method: 'GET' });
      }
    }
  }

  function accept(body: any, email: string, kind: AcceptedOrder['kind']): AcceptedOrder {
    const order: AcceptedOrder = { code: body.code, email, kind, total: body.total, checkoutUrl: body.checkoutUrl ?? null };
    traffic.accepted.push(order);
    return order;
  }

  /** Staff walk orders forward (sometimes skipping, sometimes cancelling), as the workshop does. */
  async function staffMember(n: number) {
    const address = `192.168.${n}.10`;
    const auth = { authorization: `Bearer ${LOAD_ADMIN_TOKEN}` };
    // The moves the workshop usually makes (a subset of what the shared chain allows, src/shared/orders.ts).
    const next: Partial<Record<OrderStatus, OrderStatus[]>> = {
      pending: ['paid', 'cancelled'],
      paid: ['sketching', 'painting', 'cancelled'],
      sketching: ['sketching', 'painting'],
      painting: ['drying'],
      drying: ['shipped'],
      shipped: ['delivered'],
    };
    const seen = new Map<string, OrderStatus>();
    while (running()) {
      if (traffic.accepted.length < 5) {
        await sleep(50);
        continue;
      }
      const order = pick(traffic.accepted.slice(-400));
      const from = seen.get(order.code) ?? 'pending';
      const options = next[from];
      if (!options) continue;
      const status = pick(options);
      const change: Record<string, unknown> = { status, note: `step by staff ${n}` };
      if (status === 'shipped' || status === 'delivered') change.trackingNumber = `1Z${randomBytes(6).toString('hex').toUpperCase()}`;
      if (status === 'sketching' && order.kind === 'custom' && from === 'sketching') change.sketchStatus = pick(sketchDecisions);
      if (status === 'sketching' && order.kind !== 'custom') change.status = 'painting';
      const answer = await call('staff status', `/v1/admin/orders/${order.code}/status`, { address, ...json(change, auth) });
      if (answer.status === 200) seen.set(order.code, answer.body.status ?? change.status);
      else if (answer.status === 409) seen.set(order.code, 'delivered'); // someone else moved it: leave it be
      await sleep(5);
    }
  }

  /** Stripe: a paid checkout per order, delivered again later, twice at once, or followed by a second kind of paid event. */
  async function stripe(n: number) {
    const address = `3.18.12.${n + 1}`;
    let cursor = n;
    const delivered: { event: ReturnType<typeof checkoutEvent>; code: string }[] = [];
    const send = async (event: ReturnType<typeof checkoutEvent>, code: string) => {
      const payload = JSON.stringify(event);
      const answer = await call('stripe webhook', '/v1/payments/stripe-webhook', { address, method: 'POST', headers: signed(payload), body: payload });
      traffic.webhooks.push({ id: event.id, code, status: answer.status });
    };
    while (running()) {
      const roll = Math.random();
      if (roll < 0.55 && cursor < traffic.accepted.length) {
        const order = traffic.accepted[cursor]!;
        cursor += options.webhookSenders ?? 4;
        if (!order.checkoutUrl) continue;
        const event = checkoutEvent('checkout.session.completed', { code: order.code, amount: order.total });
        delivered.push({ event, code: order.code });
        await send(event, order.code);
      } else if (roll < 0.8 && delivered.length) {
        const again = pick(delivered); // a replay: same event id, signed anew
        await send(again.event, again.code);
      } else if (roll < 0.9 && delivered.length) {
        const again = pick(delivered); // the same delivery twice at once
        await Promise.all([send(again.event, again.code), send(again.event, again.code)]);
      } else if (delivered.length) {
        // Out of order: an async-payment success for an order whose completed event came first.
        const earlier = pick(delivered);
        const order = traffic.accepted.find((o) => o.code === earlier.code)!;
        await send(checkoutEvent('checkout.session.async_payment_succeeded', { code: order.code, amount: order.total }), order.code);
      } else {
        await sleep(20);
      }
    }
  }

  await Promise.all([
    ...Array.from({ length: options.clients }, (_, n) => shopper(n)),
    ...Array.from({ length: options.staff ?? 4 }, (_, n) => staffMember(n)),
    ...Array.from({ length: options.webhookSenders ?? 4 }, (_, n) => stripe(n)),
  ]);
  traffic.seconds = (Date.now() - started) / 1000;
  return traffic;
}

async function artworkSlugs(url: string): Promise<string[]> {
  const response = await fetch(`${url}/v1/artworks`);
  const body = (await response.json()) as { items?: { slug: string }[] };
  const slugs = (body.items ?? []).map((item) => item.slug);
  if (!slugs.length) throw new Error(`no artworks to order from ${url}/v1/artworks: ${response.status}`);
  return slugs;
}
