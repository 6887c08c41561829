import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { indexNow } from '@/server/integrations/indexnow';
import { chatModel } from '@/server/integrations/llm';
import { SMTP_TIMEOUTS, smtpMailer } from '@/server/integrations/mailer';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { jobs, runJob, type JobDeps } from '@/server/jobs/registry';
import { runHere } from '@/server/jobs/runner';
import { startOutboxLoop } from '@/server/jobs/worker';
import { ingestCatalog } from '@/server/pipeline/ingest';
import { NOTIFY_EVENT, publishRun } from '@/server/pipeline/publish';
import { writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { startIndexNowServer } from '../support/indexnow';
import { startLanguageModelServer } from '../support/llm';
import { customer, reproduction } from '../support/orders';
import { rest } from '../support/rest';
import { startSmtpServer } from '../support/smtp';
import { startWikidataServer } from '../support/wikidata';
import { startFaultyProxy } from './support/proxy';

/**
 * The outside services down (connections dropped) or silent (connections held, never answered),
 * each behind a faulty proxy in front of its local stand-in: the shop keeps taking orders, a job
 * that cannot reach its service fails within a bounded time and is retried later, and nothing is
 * left half-written. tests/integration already covers services that answer with errors (SMTP 451,
 * SPARQL 429/5xx, a model or IndexNow answering 500); these are the faults below HTTP and SMTP.
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let llm: Awaited<ReturnType<typeof startLanguageModelServer>>;
let sparql: Awaited<ReturnType<typeof startWikidataServer>>;
let indexnow: Awaited<ReturnType<typeof startIndexNowServer>>;
const proxies: Record<'smtp' | 'llm' | 'sparql' | 'indexnow', Awaited<ReturnType<typeof startFaultyProxy>>> = {} as never;
/** Each failing attempt gives up after half a second, twice at most: a fault costs about a second. */
const quickRetry = { attempts: 2, baseDelayMs: 10, timeoutMs: 500 };
const until = async (what: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

beforeAll(async () => {
  own = await ownDatabase('faults');
  db = own.db;
  [smtp, llm, sparql, indexnow] = await Promise.all([startSmtpServer(), startLanguageModelServer(), startWikidataServer(), startIndexNowServer()]);
  proxies.smtp = await startFaultyProxy(smtp.url);
  proxies.llm = await startFaultyProxy(llm.url);
  proxies.sparql = await startFaultyProxy(sparql.url);
  proxies.indexnow = await startFaultyProxy(indexnow.url);
});
afterAll(async () => {
  await Promise.all(Object.values(proxies).map((p) => p.close()));
  await Promise.all([smtp.close(), llm.close(), sparql.close(), indexnow.close()]);
  await own.drop();
});

const source = () => wikidataSource(sparqlClient({ url: proxies.sparql.url, retry: quickRetry }));
const queuedByArtist = async () =>
  (await db.artwork.groupBy({ by: ['artistId'], where: { status: 'queued' }, _count: { _all: true } })).map((g) => g._count._all).sort((a, b) => a - b);

describe('the SPARQL endpoint', () => {
  test('going down in the middle of an ingest: each painter is all in or not at all, and the next run completes the queue', async () => {
    let painters = 0;
    const run = ingestCatalog(db, source(), {
      progress: (line) => {
        // Right after the first painter's transaction committed, Wikidata goes away.
        if (/^painter \d+\/\d+ /.test(line) && ++painters === 1) proxies.sparql.set('down');
      },
    });
    await expect(run).rejects.toThrow();
    const partial = await queuedByArtist();
    expect(partial).toHaveLength(1);
    expect([5, 6, 10, 11, 12]).toContain(partial[0]);

    proxies.sparql.set('up');
    const again = await ingestCatalog(db, source());
    expect(again.painters).toHaveLength(5);
    expect(await queuedByArtist()).toEqual([5, 5, 6, 10, 11, 12]); // exactly what one clean run queues
  });

  test('hanging: the ingest gives up within its timeouts and changes nothing', async () => {
    proxies.sparql.set('silent');
    const before = await db.artwork.count();
    const started = Date.now();
    await expect(ingestCatalog(db, source(), { force: true })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await db.artwork.count()).toBe(before);
    proxies.sparql.set('up');
  });
});

describe('the language model', () => {
  const storyRows = () => db.artworkText.count({ where: { story: { not: null }, artwork: { status: 'queued' } } });

  test('down or hanging: stories fail per work, are counted, and no work gets some languages only', async () => {
    expect(await storyRows()).toBe(0);
    const down = chatModel({ baseUrl: proxies.llm.url, retry: quickRetry });
    proxies.llm.set('down');
    expect(await writeStories(db, down, { limit: 8 })).toMatchObject({ written: 0, failed: 8, remaining: 49 });
    proxies.llm.set('silent');
    const started = Date.now();
    expect(await writeStories(db, down, { limit: 4 })).toMatchObject({ written: 0, failed: 4, remaining: 49 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await storyRows()).toBe(0);
  });

  test('back: the next run writes every story, six languages each', async () => {
    proxies.llm.set('up');
    const model = chatModel({ baseUrl: proxies.llm.url, retry: quickRetry });
    expect(await writeStories(db, model)).toMatchObject({ written: 49, failed: 0, remaining: 0 });
    expect(await storyRows()).toBe(49 * catalogLocales.length);
  });
});

describe('IndexNow', () => {
  test('hanging: the notification gives up within its timeouts, the run records it, the published works stay', async () => {
    await translateTitles(db, null); // the six titles a work needs to be published (stand-ins: no model)
    const run = await publishRun(db, { perDay: 300, baseUrl: 'https://shop.example', trigger: 'schedule', count: 20 });
    expect(run.published).toBeGreaterThan(0);
    const [event] = await db.outboxEvent.findMany({ where: { name: NOTIFY_EVENT, sentAt: null } });
    proxies.indexnow.set('silent');
    const notifier = indexNow({ endpoints: [proxies.indexnow.url], key: 'fault-indexnow-key', baseUrl: 'https://shop.example', retry: quickRetry });
    const started = Date.now();
    // Given up within its timeouts, recorded, and thrown for the outbox to try again later.
    await expect(runJob(NOTIFY_EVENT, event!.payload, { db, mailer: null, baseUrl: 'https://shop.example', notifier })).rejects.toThrow(/IndexNow failed \(attempt 1 of 5\)/);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((await db.publishLog.findUniqueOrThrow({ where: { id: run.publishLogId! } })).errors[0]).toMatch(/^indexnow: /);
    expect(await db.artwork.count({ where: { slug: { in: run.artworks }, status: 'published' } })).toBe(run.published);
    proxies.indexnow.set('up');
  });
});

describe('the SMTP relay', () => {
  const names = Object.keys(jobs).filter((name) => name.startsWith('shop/order.'));
  const mailOf = (code: string) => db.outboxEvent.findFirstOrThrow({ where: { name: 'shop/order.received', payload: { path: ['code'], equals: code } } });

  test('a send ends (or fails) well inside the outbox lease, so a hanging relay never lets a second worker send the same e-mail', () => {
    const longest = SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout;
    expect(longest).toBeLessThan(300_000 / 2);
  });

  test('down, then hanging: orders are still taken at full speed, the e-mails wait in the outbox, and each goes out once when it is back', async () => {
    const deps: JobDeps = {
      db,
      mailer: smtpMailer(proxies.smtp.url, 'orders@shop.example', { connectionTimeout: 500, greetingTimeout: 500, socketTimeout: 1_000 }),
      baseUrl: 'https://shop.example',
    };
    // The in-process worker as the server runs it, retrying failed sends quickly.
    const loop = startOutboxLoop(
      db,
      runHere(() => deps),
      { names, intervalMs: 100, backoff: () => 300 },
    );
    try {
      const codes: string[] = [];
      for (const mode of ['down', 'silent'] as const) {
        proxies.smtp.set(mode);
        for (let i = 0; i < 5; i++) {
          const started = Date.now();
          const answer = await rest('POST', '/orders', { json: reproduction({ customer: { ...customer, email: 'faults@example.com' } }), db });
          expect(answer.status).toBe(201);
          expect(Date.now() - started).toBeLessThan(2_000);
          codes.push(answer.body.code);
        }
        await until(async () => (await Promise.all(codes.slice(-5).map(mailOf))).every((row) => row.attempts >= 1 && row.lastError));
        for (const code of codes) expect((await mailOf(code)).sentAt).toBeNull();
      }
      expect(smtp.inbox).toHaveLength(0);

      proxies.smtp.set('up');
      await until(async () => (await Promise.all(codes.map(mailOf))).every((row) => row.sentAt));
      const subjects = smtp.inbox.map((mail) => mail.subject).sort();
      expect(subjects).toEqual(codes.map((code) => `We have your order ${code}`).sort());
    } finally {
      await loop.stop();
    }
  });
});
