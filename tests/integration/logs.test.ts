import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { createDb, type Db } from '@/server/db/client';
import { smtpMailer } from '@/server/integrations/mailer';
import { jobs } from '@/server/jobs/registry';
import { runHere } from '@/server/jobs/runner';
import { drainOutbox } from '@/server/jobs/worker';
import { captureLogs } from '@/server/logger';
import { createOrder } from '@/server/orders/service';
import { signIn } from '@/server/staff/handlers';
import { CreateOrder } from '@/shared/order-schema';
import { ownDatabase } from '../support/database';
import { reproduction } from '../support/orders';
import { photos, STAFF } from '../support/photos';
import { rest } from '../support/rest';
import { checkoutEvent, postOrderWithCheckout, signed, startStripeServer, STRIPE_TEST_KEY, WEBHOOK_SECRET } from '../support/stripe';

/**
 * Drives every flow that touches a secret or a customer's data with the logger capturing all
 * levels, then looks for those values in what was written. The flows are made to log (a checkout
 * that fails, wrong tokens, a bad signature, a refused e-mail, a 500), so the check has lines to read.
 */
const NEXTAUTH_SECRET = 'nextauth-secret-for-the-log-test-0123456789';
process.env.NEXTAUTH_SECRET = NEXTAUTH_SECRET;
process.env.STRIPE_SECRET_KEY = STRIPE_TEST_KEY;
const ADMIN_TOKEN = STAFF.authorization.slice('Bearer '.length);
const EMAIL = 'Ada.Lovelace+prints@analytical.example';
const REFUSED_EMAIL = 'bounce.me@refusing.example';

let captured: ReturnType<typeof captureLogs>;
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let refusing: SMTPServer;
let refusingUrl: string;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let placedCode = '';

beforeAll(async () => {
  stripe = await startStripeServer();
  // An SMTP server that refuses the recipient, echoing the address as real servers do.
  refusing = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      callback(Object.assign(new Error(`<${address.address}>: Recipient address rejected: mailbox unavailable`), { responseCode: 550 }));
    },
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;
  own = await ownDatabase('logs');
  captured = captureLogs();
});

afterAll(async () => {
  captured?.stop();
  await stripe.close();
  await new Promise<void>((resolve) => refusing.close(() => resolve()));
  await own.drop();
});

describe('secrets and personal data never reach the log', () => {
  test('order creation with an e-mail, its checkout failing (logged with the order code)', async () => {
    stripe.control.failWith = 500;
    const created = await postOrderWithCheckout(reproduction({ customer: { ...reproduction().customer, email: EMAIL } }), stripe.payments());
    stripe.control.failWith = 0;
    expect(created.status).toBe(201);
    placedCode = created.body.code;
    expect(captured.lines.some((line) => line.includes(placedCode))).toBe(true);
  });

  test('order lookups, right and wrong e-mail', async () => {
    expect((await rest('GET', `/orders/${placedCode}`, { query: { email: EMAIL } })).status).toBe(200);
    expect((await rest('GET', `/orders/${placedCode}`, { query: { email: 'someone.else@example.com' } })).status).toBe(404);
  });

  test('staff calls with the right and a wrong token, and the dashboard sign-in', async () => {
    expect((await rest('GET', '/admin/orders', { headers: STAFF })).status).toBe(200);
    expect((await rest('GET', '/admin/orders', { headers: { authorization: `Bearer ${ADMIN_TOKEN}x` } })).status).toBe(401);
    const form = (token: string) =>
      new Request('http://shop.test/staff/api/sign-in', { method: 'POST', headers: { origin: 'http://shop.test' }, body: new URLSearchParams({ token, locale: 'en' }) });
    expect((await signIn(form(`${ADMIN_TOKEN}-wrong`))).headers.get('location')).toContain('error=token');
    expect((await signIn(form(ADMIN_TOKEN))).headers.get('set-cookie')).toBeTruthy();
    expect(captured.lines.some((line) => line.includes('wrong token'))).toBe(true);
  });

  test('a Stripe webhook with a bad and with a good signature', async () => {
    const payload = JSON.stringify(checkoutEvent('checkout.session.completed', { code: placedCode, amount: 25800 }));
    const bad = await rest('POST', '/payments/stripe-webhook', { body: payload, headers: signed(payload, { secret: 'whsec_not_the_right_one' }) });
    expect(bad.status).toBe(400);
    const good = await rest('POST', '/payments/stripe-webhook', { body: payload, headers: signed(payload) });
    expect(good.status).toBe(200);
  });

  test('a photo upload', async () => {
    const response = await handleRest(
      new Request('http://shop.test/v1/uploads', { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: new Uint8Array(photos.jpeg) }),
    );
    expect(response.status).toBe(201);
  });

  test('an e-mail the SMTP server refuses, naming the address in its answer', async () => {
    await createOrder(own.db, CreateOrder.parse(reproduction({ customer: { ...reproduction().customer, email: REFUSED_EMAIL } })));
    const deps = { db: own.db, mailer: smtpMailer(refusingUrl, '"Atelier Prints" <orders@shop.example>'), baseUrl: 'https://shop.example' };
    const result = await drainOutbox(
      own.db,
      runHere(() => deps),
      { names: Object.keys(jobs), backoff: () => 0 },
    );
    expect(result.failed).toBeGreaterThan(0);
    // The failure is logged (with the address masked), so this check reads a real line.
    const line = captured.lines.find((l) => l.includes('Recipient address rejected'));
    expect(line).toBeDefined();
    expect(line).toContain('[e-mail]');
  });

  test('a failure on our side: the database unreachable (503), its address and password in the client', async () => {
    const down = createDb(`postgresql://shop:${encodeURIComponent('db-password-not-for-logs')}@127.0.0.1:9/none`);
    try {
      const answer = await handleRest(new Request(`http://shop.test/v1/orders/${placedCode}?email=${encodeURIComponent(EMAIL)}`), () => createContext({ db: down }));
      expect(answer.status).toBe(503);
    } finally {
      await down.$disconnect();
    }
    expect(captured.lines.some((line) => line.includes('"level":"error"') && line.includes('requestId'))).toBe(true);
  });

  test('a 500 from a bug whose error message carries an e-mail address (the scrub masks it)', async () => {
    const buggy = { order: { findUnique: () => Promise.reject(new Error('order of bug.victim@example.com could not be mapped')) } } as unknown as Db;
    const answer = await handleRest(new Request(`http://shop.test/v1/orders/${placedCode}?email=${encodeURIComponent(EMAIL)}`), () => createContext({ db: buggy }));
    expect(answer.status).toBe(500);
    expect(captured.lines.some((line) => line.includes('could not be mapped') && line.includes('requestId'))).toBe(true);
  });

  test('none of it appears in what was written', () => {
    const written = captured.lines.join('');
    expect(captured.lines.length).toBeGreaterThanOrEqual(4);
    const forbidden = [
      ADMIN_TOKEN,
      NEXTAUTH_SECRET,
      WEBHOOK_SECRET,
      STRIPE_TEST_KEY,
      EMAIL,
      EMAIL.toLowerCase(),
      REFUSED_EMAIL,
      'someone.else@example.com',
      'bug.victim@example.com',
    ];
    for (const value of forbidden) expect(written, value).not.toContain(value);
    expect(written).not.toMatch(/\b(sk|rk)_(live|test)_[A-Za-z0-9]+|whsec_[A-Za-z0-9_]+/);
    expect(written).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/);
    // Photo bytes in any spelling a logger could use.
    for (let at = 0; at + 48 <= photos.jpeg.length; at += 997) {
      const piece = photos.jpeg.subarray(at, at + 48);
      for (const spelled of [piece.toString('base64'), piece.toString('hex'), piece.toString('latin1')]) expect(written).not.toContain(spelled);
    }
    // Every line is one JSON object; those written while handling a request name it.
    for (const line of captured.lines) expect(() => JSON.parse(line)).not.toThrow();
  });

  test('the callers themselves never hand a token or secret to the logger (the scrubbing is a second net)', () => {
    const raw = captured.raw.join('');
    for (const value of [ADMIN_TOKEN, NEXTAUTH_SECRET, WEBHOOK_SECRET, STRIPE_TEST_KEY, 'db-password-not-for-logs', EMAIL, EMAIL.toLowerCase()])
      expect(raw, value).not.toContain(value);
  });
});
