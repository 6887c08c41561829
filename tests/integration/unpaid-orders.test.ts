import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCheckout } from '@/server/checkouts/service';
import type { Db } from '@/server/db/client';
import { env } from '@/server/env';
import type { Mail, Mailer } from '@/server/integrations/mailer';
import { runJob } from '@/server/jobs/registry';
import { photoStorage, uploadsFolder } from '@/server/integrations/storage';
import { createOrder } from '@/server/orders/service';
import { changeOrderStatus } from '@/server/orders/status';
import { closeUnpaidOrders } from '@/server/payments/unpaid';
import { configuredUploadDeps } from '@/server/uploads/handler';
import { deletePhotosPastRetention } from '@/server/uploads/retention';
import { receivePhoto } from '@/server/uploads/service';
import { CreateCheckout } from '@/shared/checkout-schema';
import { CreateOrder } from '@/shared/order-schema';
import { ownDatabase } from '../support/database';
import { reproduction } from '../support/orders';
import { paying } from '../support/payment';
import { customer } from '../support/staff';

/**
 * decisions.md "Payments and refunds", unpaid orders: reminded at UNPAID_REMIND_DAYS, cancelled at
 * UNPAID_CANCEL_DAYS, their photos gone a week later, with the clock moved instead of waiting. On a
 * database of its own: a clock weeks ahead would otherwise close the other test files' orders.
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
beforeAll(async () => {
  own = await ownDatabase('unpaid');
  db = own.db;
});
afterAll(async () => own.drop());

const DAY = 86_400_000;
const settings = { remindDays: 7, cancelDays: 14 };
const close = (now: Date) => closeUnpaidOrders(db, { ...settings, now });
/** Moves an order's creation back, as if it was placed `days` ago. */
const placedDaysAgo = (code: string, days: number) => db.order.update({ where: { code }, data: { createdAt: new Date(Date.now() - days * DAY) } });
const order = (code: string) => db.order.findUniqueOrThrow({ where: { code }, include: { events: { orderBy: { id: 'asc' } } } });
const mails = (name: string, code: string) => db.outboxEvent.findMany({ where: { name, payload: { path: ['code'], equals: code } } });
const newOrder = async (locale = 'en') => (await createOrder(db, CreateOrder.parse(reproduction({ customer, locale })))).code;

describe('unpaid orders', () => {
  test('reminded once at 7 days, in the order’s language, with the day it will be cancelled; cancelled at 14 with an e-mail', async () => {
    const code = await newOrder('de');
    await placedDaysAgo(code, 6.9);
    expect(await close(new Date())).toEqual({ reminded: 0, cancelled: 0 });
    await placedDaysAgo(code, 7.1);
    expect(await close(new Date())).toEqual({ reminded: 1, cancelled: 0 });
    expect(await close(new Date())).toEqual({ reminded: 0, cancelled: 0 });
    const reminded = await order(code);
    expect(reminded.status).toBe('pending');
    expect(reminded.events.at(-1)).toMatchObject({
      actor: 'system',
      status: 'pending',
      note: expect.stringMatching(/^Eine Erinnerung wurde gesendet: .* wartet bis zum \d+\. \w+ \d{4} auf die Zahlung\.$/),
    });
    const [reminder] = await mails('shop/order.payment-reminder', code);
    // A week after the reminder (the order is 7.1 days old: 14 days after it would be 6.9 days away).
    const payBy = new Date((reminder!.payload as { payBy: string }).payBy);
    expect(Math.abs(payBy.getTime() - (reminded.remindedAt!.getTime() + 7 * DAY))).toBeLessThan(1000);

    // A day before the cancellation nothing happens; at it, the order is cancelled by the shop.
    expect(await close(new Date(Date.now() + 6 * DAY))).toEqual({ reminded: 0, cancelled: 0 });
    expect(await close(new Date(Date.now() + 7 * DAY))).toEqual({ reminded: 0, cancelled: 1 });
    const cancelled = await order(code);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.events.at(-1)).toMatchObject({ actor: 'system', status: 'cancelled', note: 'Storniert: innerhalb von 14 Tagen ist keine Zahlung eingegangen.' });
    expect(await mails('shop/order.unpaid-cancelled', code)).toHaveLength(1);
    expect(await close(new Date(Date.now() + 30 * DAY))).toEqual({ reminded: 0, cancelled: 0 });
  });

  test('an order the job reaches late is reminded first, and keeps the whole week after the reminder', async () => {
    const code = await newOrder();
    await placedDaysAgo(code, 20);
    expect(await close(new Date())).toEqual({ reminded: 1, cancelled: 0 });
    const [reminder] = await mails('shop/order.payment-reminder', code);
    expect(new Date((reminder!.payload as { payBy: string }).payBy).getTime()).toBeGreaterThan(Date.now() + 7 * DAY - 60_000);
    expect(await close(new Date(Date.now() + 6 * DAY))).toEqual({ reminded: 0, cancelled: 0 });
    expect(await close(new Date(Date.now() + 7.1 * DAY))).toEqual({ reminded: 0, cancelled: 1 });
  });

  test('a paid order, and one whose bank debit is on its way, are never reminded or cancelled', async () => {
    const paid = await newOrder();
    await changeOrderStatus(db, paid, { status: 'paid' });
    const debit = await newOrder();
    const { id } = await db.order.findUniqueOrThrow({ where: { code: debit } });
    await db.paymentSession.create({ data: { id: `cs_test_debit_${debit}`, orderId: id, amountCents: 100, state: 'processing' } });
    for (const code of [paid, debit]) await placedDaysAgo(code, 30);
    const result = await close(new Date(Date.now() + 30 * DAY));
    expect(result.cancelled).toBe(0);
    expect((await order(paid)).status).toBe('paid');
    expect((await order(debit)).status).toBe('pending');
    expect(await mails('shop/order.payment-reminder', debit)).toHaveLength(0);
  });

  test('a basket’s unpaid orders are reminded and cancelled together: an event on each, one e-mail for them, in the basket’s language', async () => {
    const item = (overrides: Record<string, unknown> = {}) => {
      const { customer: _, ...rest } = reproduction(overrides);
      return rest;
    };
    const basket = await createCheckout(
      db,
      CreateCheckout.parse({ items: [item(), item({ artworkSlug: 'mona-lisa' }), item({ size: '30x40', frame: 'rolled' })], customer, locale: 'de' }),
    );
    const [first, second, third] = basket.orders.map((o) => o.code) as [string, string, string];
    // The third was paid on its own (a transfer for that one only): it is neither reminded nor cancelled.
    await changeOrderStatus(db, third, { status: 'paid' });
    for (const code of [first, second, third]) await placedDaysAgo(code, 7.1);
    const ids = await Promise.all([first, second].map(async (code) => (await order(code)).id));

    // Render a basket e-mail from its outbox row, as the worker does.
    const render = async (name: string) => {
      const [event, ...more] = await db.outboxEvent.findMany({ where: { name, payload: { path: ['code'], equals: basket.code } } });
      expect(more).toEqual([]);
      const sent: Mail[] = [];
      const mailer: Mailer = { send: async (mail) => void sent.push(mail) };
      const payment = paying({ online: false, instructions: 'IBAN DE00 0000 0000 0000 0000 00' });
      expect(await runJob(event!.name, event!.payload, { db, mailer, baseUrl: 'https://prints.example', payment })).toBe('sent');
      expect(sent).toHaveLength(1);
      return { payload: event!.payload as { orderIds: number[] }, mail: sent[0]! };
    };

    expect(await close(new Date())).toEqual({ reminded: 2, cancelled: 0 });
    for (const code of [first, second]) {
      expect((await order(code)).events.at(-1)).toMatchObject({ actor: 'system', status: 'pending', note: expect.stringMatching(/^Eine Erinnerung wurde gesendet/) });
      expect(await mails('shop/order.payment-reminder', code)).toHaveLength(0);
    }
    const reminder = await render('shop/checkout.payment-reminder');
    expect(reminder.payload.orderIds).toEqual(ids);
    expect(reminder.mail.to).toBe(customer.email);
    expect(reminder.mail.subject).toBe(`Ihre Bestellung über 2 Werke (${basket.code}) wartet auf die Zahlung`);
    expect(reminder.mail.text).toContain(first);
    expect(reminder.mail.text).toContain(second);
    expect(reminder.mail.text).not.toContain(third);
    expect(reminder.mail.text).toMatch(/Zahlbar bis: \d+\. \w+ \d{4}/);
    expect(reminder.mail.text).toContain(`Warenkorbnummer ${basket.code} als Verwendungszweck`);
    expect(reminder.mail.text).toContain(`https://prints.example/de/orders/basket/${basket.code}`);
    // About one order only, the words are the singular's.
    const sent: Mail[] = [];
    await runJob(
      'shop/checkout.payment-reminder',
      { ...reminder.payload, orderIds: [ids[0]] },
      { db, mailer: { send: async (mail) => void sent.push(mail) }, baseUrl: 'https://prints.example' },
    );
    expect(sent[0]!.subject).toBe(`Ihre Bestellung über 1 Werk (${basket.code}) wartet auf die Zahlung`);
    expect(sent[0]!.text).toContain('Ihre folgende Bestellung ist vorgemerkt');

    // A week after the reminder both are cancelled, together again; the paid one stays paid.
    expect(await close(new Date(Date.now() + 7 * DAY))).toEqual({ reminded: 0, cancelled: 2 });
    for (const code of [first, second]) {
      expect((await order(code)).status).toBe('cancelled');
      expect(await mails('shop/order.unpaid-cancelled', code)).toHaveLength(0);
    }
    expect((await order(third)).status).toBe('paid');
    const cancelled = await render('shop/checkout.unpaid-cancelled');
    expect(cancelled.payload.orderIds).toEqual(ids);
    expect(cancelled.mail.subject).toBe(`Ihre Bestellung über 2 Werke (${basket.code}) wurde storniert: keine Zahlung eingegangen`);
    expect(cancelled.mail.text).not.toContain(third);
    // Nothing left to pay: no account, no reference.
    expect(cancelled.mail.text).not.toContain('Verwendungszweck');
  });

  test('the photos of an order cancelled unpaid are deleted 7 days after the cancellation', async () => {
    const jpeg = await sharp({ create: { width: 60, height: 40, channels: 3, background: '#7a5' } })
      .jpeg()
      .toBuffer();
    const { uploadId } = await receivePhoto(db, configuredUploadDeps(), { contentType: 'image/jpeg', contentLength: null, body: new Response(new Uint8Array(jpeg)).body });
    const { code } = await createOrder(db, CreateOrder.parse({ kind: 'custom', uploadId, style: 'modern', subjects: 1, size: '30x40', frame: 'rolled', customer }));
    await placedDaysAgo(code, 15);
    await close(new Date());
    expect((await close(new Date(Date.now() + 7.1 * DAY))).cancelled).toBe(1);
    const file = path.join(uploadsFolder(env()), uploadId);
    const retention = (days: number) => deletePhotosPastRetention(db, photoStorage(), { retentionDays: 180, now: new Date(Date.now() + days * DAY) });
    expect((await retention(6.9)).photos).toBe(0);
    expect(existsSync(file)).toBe(true);
    expect((await retention(7.1)).photos).toBe(1);
    expect(existsSync(file)).toBe(false);
    expect((await order(code)).events.at(-1)!.note).toBe('As our privacy notice promises, the photos of this order were deleted 7 days after it was completed.');
  });
});
