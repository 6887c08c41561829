import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { withRequestLog } from '@/server/http/request-log';
import { captureLogs, currentRequest, logger, runInRequest, scrubLine } from '@/server/logger';

let capture: ReturnType<typeof captureLogs> | undefined;
afterEach(() => capture?.stop());
const parsed = () => capture!.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log', () => {
  test('writes one JSON object per line with level, time and message; printf-style calls keep working', () => {
    capture = captureLogs();
    logger.info('order %s: %d items', 'AB12', 3);
    logger.error({ orderCode: 'AB12' }, 'checkout failed');
    const [first, second] = parsed();
    expect(first).toMatchObject({ level: 'info', msg: 'order AB12: 3 items' });
    expect(typeof first!.time).toBe('string');
    expect(second).toMatchObject({ level: 'error', orderCode: 'AB12', msg: 'checkout failed' });
  });

  test('every line logged while a request is handled carries its id, across awaits', async () => {
    capture = captureLogs();
    await runInRequest({ requestId: 'req-0001-abcdef', client: '203.0.113.5' }, async () => {
      logger.info('before');
      await new Promise((resolve) => setTimeout(resolve, 5));
      logger.warn('after');
      expect(currentRequest()?.client).toBe('203.0.113.5');
    });
    logger.info('outside');
    expect(parsed().map((line) => line.requestId)).toEqual(['req-0001-abcdef', 'req-0001-abcdef', undefined]);
  });

  test('fields named like credentials or personal data are redacted, at the top, one level down and in headers', () => {
    capture = captureLogs();
    logger.warn(
      {
        authorization: 'Bearer x',
        email: 'a@b.example',
        customer: { name: 'Ada' },
        headers: { cookie: 'sid=1', 'set-cookie': 'sid=2', accept: 'text/html' },
        order: { email: 'c@d.example', code: 'AB' },
      },
      'fields',
    );
    expect(parsed()[0]).toMatchObject({
      authorization: '[redacted]',
      email: '[redacted]',
      customer: '[redacted]',
      headers: { cookie: '[redacted]', 'set-cookie': '[redacted]', accept: 'text/html' },
      order: { email: '[redacted]', code: 'AB' },
    });
  });

  test('finished lines are scrubbed of e-mail addresses, Stripe secrets, bearer tokens and configured secrets', () => {
    const line = 'to ada+x@example.co.uk with sk_live_51Habc and whsec_abc_123, Authorization: Bearer t0ken, token hunter2-secret-value';
    expect(scrubLine(line, ['hunter2-secret-value'])).toBe('to [e-mail] with [stripe-secret] and [stripe-secret], Authorization: Bearer [redacted], token [secret]');
    expect(scrubLine(`notes: my key is pk_live_${'Ab3-_x'.repeat(7)}x, Authorization: Bearer pk_live_${'y'.repeat(43)}`)).toBe(
      'notes: my key is [partner-key], Authorization: Bearer [redacted]',
    );
    capture = captureLogs();
    // The test run's ADMIN_TOKEN (tests/support/setup.ts) is a configured secret.
    logger.error(new Error(`refused test-staff-token-5c1f0e for bob@example.com`), 'failure');
    expect(capture.lines[0]).not.toContain('test-staff-token-5c1f0e');
    expect(capture.lines[0]).not.toContain('bob@example.com');
    expect(capture.lines[0]).toContain('[secret]');
  });

  test('a route handler runs in its request context, answers X-Request-Id, and a thrown error becomes the contract 500 naming the id', async () => {
    capture = captureLogs();
    const ok = withRequestLog(async (_request: Request) => {
      logger.info('inside');
      return new Response('fine');
    });
    const answer = await ok(new Request('http://shop.test/api/x', { headers: { 'x-request-id': 'front-req-000001' } }));
    expect(answer.headers.get('x-request-id')).toBe('front-req-000001');
    expect(parsed()[0]).toMatchObject({ requestId: 'front-req-000001', msg: 'inside' });

    const redirect = withRequestLog(async (_request: Request) => Response.redirect('http://shop.test/elsewhere', 303));
    expect((await redirect(new Request('http://shop.test/api/x'))).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const broken = withRequestLog(async (_request: Request): Promise<Response> => {
      throw new Error('database exploded at 10.0.0.7');
    });
    const failed = await broken(new Request('http://shop.test/api/x', { headers: { 'x-request-id': 'front-req-000002' } }));
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again later (request front-req-000002).' } });
    expect(capture.lines.at(-1)).toContain('database exploded');
  });

  test('LOG_FILE also receives the lines; LOG_LEVEL drops the less severe ones', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'shop-log-'));
    try {
      const file = path.join(folder, 'nested', 'shop.log');
      const script =
        "import('./src/server/logger.ts').then(({ logger }) => { logger.info('kept info'); logger.debug('dropped debug'); logger.warn({ email: 'x@y.example' }, 'kept warn'); })";
      const stdout = execFileSync(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', '-e', script], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, VITEST: '', LOG_FILE: file, LOG_LEVEL: 'info' },
        encoding: 'utf8',
      });
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(lines.map((line) => line.msg)).toEqual(['kept info', 'kept warn']);
      expect(lines[1].email).toBe('[redacted]');
      expect(stdout.trim().split('\n')).toHaveLength(2);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
