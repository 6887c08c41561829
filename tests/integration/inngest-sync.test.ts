import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';

/**
 * /api/inngest with Inngest configured as in production (event and signing key, cloud mode): a sync
 * is answered only when Inngest signed it, and registers INNGEST_SERVE_ORIGIN, never an address
 * taken from the request. A stand-in Inngest API records whether the shop ever called it.
 */
const SIGNING_KEY = `signkey-test-${'ab12'.repeat(16)}`;
const registered: string[] = [];
const inngestApi = createServer((req, res) => {
  registered.push(`${req.method} ${req.url}`);
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, modified: true }));
});
await new Promise<void>((resolve) => inngestApi.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => inngestApi.close(() => resolve())));

Object.assign(process.env, {
  INNGEST_EVENT_KEY: 'test-event-key',
  INNGEST_SIGNING_KEY: SIGNING_KEY,
  INNGEST_BASE_URL: `http://127.0.0.1:${(inngestApi.address() as AddressInfo).port}`,
  INNGEST_SERVE_ORIGIN: 'https://prints.example',
});
const { PUT } = (await import('@/app/api/inngest/route')) as unknown as { PUT: (request: Request) => Promise<Response> };

/** Inngest's request signature: HMAC-SHA256 of the body and the time, keyed by the signing key without its prefix. */
function signature(body: string, at = Math.floor(Date.now() / 1000)): string {
  const key = SIGNING_KEY.replace(/^signkey-\w+-/, '');
  return `t=${at}&s=${createHmac('sha256', key)
    .update(body + String(at))
    .digest('hex')}`;
}

const sync = (headers: Record<string, string>, body?: string) =>
  PUT(new Request('http://attacker.example/api/inngest', { method: 'PUT', headers: { host: 'attacker.example', 'content-type': 'application/json', ...headers }, body }));

describe('syncing with Inngest', () => {
  test('an unsigned sync (the old out-of-band PUT) is 401 and the shop registers nothing', async () => {
    for (const headers of [{}, { 'x-inngest-sync-kind': 'out_of_band' }, { 'x-inngest-signature': signature('{}', 1) }] as Record<string, string>[]) {
      const answer = await sync(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(401);
    }
    const inBand = await sync({ 'x-inngest-sync-kind': 'in_band' }, JSON.stringify({ url: 'https://attacker.example/api/inngest' }));
    expect(inBand.status).toBe(401);
    expect(registered).toEqual([]);
  });

  test("a signed in-band sync answers the shop's functions at INNGEST_SERVE_ORIGIN, whatever address it names", async () => {
    const body = JSON.stringify({ url: 'https://attacker.example/api/inngest' });
    const answer = await sync({ 'x-inngest-sync-kind': 'in_band', 'x-inngest-signature': signature(body) }, body);
    expect(answer.status).toBe(200);
    const synced = (await answer.json()) as { url: string; app_id: string; functions: { steps: Record<string, { runtime: { url: string } }> }[] };
    expect(synced.app_id).toBe('atelier-prints');
    expect(new URL(synced.url).origin).toBe('https://prints.example');
    for (const fn of synced.functions) for (const step of Object.values(fn.steps)) expect(new URL(step.runtime.url).origin).toBe('https://prints.example');
    expect(registered).toEqual([]);
  });
});
