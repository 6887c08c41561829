import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { indexNow } from '@/server/integrations/indexnow';
import { chatModel } from '@/server/integrations/llm';
import { createFunctions } from '@/server/jobs/functions';
import { runJob, type JobDeps } from '@/server/jobs/registry';
import { NOTIFY_EVENT, publishRun, type PublishSettings } from '@/server/pipeline/publish';
import { TITLES_PER_CALL, translateTitles } from '@/server/pipeline/translations';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { startIndexNowServer } from '../support/indexnow';
import { startLanguageModelServer } from '../support/llm';
import { rest } from '../support/rest';
import { STAFF } from '../support/staff';

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let llm: Awaited<ReturnType<typeof startLanguageModelServer>>;
let receiver: Awaited<ReturnType<typeof startIndexNowServer>>;
let serial = 0;

const settings = (overrides: Partial<PublishSettings> = {}): PublishSettings => ({ perDay: 300, baseUrl: 'https://shop.example', trigger: 'schedule', ...overrides });

/**
 * A queued artist (or an existing one) with `n` ready works (a story in English, a title in each
 * language: the given ones as Wikidata labels, the others as translations), most popular first.
 * `untitled`: only the given titles, the others waiting for the title pass.
 */
async function readyWorks(
  artist: { slug: string; name?: string } | number,
  n: number,
  options: { popularity?: number; titles?: (i: number) => Partial<Record<string, string>>; museum?: number; movement?: number; untitled?: boolean } = {},
) {
  const artistId =
    typeof artist === 'number'
      ? artist
      : (
          await db.artist.create({
            data: {
              slug: artist.slug,
              name: artist.name ?? artist.slug,
              wikidataId: `Q9${++serial}000`,
              texts: { create: { locale: 'en', name: artist.name ?? artist.slug, source: 'wikidata' } },
            },
          })
        ).id;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = ++serial;
    const titles = options.titles?.(i) ?? { en: `Work ${id}` };
    const row = await db.artwork.create({
      data: {
        slug: `work-${id}`,
        artistId,
        popularity: (options.popularity ?? 100) - i,
        wikidataId: `Q8${id}`,
        texts: {
          create: catalogLocales.map((locale) => ({
            locale,
            title: titles[locale] ?? (options.untitled ? null : `${titles.en ?? `Work ${id}`} [${locale}]`),
            titleSource: titles[locale] ? ('wikidata' as const) : ('translation' as const),
            story: locale === 'en' ? 'A story.' : null,
            storySource: locale === 'en' ? ('template' as const) : null,
          })),
        },
        taxa: { create: [options.museum, options.movement].filter((t): t is number => Boolean(t)).map((taxonId) => ({ taxonId })) },
      },
    });
    ids.push(row.id);
  }
  return { artistId, ids };
}

beforeAll(async () => {
  own = await ownDatabase('publish');
  db = own.db;
  llm = await startLanguageModelServer();
  receiver = await startIndexNowServer();
});
afterAll(async () => {
  await llm.close();
  await receiver.close();
  await own.drop();
});
beforeEach(async () => {
  // Each test starts with an empty queue and a fresh day: earlier runs' works no longer count today.
  await db.$executeRaw`DELETE FROM artworks WHERE status = 'queued'`;
  await db.$executeRaw`UPDATE artworks SET published_at = published_at - interval '10 days' WHERE NOT curated`;
  await db.outboxEvent.updateMany({ where: { sentAt: null }, data: { sentAt: new Date() } });
  llm.requests.length = 0;
  llm.control.failWith = 0;
  llm.control.delayMs = 0;
  llm.control.gate = undefined;
  receiver.submissions.length = 0;
  receiver.control.failWith = 0;
});

describe('the daily cap', () => {
  test('a run publishes at most what is left of PUBLISH_PER_DAY, counting every path of the UTC day', async () => {
    await readyWorks({ slug: `capped-${serial}` }, 30);
    const staff = await publishRun(db, settings({ perDay: 25, trigger: 'staff', count: 12 }));
    expect(staff.published).toBe(12);
    const scheduled = await publishRun(db, settings({ perDay: 25 }));
    expect(scheduled.published).toBe(13);
    expect(scheduled.capLeft).toBe(0);
    const more = await publishRun(db, settings({ perDay: 25, trigger: 'cli' }));
    expect(more.published).toBe(0);
    // the curated seed (published today when the database was made) does not count
    expect(await db.artwork.count({ where: { status: 'published', publishedAt: { gte: new Date(new Date().toISOString().slice(0, 10)) } } })).toBeGreaterThan(25);
  });

  test('the next UTC day has a fresh cap', async () => {
    await readyWorks({ slug: `day-${serial}` }, 20);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const today = await publishRun(db, settings({ perDay: 10 }));
    const next = await publishRun(db, settings({ perDay: 10, now: () => tomorrow }));
    expect([today.published, next.published]).toEqual([10, 10]);
  });

  test('two runs at once never exceed it: they take turns under the lock', async () => {
    await readyWorks({ slug: `parallel-${serial}` }, 40);
    const runs = await Promise.all([publishRun(db, settings({ perDay: 15, count: 10 })), publishRun(db, settings({ perDay: 15, count: 10, trigger: 'staff' }))]);
    expect(runs.map((r) => r.published).sort()).toEqual([10, 5]);
    const all = runs.flatMap((r) => r.artworks);
    expect(new Set(all).size).toBe(15);
    const three = await Promise.all([1, 2, 3].map(() => publishRun(db, settings({ perDay: 15 }))));
    expect(three.reduce((n, r) => n + r.published, 0)).toBe(0);
  });
});

describe('who is published first', () => {
  test('a new artist enters only with a block of 10 of their works in one run, never fewer', async () => {
    const nine = await readyWorks({ slug: `nine-${serial}` }, 9, { popularity: 1000 });
    const twelveSlug = `twelve-${serial}`;
    const twelve = await readyWorks({ slug: twelveSlug }, 12, { popularity: 500 });
    const tight = await publishRun(db, settings({ perDay: 9 }));
    expect(tight.published).toBe(0); // room for 9: nobody can be introduced
    const run = await publishRun(db, settings({ perDay: 100 }));
    expect(run.published).toBe(12);
    expect(await db.artwork.count({ where: { artistId: nine.artistId, status: 'published' } })).toBe(0);
    expect(await db.artwork.count({ where: { artistId: twelve.artistId, status: 'published' } })).toBe(12);
    expect(run.artistsIntroduced).toEqual([twelveSlug]);
    expect(await db.artist.findUniqueOrThrow({ where: { id: twelve.artistId } })).toMatchObject({ status: 'published', artworkCount: 12 });
    expect((await db.artist.findUniqueOrThrow({ where: { id: nine.artistId } })).status).toBe('queued');
  });

  test('public artists with fewer than 10 works are served before more popular works', async () => {
    const popular = await readyWorks({ slug: `popular-${serial}` }, 20, { popularity: 10_000 });
    const first = await publishRun(db, settings({ perDay: 10 })); // introduces the popular artist with 10
    expect(first.published).toBe(10);
    const vermeer = await db.artist.findUniqueOrThrow({ where: { slug: 'johannes-vermeer' } });
    const publicCount = await db.artwork.count({ where: { artistId: vermeer.id, status: 'published' } });
    expect(publicCount).toBeLessThanOrEqual(5);
    const small = await readyWorks(vermeer.id, 12, { popularity: 1 });
    const tomorrow = new Date(Date.now() + 86_400_000);
    const run = await publishRun(db, settings({ perDay: 5, now: () => tomorrow }));
    expect(run.published).toBe(5);
    expect(await db.artwork.count({ where: { id: { in: small.ids }, status: 'published' } })).toBe(5);
    expect(await db.artwork.count({ where: { id: { in: popular.ids }, status: 'published' } })).toBe(10);
    // topped up to 10, then popularity decides again
    const next = await publishRun(db, settings({ perDay: 20, now: () => new Date(Date.now() + 2 * 86_400_000) }));
    expect(await db.artwork.count({ where: { artistId: vermeer.id, status: 'published' } })).toBeGreaterThanOrEqual(10);
    expect(next.published).toBe(17); // all that is left: 7 of Vermeer, 10 of the popular artist
  });
});

describe('titles', () => {
  test('missing languages come from the model in the title pass, 10 titles a call; a Wikidata label always wins', async () => {
    const { ids } = await readyWorks({ slug: `titles-${serial}`, name: 'Jan Example' }, 25, {
      untitled: true,
      titles: (i) => (i === 0 ? { en: 'The Mill', fr: 'Le Moulin' } : { en: `Harbour ${i}` }),
    });
    const model = chatModel({ baseUrl: llm.url, model: 'title-model' });
    const pass = await translateTitles(db, model);
    expect(pass).toMatchObject({ calls: 3, translated: 24 * 5 + 4, completed: 25, ready: 25, remaining: 0, errors: [] });
    expect(llm.requests).toHaveLength(3);
    for (const request of llm.requests) expect(JSON.parse(request.user).length).toBeLessThanOrEqual(TITLES_PER_CALL);
    expect(llm.requests.map((r) => JSON.parse(r.user).length).sort()).toEqual([10, 10, 5]);
    const mill = await db.artworkText.findMany({ where: { artworkId: ids[0] } });
    expect(mill.find((t) => t.locale === 'fr')).toMatchObject({ title: 'Le Moulin', titleSource: 'wikidata' });
    expect(mill.find((t) => t.locale === 'de')).toMatchObject({ title: 'The Mill [de]', titleSource: 'translation' });
    const asked = llm.requests.flatMap((r) => JSON.parse(r.user) as { id: number; from: string; languages: string[] }[]).find((item) => item.id === ids[0])!;
    expect(asked).toMatchObject({ from: 'en', languages: ['es', 'de', 'it', 'ja'] });
    // publishing itself asks the model nothing
    const run = await publishRun(db, settings());
    expect(run).toMatchObject({ published: 25, publishedWithoutTitles: 0 });
    expect(llm.requests).toHaveLength(3);
  });

  test('a work still waiting for a title is not published: a failed pass leaves the works queued, the next completes them', async () => {
    await readyWorks({ slug: `nolang-${serial}` }, 10, { untitled: true });
    llm.control.failWith = 400;
    const failed = await translateTitles(db, chatModel({ baseUrl: llm.url }));
    expect(failed).toMatchObject({ translated: 0, completed: 0, remaining: 10 });
    expect(failed.errors[0]).toMatch(/title translation/);
    expect((await publishRun(db, settings())).published).toBe(0);
    llm.control.failWith = 0;
    expect(await translateTitles(db, chatModel({ baseUrl: llm.url }))).toMatchObject({ completed: 10, ready: 10, remaining: 0 });
    expect((await publishRun(db, settings())).published).toBe(10);
  });

  test('a slow model cannot stall the pass: its calls stop at their budget and the works wait, never published half-titled', async () => {
    const { ids } = await readyWorks({ slug: `slow-${serial}` }, 10, { untitled: true });
    llm.control.delayMs = 5_000;
    const started = Date.now();
    const pass = await translateTitles(db, chatModel({ baseUrl: llm.url }), { budgetMs: 400 });
    expect(Date.now() - started).toBeLessThan(4_000); // the model would take 5 s
    expect(pass.errors).toEqual([expect.stringMatching(/title translation: 1 of 1 calls not done within 0 s; their works wait for the next pass/)]);
    const run = await publishRun(db, settings());
    expect(run.published).toBe(0);
    const de = await db.artworkText.findMany({ where: { artworkId: { in: ids }, locale: 'de' } });
    expect(de.every((t) => t.title === null)).toBe(true);
  });

  test('while a title pass waits for the model, a publish run goes on: it holds no lock and publishes what is ready', async () => {
    await readyWorks({ slug: `waiting-${serial}` }, 10, { untitled: true, titles: () => ({ en: 'Needs titles' }) });
    await readyWorks({ slug: `ready-${serial}` }, 10);
    let answerNow!: () => void;
    llm.control.gate = new Promise((resolve) => (answerNow = resolve));
    const asked = llm.received();
    const pass = translateTitles(db, chatModel({ baseUrl: llm.url }), { budgetMs: 10_000 });
    while (llm.received() === asked) await new Promise((resolve) => setTimeout(resolve, 10));
    const quick = await publishRun(db, settings({ trigger: 'staff' }));
    expect(quick.published).toBe(10); // the ready block; the other artist waits for its titles
    expect(quick.transactionMs).toBeLessThan(5_000);
    answerNow();
    expect(await pass).toMatchObject({ completed: 10 });
    expect((await publishRun(db, settings())).published).toBe(10);
  });

  test('works without a story are never published', async () => {
    const { artistId } = await readyWorks({ slug: `storyless-${serial}` }, 10);
    const bare = await db.artwork.create({
      data: { slug: `bare-${serial}`, artistId, popularity: 10_000, texts: { create: { locale: 'en', title: 'Bare', titleSource: 'wikidata' } } },
    });
    const run = await publishRun(db, settings());
    expect(run.published).toBe(10);
    expect((await db.artwork.findUniqueOrThrow({ where: { id: bare.id } })).status).toBe('queued');
  });

  test('disambiguation suffixes naming the creator or a museum are stripped, other parentheses kept', async () => {
    const gallery = await db.taxon.findFirstOrThrow({ where: { kind: 'museum', slug: 'national-gallery' } });
    const { ids } = await readyWorks({ slug: `gogh-like-${serial}`, name: 'Vincent van Gogh' }, 10, {
      museum: gallery.id,
      titles: (i) =>
        i === 0
          ? { en: 'Sunflowers (Van Gogh, National Gallery)', de: 'Sonnenblumen (Van Gogh)' }
          : i === 1
            ? { en: 'Self-Portrait (with Bandaged Ear)' }
            : { en: `Field ${i}` },
    });
    await publishRun(db, settings());
    const texts = await db.artworkText.findMany({ where: { artworkId: { in: ids.slice(0, 2) }, locale: { in: ['en', 'de'] } } });
    expect(texts.find((t) => t.artworkId === ids[0] && t.locale === 'en')!.title).toBe('Sunflowers');
    expect(texts.find((t) => t.artworkId === ids[0] && t.locale === 'de')!.title).toBe('Sonnenblumen');
    expect(texts.find((t) => t.artworkId === ids[1] && t.locale === 'en')!.title).toBe('Self-Portrait (with Bandaged Ear)');
  });
});

describe('publishing, counts and the search engines', () => {
  test('works, artist and browse pages become public; new addresses in six languages go to IndexNow after commit', async () => {
    const movement = await db.taxon.create({ data: { kind: 'movement', slug: `luminism-${serial}`, texts: { create: { locale: 'en', name: 'Luminism' } } } });
    const { artistId } = await readyWorks({ slug: `luminist-${serial}` }, 10, { movement: movement.id });
    const artist = await db.artist.findUniqueOrThrow({ where: { id: artistId } });
    const run = await publishRun(db, settings());
    expect(run.published).toBe(10);
    expect((await db.taxon.findUniqueOrThrow({ where: { id: movement.id } })).artworkCount).toBe(10);
    expect(run.browsePagesAdded).toEqual([`movements/${movement.slug}`]);
    expect(run.urls).toBe((10 + 1 + 1) * 6);
    expect((await rest('GET', `/artists/${artist.slug}`, { db })).status).toBe(200);
    expect((await rest('GET', `/taxa/movements/${movement.slug}`, { db })).status).toBe(200);

    const events = await db.outboxEvent.findMany({ where: { name: NOTIFY_EVENT, sentAt: null } });
    expect(events).toHaveLength(1);
    const deps: JobDeps = {
      db,
      mailer: null,
      baseUrl: 'https://shop.example',
      notifier: indexNow({ endpoints: [receiver.url], key: 'test-indexnow-key', baseUrl: 'https://shop.example' }),
    };
    await runJob(NOTIFY_EVENT, events[0]!.payload, deps);
    expect(receiver.submissions).toHaveLength(1);
    const sent = receiver.submissions[0]!;
    expect(sent).toMatchObject({ host: 'shop.example', key: 'test-indexnow-key', keyLocation: 'https://shop.example/test-indexnow-key.txt' });
    expect(sent.urlList).toHaveLength(72);
    for (const locale of catalogLocales) {
      expect(sent.urlList).toContain(`https://shop.example/${locale}/artists/${artist.slug}`);
      expect(sent.urlList).toContain(`https://shop.example/${locale}/movements/${movement.slug}`);
      expect(sent.urlList).toContain(`https://shop.example/${locale}/artworks/${run.artworks[0]}`);
    }
    const log = await db.publishLog.findUniqueOrThrow({ where: { id: run.publishLogId! } });
    expect(log).toMatchObject({ trigger: 'schedule', published: 10, urlsNotified: 72, errors: [], artistsIntroduced: [artist.slug] });
  });

  test('a run and its recount are one transaction: a failure at its end leaves nothing published or counted', async () => {
    const { artistId, ids } = await readyWorks({ slug: `atomic-${serial}` }, 10);
    // an impossible trigger makes the publish-log insert, the last write of the run, fail
    await expect(publishRun(db, settings({ trigger: 'nonsense' as never }))).rejects.toThrow();
    expect(await db.artwork.count({ where: { id: { in: ids }, status: 'published' } })).toBe(0);
    expect(await db.artist.findUniqueOrThrow({ where: { id: artistId } })).toMatchObject({ status: 'queued', artworkCount: 0 });
    expect(await db.outboxEvent.count({ where: { name: NOTIFY_EVENT, sentAt: null } })).toBe(0);
  });

  test('a failing search engine is logged on the run and tried again through the outbox, five times at most; the works stay public', async () => {
    await readyWorks({ slug: `unnoticed-${serial}` }, 10);
    const run = await publishRun(db, settings());
    receiver.control.failWith = 500;
    const notifier = indexNow({ endpoints: [receiver.url], key: 'test-indexnow-key', baseUrl: 'https://shop.example', retry: { attempts: 2, sleep: async () => undefined } });
    const [event] = await db.outboxEvent.findMany({ where: { name: NOTIFY_EVENT, sentAt: null } });
    const deps = { db, mailer: null, baseUrl: 'https://shop.example', notifier };
    // Recorded, then thrown: the outbox (or Inngest) tries again with its back-off.
    for (let attempt = 1; attempt < 5; attempt++) await expect(runJob(NOTIFY_EVENT, event!.payload, deps)).rejects.toThrow(`attempt ${attempt} of 5`);
    // The fifth failure is the last: left to the sitemaps.
    const answer = (await runJob(NOTIFY_EVENT, event!.payload, deps)) as { errors: string[] };
    expect(answer.errors).toHaveLength(1);
    const log = await db.publishLog.findUniqueOrThrow({ where: { id: run.publishLogId! } });
    expect(log.urlsNotified).toBe(0);
    expect(log.errors).toHaveLength(5);
    expect(log.errors[0]).toMatch(/^indexnow: .*500/);
    expect(await db.artwork.count({ where: { slug: { in: run.artworks }, status: 'published' } })).toBe(10);
    receiver.control.failWith = 0;
  });

  test('IndexNow requests carry at most 10,000 addresses', async () => {
    const urls = Array.from({ length: 10_001 }, (_, i) => `https://shop.example/en/artworks/w-${i}`);
    const result = await indexNow({ endpoints: [receiver.url], key: 'test-indexnow-key', baseUrl: 'https://shop.example' }).submit(urls);
    expect(result).toEqual({ requests: 2, errors: [] });
    expect(receiver.submissions.map((s) => s.urlList.length)).toEqual([10_000, 1]);
  });
});

describe('staff SEO endpoints', () => {
  test('publish, stats and refresh-counts answer with their full shapes', async () => {
    await readyWorks({ slug: `staffed-${serial}` }, 10);
    const published = await rest('POST', '/admin/seo/publish', { db, json: { count: 10 }, headers: STAFF });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body).toMatchObject({ published: 10, publishLogId: expect.any(Number), artistsIntroduced: [expect.stringMatching(/^staffed-/)] });
    expect((await rest('POST', '/admin/seo/publish', { db, json: { count: 0 }, headers: STAFF })).status).toBe(400);
    expect((await rest('POST', '/admin/seo/publish', { db, json: { count: '5' }, headers: STAFF })).status).toBe(400);
    expect((await rest('POST', '/admin/seo/publish', { db, json: { count: 5 } })).status).toBe(401);

    const stats = await rest('GET', '/admin/seo/stats', { db, headers: STAFF });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      queued: 0,
      ready: 0,
      publishedToday: 10,
      perDay: 300,
      capLeft: 290,
      browsePages: { museums: expect.any(Number), movements: expect.any(Number), subjects: expect.any(Number), genres: expect.any(Number) },
    });
    expect(stats.body.runs[0]).toMatchObject({ trigger: 'staff', requested: 10, published: 10 });
    expect(stats.body.runs.length).toBeLessThanOrEqual(30);

    await db.$executeRaw`UPDATE artists SET artwork_count = 0`;
    const recount = await rest('POST', '/admin/seo/refresh-counts', { db, headers: STAFF });
    expect(recount.status).toBe(200);
    expect(recount.body.changed.artists).toBeGreaterThan(0);
    expect(recount.body.publishedArtists).toBeGreaterThan(14);
  });

  test('are in the OpenAPI document, behind the staff token', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/admin/seo/stats', 'get'],
      ['/admin/seo/publish', 'post'],
      ['/admin/seo/refresh-counts', 'post'],
    ] as const) {
      const operation = doc.paths[path][method];
      expect(operation.security).toEqual([{ staffToken: [] }]);
    }
  });
});

describe('the Inngest functions (run with @inngest/test)', () => {
  const fnById = (deps: JobDeps, id: string) => {
    const fn = createFunctions(new Inngest({ id: 'publish-test' }), () => deps).find((f) => (f as unknown as { opts: { id: string } }).opts.id === id)!;
    return { fn, opts: (fn as unknown as { opts: Record<string, unknown> }).opts };
  };
  const deps = (): JobDeps => ({
    db,
    mailer: null,
    baseUrl: 'https://shop.example',
    perDay: 300,
    notifier: indexNow({ endpoints: [receiver.url], key: 'test-indexnow-key', baseUrl: 'https://shop.example' }),
  });

  test('catalog.publish: cron tick or requested count, one at a time, then a recount', async () => {
    await readyWorks({ slug: `inngest-${serial}` }, 12);
    const { fn, opts } = fnById(deps(), 'catalog.publish');
    expect(opts).toMatchObject({ concurrency: { limit: 1 }, idempotency: 'event.id', triggers: [{ cron: '*/10 * * * *' }, { event: 'catalog/publish.requested' }] });
    let recountAsked: unknown;
    const { result, error } = await new InngestTestEngine({
      function: fn,
      events: [{ name: 'catalog/publish.requested', data: { count: 11 } }],
      steps: [{ id: 'ask for a recount', handler: () => (recountAsked = true) }],
    }).execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ published: 11 });
    expect(recountAsked).toBe(true);
    const log = await db.publishLog.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(log.trigger).toBe('staff');
  });

  test('catalog.refresh-counts runs hourly and on request', async () => {
    const { fn, opts } = fnById(deps(), 'catalog.refresh-counts');
    expect(opts.triggers).toEqual([{ cron: '0 * * * *' }, { event: 'catalog/counts.refresh-requested' }]);
    const { result, error } = await new InngestTestEngine({ function: fn, events: [{ name: 'catalog/counts.refresh-requested', data: {} }] }).execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ browsePages: expect.any(Object) });
  });

  test('seo.notify submits the addresses of its event, once per event id', async () => {
    const { fn, opts } = fnById(deps(), 'seo.notify');
    expect(opts).toMatchObject({ idempotency: 'event.id', triggers: [{ event: NOTIFY_EVENT }] });
    const { result, error } = await new InngestTestEngine({
      function: fn,
      events: [{ name: NOTIFY_EVENT, data: { publishLogId: null, urls: ['https://shop.example/en/artworks/x'] } }],
    }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ submitted: 1, errors: [] });
    expect(receiver.submissions[0]!.urlList).toEqual(['https://shop.example/en/artworks/x']);
  });
});
