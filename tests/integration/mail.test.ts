import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import { mailerFor, smtpMailer } from '@/server/integrations/mailer';
import { createFunctions } from '@/server/jobs/functions';
import { jobs, type JobDeps } from '@/server/jobs/registry';
import { relayTo, runHere } from '@/server/jobs/runner';
import { claimOutbox, drainOutbox, startOutboxLoop } from '@/server/jobs/worker';
import { createOrder } from '@/server/orders/service';
import { changeOrderStatus } from '@/server/orders/status';
import { CreateOrder } from '@/shared/order-schema';
import { ownDatabase } from '../support/database';
import { custom, customer, reproduction } from '../support/orders';
import { startInngestEventServer } from '../support/inngest';
import { startSmtpServer } from '../support/smtp';

let own: Awaited<ReturnType<typeof ownDatabase>>;
let ownDb: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let deps: JobDeps;
const names = Object.keys(jobs);
const noWait = () => 0;

beforeAll(async () => {
  own = await ownDatabase('mail');
  ownDb = own.db;
  smtp = await startSmtpServer();
  deps = { db: ownDb, mailer: smtpMailer(smtp.url, '"Atelier Prints" <orders@shop.example>'), baseUrl: 'https://shop.example' };
});
afterAll(async () => {
  await smtp.close();
  await own.drop();
});
beforeEach(async () => {
  // Each test starts from an empty outbox and inbox in this file's own database.
  await ownDb.outboxEvent.updateMany({ where: { sentAt: null }, data: { sentAt: new Date() } });
  smtp.inbox.length = 0;
  smtp.control.rejectNext = 0;
});

const order = async (overrides: Record<string, unknown> = {}) => createOrder(ownDb, CreateOrder.parse(reproduction(overrides)));
const drain = () =>
  drainOutbox(
    ownDb,
    runHere(() => deps),
    { names, backoff: noWait },
  );

describe('the in-process worker (no Inngest configured)', () => {
  test('sends the order-received e-mail through SMTP and marks the outbox event sent', async () => {
    const { code } = await order();
    expect(await drain()).toMatchObject({ sent: 1, failed: 0 });
    expect(smtp.inbox).toHaveLength(1);
    const mail = smtp.inbox[0]!;
    expect(mail.to).toEqual([customer.email]);
    expect(mail.from).toBe('orders@shop.example');
    expect(mail.subject).toBe(`We have your order ${code}`);
    expect(mail.text).toContain('The Starry Night');
    expect(mail.text).toContain('$258.00');
    expect(mail.text).toContain(`https://shop.example/en/orders/${code}`);
    expect(mail.html).toContain(`href="https://shop.example/en/orders/${code}"`);
    const row = await ownDb.outboxEvent.findFirstOrThrow({ where: { payload: { path: ['code'], equals: code } } });
    expect(row.sentAt).not.toBeNull();
    expect(await drain()).toMatchObject({ claimed: 0 });
    expect(smtp.inbox).toHaveLength(1);
  });

  test('payment received, shipped (with tracking number) and delivered each send their e-mail, in the order language', async () => {
    const { code } = await order({ locale: 'ja' });
    await changeOrderStatus(ownDb, code, { status: 'paid' });
    await changeOrderStatus(ownDb, code, { status: 'paid', note: 'a note sends nothing' });
    await changeOrderStatus(ownDb, code, { status: 'shipped', trackingNumber: 'JP-TRACK-42' });
    await changeOrderStatus(ownDb, code, { status: 'delivered' });
    await drain();
    expect(smtp.inbox.map((m) => m.subject)).toEqual([
      `ご注文 ${code} を承りました`,
      `ご注文 ${code} のお支払いを確認しました`,
      `ご注文 ${code} を発送しました`,
      `ご注文 ${code} をお届けしました`,
    ]);
    expect(smtp.inbox[2]!.text).toContain('追跡番号: JP-TRACK-42');
    expect(smtp.inbox[2]!.html).toContain('JP-TRACK-42');
    expect(smtp.inbox[0]!.text).toContain('星月夜');
  });

  test('a vi order is written in English; a custom painting names its style', async () => {
    const vi = await order({ locale: 'vi' });
    const photo = await ownDb.upload.create({ data: { contentType: 'image/png', size: 1, sha256: '0'.repeat(64) } });
    const painting = await createOrder(ownDb, CreateOrder.parse({ ...(await custom({ uploadId: photo.id })), locale: 'es' }));
    await drain();
    const byCode = (code: string) => smtp.inbox.find((m) => m.subject.includes(code))!;
    expect(byCode(vi.code).subject).toBe(`We have your order ${vi.code}`);
    expect(byCode(vi.code).text).toContain(`/vi/orders/${vi.code}`);
    expect(byCode(painting.code).subject).toBe(`Hemos recibido tu pedido ${painting.code}`);
    expect(byCode(painting.code).text).toContain('Van Gogh');
  });

  test('a send the SMTP server refuses is retried with backoff and never lost', async () => {
    const { code } = await order();
    smtp.control.rejectNext = 2;
    const slow = await drainOutbox(
      ownDb,
      runHere(() => deps),
      { names },
    );
    expect(slow).toMatchObject({ claimed: 1, sent: 0, failed: 1 });
    const waiting = await ownDb.outboxEvent.findFirstOrThrow({ where: { payload: { path: ['code'], equals: code } } });
    expect(waiting).toMatchObject({ sentAt: null, attempts: 1, lastError: expect.stringContaining('451') });
    expect(waiting.availableAt.getTime()).toBeGreaterThan(Date.now() + 3_000);
    expect(await drain()).toMatchObject({ claimed: 0 });

    await ownDb.outboxEvent.update({ where: { id: waiting.id }, data: { availableAt: new Date() } });
    expect(await drain()).toMatchObject({ failed: 1 });
    await ownDb.outboxEvent.update({ where: { id: waiting.id }, data: { availableAt: new Date() } });
    expect(await drain()).toMatchObject({ sent: 1 });
    expect(smtp.inbox.map((m) => m.subject)).toEqual([`We have your order ${code}`]);
    expect(await ownDb.outboxEvent.findUniqueOrThrow({ where: { id: waiting.id } })).toMatchObject({ attempts: 3, lastError: null });
  });

  test('with no SMTP configured the worker logs that mail is off and carries on', async () => {
    expect(mailerFor(parseEnv({}))).toBeNull();
    expect(mailerFor(parseEnv({ SMTP_URL: smtp.url }))).not.toBeNull();
    const { code } = await order();
    const result = await drainOutbox(
      ownDb,
      runHere(() => ({ ...deps, mailer: null })),
      { names },
    );
    expect(result).toMatchObject({ sent: 1, failed: 0 });
    expect(smtp.inbox).toHaveLength(0);
    expect((await ownDb.outboxEvent.findFirstOrThrow({ where: { payload: { path: ['code'], equals: code } } })).sentAt).not.toBeNull();
  });

  test('two workers at once send each e-mail exactly once', async () => {
    const codes = await Promise.all(Array.from({ length: 12 }, async () => (await order()).code));
    await Promise.all(
      Array.from({ length: 4 }, () =>
        drainOutbox(
          ownDb,
          runHere(() => deps),
          { names, limit: 5, backoff: noWait },
        ).then(drain),
      ),
    );
    await drain();
    expect(smtp.inbox.map((m) => m.subject).sort()).toEqual(codes.map((c) => `We have your order ${c}`).sort());
  });

  test('the polling loop picks up events as they are committed, and a claimed row is leased, not taken twice', async () => {
    const loop = startOutboxLoop(
      ownDb,
      runHere(() => deps),
      { names, intervalMs: 50 },
    );
    try {
      const { code } = await order();
      await smtp.waitFor((inbox) => inbox.some((m) => m.subject.includes(code)));
      await changeOrderStatus(ownDb, code, { status: 'paid' });
      await smtp.waitFor((inbox) => inbox.some((m) => m.subject === `Payment received for order ${code}`));
    } finally {
      await loop.stop();
    }
    await order();
    const claimed = await claimOutbox(ownDb, { names });
    expect(claimed).toHaveLength(1);
    expect(await claimOutbox(ownDb, { names })).toHaveLength(0);
  });
});

describe('the relay to Inngest (Inngest configured)', () => {
  test('hands each outbox event to Inngest with the row id as event id, and keeps it when Inngest is down', async () => {
    const server = await startInngestEventServer();
    try {
      const client = new Inngest({ id: 'relay-test', eventKey: 'test-event-key', baseUrl: server.url });
      const { code } = await order();
      const row = await ownDb.outboxEvent.findFirstOrThrow({ where: { payload: { path: ['code'], equals: code } } });

      server.control.failWith = 503;
      expect(await drainOutbox(ownDb, relayTo(client), { backoff: noWait })).toMatchObject({ failed: 1 });
      expect((await ownDb.outboxEvent.findUniqueOrThrow({ where: { id: row.id } })).sentAt).toBeNull();

      server.control.failWith = 0;
      expect(await drainOutbox(ownDb, relayTo(client), { backoff: noWait })).toMatchObject({ sent: 1 });
      expect(server.events).toEqual([expect.objectContaining({ id: row.id, name: 'shop/order.received', data: expect.objectContaining({ code }) })]);
      expect((await ownDb.outboxEvent.findUniqueOrThrow({ where: { id: row.id } })).sentAt).not.toBeNull();
      expect(smtp.inbox).toHaveLength(0);
    } finally {
      await server.close();
    }
  }, 20_000);
});

describe('the Inngest functions (run with @inngest/test)', () => {
  const functionsWith = (jobDeps: JobDeps) => createFunctions(new Inngest({ id: 'functions-test' }), () => jobDeps);
  const mailEvents = ['shop/order.received', 'shop/order.paid', 'shop/order.shipped', 'shop/order.delivered'] as const;

  test.each(mailEvents)('%s sends its e-mail through the same domain function', async (name) => {
    const { code } = await order({ locale: 'de' });
    const created = await ownDb.order.findUniqueOrThrow({ where: { code } });
    const [fn] = functionsWith(deps);
    const engine = new InngestTestEngine({ function: fn!, events: [{ name, data: { orderId: created.id, code, trackingNumber: 'DE-1' } }] });
    const { result, error } = await engine.execute();
    expect(error).toBeUndefined();
    expect(result).toBe('sent');
    expect(smtp.inbox).toHaveLength(1);
    expect(smtp.inbox[0]!.subject).toContain(code);
    expect(smtp.inbox[0]!.text).toContain('Hallo');
  });

  test('a refused send fails the run, so Inngest retries it', async () => {
    const { code } = await order();
    const created = await ownDb.order.findUniqueOrThrow({ where: { code } });
    smtp.control.rejectNext = 1;
    const [fn] = functionsWith(deps);
    const engine = new InngestTestEngine({ function: fn!, events: [{ name: 'shop/order.paid', data: { orderId: created.id, code } }] });
    const { error } = await engine.execute();
    expect(error).toBeDefined();
    expect(smtp.inbox).toHaveLength(0);
    expect((fn as unknown as { opts: { retries: number } }).opts.retries).toBeGreaterThan(3);
  });

  test('with mail off the run ends quietly', async () => {
    const { code } = await order();
    const created = await ownDb.order.findUniqueOrThrow({ where: { code } });
    const [fn] = functionsWith({ ...deps, mailer: null });
    const { result, error } = await new InngestTestEngine({ function: fn!, events: [{ name: 'shop/order.received', data: { orderId: created.id, code } }] }).execute();
    expect(error).toBeUndefined();
    expect(result).toBe('mail off');
  });
});

describe('/api/inngest', () => {
  test('with no Inngest configured it answers 404 (the in-process worker runs the jobs)', async () => {
    const route = await import('@/app/api/inngest/route');
    const response = await (route.GET as unknown as (req: Request) => Promise<Response>)(new Request('http://shop.test/api/inngest'));
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  });
});
