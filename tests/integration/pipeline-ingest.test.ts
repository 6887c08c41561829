import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { USER_AGENT } from '@/server/integrations/http';
import { chatModel } from '@/server/integrations/llm';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { createFunctions } from '@/server/jobs/functions';
import type { JobDeps } from '@/server/jobs/registry';
import { ingestCatalog, QUEUE_TARGET, STORIES_EVENT } from '@/server/pipeline/ingest';
import { publishRun } from '@/server/pipeline/publish';
import { STORY_SYSTEM_PROMPT, writeStories } from '@/server/pipeline/stories';
import { ownDatabase } from '../support/database';
import { startLanguageModelServer } from '../support/llm';
import { rest } from '../support/rest';
import { startWikidataServer } from '../support/wikidata';

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let sparql: Awaited<ReturnType<typeof startWikidataServer>>;
let llm: Awaited<ReturnType<typeof startLanguageModelServer>>;
const delays: number[] = [];
const source = () => wikidataSource(sparqlClient({ url: sparql.url, retry: { sleep: async (ms) => void delays.push(ms) } }));
const work = (qid: string) => db.artwork.findUniqueOrThrow({ where: { wikidataId: qid }, include: { texts: true, taxa: { include: { taxon: true } } } });

beforeAll(async () => {
  own = await ownDatabase('ingest');
  db = own.db;
  sparql = await startWikidataServer();
  llm = await startLanguageModelServer();
});
afterAll(async () => {
  await sparql.close();
  await llm.close();
  await own.drop();
});

describe('ingest from Wikidata (a local SPARQL server with recorded results)', () => {
  let first: Awaited<ReturnType<typeof ingestCatalog>>[];

  test('two runs at once queue each painting once, skip the painter who died in 1926 and the curated duplicate', async () => {
    const before = await db.artwork.count();
    first = await Promise.all([ingestCatalog(db, source()), ingestCatalog(db, source())]);
    const added = first[0]!.artworksAdded + first[1]!.artworksAdded;
    expect(added).toBe(39); // van Gogh 10, Rubens 12, Goya 11, Raphael 6
    expect(await db.artwork.count()).toBe(before + 39);
    expect(await db.artwork.count({ where: { wikidataId: 'Q45585' } })).toBe(1);
    const starry = await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q45585' } });
    expect(starry).toMatchObject({ slug: 'the-starry-night', curated: true, status: 'published' });
    // Monet (died 1926-12-05) is neither an artist nor asked for his paintings
    expect(await db.artist.findUnique({ where: { wikidataId: 'Q296' } })).toBeNull();
    expect(sparql.requests.some((r) => r.query.includes('(paintings)') && r.query.includes('wd:Q296 '))).toBe(false);
    // every duplicated key would have failed a unique index; also check per painter
    const byArtist = await db.artwork.groupBy({ by: ['artistId'], where: { status: 'queued' }, _count: { _all: true } });
    expect(byArtist.map((g) => g._count._all).sort((a, b) => a - b)).toEqual([6, 10, 11, 12]);
  });

  test('a second run finds nothing new to add', async () => {
    const before = await db.artwork.count();
    const again = await ingestCatalog(db, source());
    expect(again.artworksAdded).toBe(0);
    expect(await db.artwork.count()).toBe(before);
    expect(await db.artist.count({ where: { wikidataId: { in: ['Q5582', 'Q5599', 'Q5432', 'Q5597'] } } })).toBe(4);
  });

  test('queries carry a descriptive User-Agent, are paged and realistic', () => {
    expect(sparql.requests.every((r) => r.userAgent === USER_AGENT && r.method === 'POST')).toBe(true);
    const paintings = sparql.requests.find((r) => r.query.includes('(paintings)'))!.query;
    for (const part of ['wdt:P31 wd:Q3305213', 'wdt:P170', 'wdt:P18', 'wdt:P571', 'p:P2048/psv:P2048', 'p:P2049/psv:P2049', 'wikibase:quantityUnit', 'wdt:P195', 'wdt:P135', 'wdt:P136', 'wdt:P180', 'wikibase:sitelinks', 'LIMIT', 'OFFSET']) {
      expect(paintings).toContain(part);
    }
    const painters = sparql.requests.find((r) => r.query.includes('(painters)'))!.query;
    for (const part of ['wdt:P106 wd:Q1028181', 'wdt:P570', 'wdt:P31 wd:Q5', 'YEAR(?death) < 1926', '>= 5', 'ORDER BY DESC(?paintings)', 'LIMIT']) expect(painters).toContain(part);
  });

  test('sizes arrive in centimetres whatever the unit', async () => {
    expect(await work('Q3938316')).toMatchObject({ heightCm: expect.anything() });
    const cm = (w: { heightCm: unknown; widthCm: unknown }) => [Number(w.heightCm), Number(w.widthCm)];
    expect(cm(await work('Q3938318'))).toEqual([72.4, 92.1]); // centimetres
    expect(cm(await work('Q2955000'))).toEqual([100, 150]); // 1000 × 1500 mm
    expect(cm(await work('Q6114000'))).toEqual([101.6, 76.2]); // 40 × 30 in
    expect(cm(await work('Q7330000'))).toEqual([120, 80]); // 1.2 × 0.8 m
  });

  test('labels, titles, slugs, popularity and the rows left out', async () => {
    const sunflowers = await work('Q3938310');
    const en = sunflowers.texts.find((t) => t.locale === 'en')!;
    expect(en).toMatchObject({ title: 'Sunflowers', titleSource: 'wikidata' });
    expect(sunflowers.texts.find((t) => t.locale === 'fr')!.title).toBe('Les Tournesols');
    expect(sunflowers.texts.find((t) => t.locale === 'es')!.title).toBeNull();
    expect(sunflowers.slug).toMatch(/^sunflowers(-|$)/);
    expect(sunflowers.popularity).toBe(40);
    expect(sunflowers.status).toBe('queued');
    expect((await work('Q3938313')).slug).toBe('les-vessenots-a-auvers'); // French label only
    expect((await work('Q3938314')).slug).toBe('vincent-van-gogh-q3938314'); // Japanese label only
    expect(await db.artwork.findUnique({ where: { wikidataId: 'Q3938315' } })).toBeNull(); // no label at all
    expect(await db.artwork.findUnique({ where: { wikidataId: 'Q3938321' } })).toBeNull(); // no image
    const slugs = (await db.artwork.findMany({ select: { slug: true } })).map((w) => w.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(slugs.every((s) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s))).toBe(true);
    const rubens = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5599' }, include: { texts: true } });
    expect(rubens).toMatchObject({ slug: 'peter-paul-rubens', status: 'queued', deathYear: 1640 });
    expect(rubens.texts.find((t) => t.locale === 'ja')!.name).toBe('ピーテル・パウル・ルーベンス');
  });

  test('browse pages: the Louvre department is the Louvre, editorial pages are matched by label, subjects stop at 8', async () => {
    const panel = await work('Q2955000');
    const taxa = panel.taxa.map((l) => `${l.taxon.kind}:${l.taxon.slug}`);
    expect(taxa).toContain('museum:louvre');
    expect(taxa).toContain('genre:portrait'); // the seed's editorial portrait page, no second one
    expect(taxa).toContain('movement:baroque');
    expect(panel.taxa.filter((l) => l.taxon.kind === 'subject')).toHaveLength(8);
    expect(await db.taxon.count({ where: { kind: 'museum', slug: { startsWith: 'department' } } })).toBe(0);
    expect(await db.taxon.count({ where: { kind: 'genre', slug: { startsWith: 'portrait' } } })).toBe(1);
    expect(await db.taxon.count({ where: { kind: 'movement', slug: { startsWith: 'romanticism' } } })).toBe(1);
    expect(await db.taxon.count({ where: { kind: 'movement', slug: { startsWith: 'post-impressionism' } } })).toBe(1);
    expect(await db.taxon.count({ where: { kind: 'movement', slug: { startsWith: 'high-renaissance' } } })).toBe(1);
  });

  test('no queued row leaks into the catalog', async () => {
    const listed = await rest('GET', '/artworks', { db, query: { q: 'Rubens' } });
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([]);
    const panel = await work('Q2955000');
    expect((await rest('GET', `/artworks/${panel.slug}`, { db })).status).toBe(404);
    expect((await rest('GET', '/artists/peter-paul-rubens', { db })).status).toBe(404);
    const movements = await rest('GET', '/taxa/movements', { db });
    expect(movements.body.items.map((t: { slug: string }) => t.slug)).not.toContain('baroque');
    const vanGogh = await rest('GET', '/artworks', { db, query: { artist: 'vincent-van-gogh' } });
    expect(vanGogh.body.items.every((c: { slug: string }) => !c.slug.startsWith('les-vessenots'))).toBe(true);
    const bySlugs = await rest('GET', '/artworks/by-slugs', { db, query: { slugs: `${panel.slug},the-starry-night` } });
    expect(bySlugs.body.items?.map((c: { slug: string }) => c.slug) ?? bySlugs.body.map((c: { slug: string }) => c.slug)).toEqual(['the-starry-night']);
  });

  test('429 and 5xx are retried, honouring Retry-After', async () => {
    delays.length = 0;
    sparql.control.failures = [429, 503];
    const rows = await source().painters(10, 0);
    expect(rows.map((p) => p.qid)).toEqual(['Q296', 'Q5582', 'Q5599', 'Q5432', 'Q5597']);
    expect(delays).toEqual([1000, 1000]);
    sparql.control.failures = [400];
    await expect(source().painters(10, 0)).rejects.toThrow(/400/);
  });

  test('the ingest wrote an outbox event for the story job', async () => {
    expect(await db.outboxEvent.count({ where: { name: STORIES_EVENT } })).toBe(4);
  });
});

describe('QUEUE_TARGET and force', () => {
  test('with the queue full nothing is asked of Wikidata unless forced', async () => {
    const artist = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5597' } });
    await db.$executeRaw`
      INSERT INTO artworks (slug, artist_id, status, updated_at)
      SELECT 'filler-' || g, ${artist.id}, 'queued', now() FROM generate_series(1, ${QUEUE_TARGET}) g`;
    // Raphael counts as not yet ingested again, so a forced run has work to do
    await db.artist.update({ where: { id: artist.id }, data: { ingestedAt: null } });
    const asked = sparql.requests.length;
    const skipped = await ingestCatalog(db, source());
    expect(skipped.skipped).toBe('queue_full');
    expect(sparql.requests.length).toBe(asked);
    const forced = await ingestCatalog(db, source(), { force: true, painters: 1 });
    expect(forced.skipped).toBeNull();
    expect(forced.painters.map((p) => p.qid)).toEqual(['Q5597']);
    expect(forced.artworksAdded).toBe(0); // its paintings are there already
    expect(sparql.requests.length).toBeGreaterThan(asked);
    await db.$executeRaw`DELETE FROM artworks WHERE slug LIKE 'filler-%'`;
  }, 60_000);
});

describe('stories, then publishing makes the ingested works public', () => {
  test('stories from the language model, one per language, from the row facts only', async () => {
    const model = chatModel({ baseUrl: llm.url, apiKey: 'sk-local', model: 'story-model' });
    const result = await writeStories(db, model, { limit: 5 });
    expect(result).toMatchObject({ written: 5, failed: 0 });
    expect(llm.requests).toHaveLength(5);
    expect(llm.requests[0]).toMatchObject({ authorization: 'Bearer sk-local', model: 'story-model', system: STORY_SYSTEM_PROMPT });
    const facts = JSON.parse(llm.requests[0]!.user);
    expect(Object.keys(facts).sort()).toEqual(['artist', 'genre', 'heightCm', 'movement', 'museum', 'title', 'widthCm', 'year']);
    const texts = await db.artworkText.findMany({ where: { storySource: 'translation' } });
    expect(texts).toHaveLength(30);
    expect(texts.find((t) => t.locale === 'ja')!.story).toMatch(/^Story \(ja\) of /);
  });

  test('the rest from the templates; then a publish run puts them in /v1/artworks and /v1/taxa', async () => {
    const result = await writeStories(db, null);
    expect(result).toMatchObject({ written: 34, remaining: 0 });
    const template = await db.artworkText.findFirstOrThrow({ where: { storySource: 'template', locale: 'en', artwork: { wikidataId: 'Q2955000' } } });
    expect(template.story).toBe('Rubens Panel A is a painting by Peter Paul Rubens. It dates from 1610. It measures 100 × 150 cm. It is held by Louvre Museum. It belongs to Baroque. Genre: Portrait.');

    const run = await publishRun(db, { perDay: 300, baseUrl: 'https://shop.example', trigger: 'cli' });
    // Raphael (6 ready works) cannot be introduced: a new artist needs a block of 10
    expect(run.published).toBe(33);
    expect(run.artistsIntroduced.sort()).toEqual(['francisco-goya', 'peter-paul-rubens']);
    const rubens = await rest('GET', '/artworks', { db, query: { artist: 'peter-paul-rubens' } });
    expect(rubens.body.total).toBe(12);
    const baroque = await rest('GET', '/taxa/movements/baroque', { db });
    expect(baroque.status).toBe(200);
    expect(run.browsePagesAdded).toContain('movements/baroque');
    expect((await rest('GET', '/artists/raphael', { db })).status).toBe(404);
  });
});

describe('the Inngest functions (run with @inngest/test)', () => {
  test('catalog.ingest takes painters and force from its event, with one run at a time', async () => {
    const deps: JobDeps = { db, mailer: null, baseUrl: 'https://shop.example', wikidata: source() };
    const fns = createFunctions(new Inngest({ id: 'pipeline-test' }), () => deps);
    const fn = fns.find((f) => (f as unknown as { opts: { id: string } }).opts.id === 'catalog.ingest')!;
    const opts = (fn as unknown as { opts: { concurrency: unknown; triggers: unknown[] } }).opts;
    expect(opts.concurrency).toEqual({ limit: 1 });
    expect(opts.triggers).toEqual([{ cron: '15 0 * * *' }, { event: 'catalog/ingest.requested' }]);
    const { result, error } = await new InngestTestEngine({ function: fn, events: [{ name: 'catalog/ingest.requested', data: { painters: 2, force: true } }] }).execute();
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ skipped: null, artworksAdded: 0 });
  });

  test('catalog.write-stories writes stories in batches', async () => {
    const artist = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q5597' } });
    await db.artwork.create({ data: { slug: 'raphael-extra', artistId: artist.id, texts: { create: { locale: 'en', title: 'Extra', titleSource: 'wikidata' } } } });
    const fns = createFunctions(new Inngest({ id: 'pipeline-test' }), () => ({ db, mailer: null, baseUrl: 'https://shop.example' }));
    const fn = fns.find((f) => (f as unknown as { opts: { id: string } }).opts.id === 'catalog.write-stories')!;
    const { result, error } = await new InngestTestEngine({ function: fn, events: [{ name: STORIES_EVENT, data: {} }] }).execute();
    expect(error).toBeUndefined();
    expect(result).toEqual({ written: 1 });
  });
});
