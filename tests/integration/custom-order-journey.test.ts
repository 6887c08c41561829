import { afterAll, beforeAll, expect, test } from 'vitest';
import { db } from '@/server/db/client';
import { smtpMailer } from '@/server/integrations/mailer';
import { runHere } from '@/server/jobs/runner';
import { drainOutbox } from '@/server/jobs/worker';
import { customer } from '../support/orders';
import { photos, STAFF, upload } from '../support/photos';
import { rest } from '../support/rest';
import { startSmtpServer } from '../support/smtp';
import { lookup } from '../support/staff';
import { checkoutEvent, postOrderWithCheckout, signed, startStripeServer } from '../support/stripe';

let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  [stripe, smtp] = await Promise.all([startStripeServer(), startSmtpServer()]);
});
afterAll(async () => {
  await Promise.all([stripe.close(), smtp.close()]);
});

const email = 'journey@example.com';

/** Runs the outbox events of this order, as the in-process worker does, into the local SMTP server. */
async function deliverMail(code: string) {
  const rows = await db().outboxEvent.findMany({ where: { sentAt: null, payload: { path: ['code'], equals: code } }, select: { id: true } });
  const deps = { db: db(), mailer: smtpMailer(smtp.url, 'orders@shop.example'), baseUrl: 'https://shop.example' };
  await drainOutbox(
    db(),
    runHere(() => deps),
    { ids: rows.map((r) => r.id) },
  );
}

test('a custom painting from a real photo: uploaded, paid through Stripe, walked by staff to delivered, each step in the lookup and the mailbox', async () => {
  // The customer uploads a photo and orders a painting of it; the answer carries Stripe's checkout address.
  const photo = await upload(photos.jpeg, 'image/jpeg');
  expect(photo.status).toBe(201);
  const created = await postOrderWithCheckout(
    {
      kind: 'custom',
      uploadId: photo.body.uploadId,
      style: 'impressionist',
      subjects: 2,
      size: '60x90',
      frame: 'stretched',
      locale: 'it',
      customer: { ...customer, email, name: 'Giulia Rossi', country: 'it' },
    },
    stripe.payments('https://shop.example'),
  );
  expect(created.status).toBe(201);
  const { code, total, checkoutUrl } = created.body;
  expect(total).toBe(Math.round((25900 + 7900) * 1.5) + 4000);
  const session = [...stripe.sessions.values()].find((s) => s.client_reference_id === code)!;
  expect(checkoutUrl).toBe(session.url);
  await deliverMail(code);
  expect(smtp.inbox.at(-1)!.subject).toBe(`Abbiamo ricevuto il tuo ordine ${code}`);

  // Stripe reports the payment.
  const event = JSON.stringify(checkoutEvent('checkout.session.completed', { code, amount: session.amount_total as number, id: session.id as string }));
  const paid = await rest('POST', '/payments/stripe-webhook', { body: event, headers: signed(event) });
  expect(paid.body).toEqual({ received: true, outcome: 'paid' });
  expect((await lookup(code, email)).status).toBe('paid');
  await deliverMail(code);
  expect(smtp.inbox.at(-1)!.subject).toBe(`Pagamento ricevuto per l’ordine ${code}`);

  // Staff see the photo and walk the order through every production step.
  const listed = await rest('GET', '/admin/orders', { query: { status: 'paid' }, headers: STAFF });
  expect(listed.body.items.find((o: { code: string }) => o.code === code)).toMatchObject({ uploadId: photo.body.uploadId, total });
  const photoBack = await (await import('@/server/api/rest')).handleRest(new Request(`http://shop.test/v1/admin/uploads/${photo.body.uploadId}`, { headers: STAFF }));
  expect(Buffer.from(await photoBack.arrayBuffer()).equals(photos.jpeg)).toBe(true);

  const steps: Record<string, unknown>[] = [
    { status: 'sketching', note: 'Sketch sent for approval' },
    { status: 'sketching', sketchStatus: 'approved', note: 'Sketch approved' },
    { status: 'painting', note: 'On the easel' },
    { status: 'drying', note: 'Varnished, drying' },
    { status: 'shipped', trackingNumber: 'IT-7781-22', note: 'Handed to the courier' },
    { status: 'delivered', note: 'Delivered to the door' },
  ];
  for (const step of steps) {
    const answer = await rest('POST', `/admin/orders/${code}/status`, { json: step, headers: STAFF });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const seen = await lookup(code, email);
    expect(seen.status).toBe(step.status);
    expect(seen.events.at(-1)).toEqual({
      status: step.status,
      note: step.note,
      at: expect.stringMatching(/Z$/),
      photo: null,
      sketchStatus: step.sketchStatus ?? null,
      actor: 'staff',
    });
    await deliverMail(code);
  }

  const final = await lookup(code, email);
  expect(final).toMatchObject({ status: 'delivered', trackingNumber: 'IT-7781-22', sketchStatus: 'approved' });
  expect(final.events.map((e) => e.status)).toEqual(['pending', 'paid', 'sketching', 'sketching', 'painting', 'drying', 'shipped', 'delivered']);

  const mine = smtp.inbox.filter((m) => m.to.includes(email));
  expect(mine.map((m) => m.subject)).toEqual([
    `Abbiamo ricevuto il tuo ordine ${code}`,
    `Pagamento ricevuto per l’ordine ${code}`,
    `L’ordine ${code} è in viaggio`,
    `L’ordine ${code} è stato consegnato`,
  ]);
  expect(mine[2]!.text).toContain('IT-7781-22');
  for (const mail of mine) expect(mail.text).toContain(`https://shop.example/it/orders/${code}`);
});
