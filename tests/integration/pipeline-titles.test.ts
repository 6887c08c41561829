import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { chatModel } from '@/server/integrations/llm';
import { pickOriginalTitle, sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { runJob } from '@/server/jobs/registry';
import { ingestCatalog, STORIES_EVENT } from '@/server/pipeline/ingest';
import { publishRun, type PublishSettings } from '@/server/pipeline/publish';
import { queuedTowardTarget } from '@/server/pipeline/queue';
import { writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { startLanguageModelServer } from '../support/llm';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, painter, painting } from '../support/wikidata-graph';

/**
 * Issue #39 item 5, complete titles (docs/pipeline.md "Complete titles"): the title pass completes
 * the six languages before publishing, as many ticks as it takes; a work is published only with
 * all six; a human label is never replaced; published works missing a language are filled.
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let llm: Awaited<ReturnType<typeof startLanguageModelServer>>;
let serial = 0;

const settings = (overrides: Partial<PublishSettings> = {}): PublishSettings => ({ perDay: 300, baseUrl: 'https://shop.example', trigger: 'schedule', ...overrides });
const model = () => chatModel({ baseUrl: llm.url, retry: { attempts: 1 } });

/** A queued artist with `n` works that have their story and only the given titles (Wikidata labels). */
async function works(n: number, options: { titles?: (i: number) => Partial<Record<string, string>>; status?: 'queued' | 'published'; original?: [string, string] } = {}) {
  const artist = await db.artist.create({
    data: {
      slug: `titled-painter-${++serial}`,
      name: `Painter ${serial}`,
      wikidataId: `Q7${serial}0000`,
      status: options.status ?? 'queued',
      texts: { create: { locale: 'en', name: `Painter ${serial}`, source: 'wikidata' } },
    },
  });
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const id = ++serial;
    const titles = options.titles ? options.titles(i) : { en: `Canal ${id}` };
    const row = await db.artwork.create({
      data: {
        slug: `titled-${id}`,
        artistId: artist.id,
        wikidataId: `Q6${id}`,
        popularity: 1_000 - i,
        status: options.status ?? 'queued',
        publishedAt: options.status === 'published' ? new Date(Date.now() - 30 * 86_400_000) : null,
        originalTitle: options.original?.[0] ?? null,
        originalLanguage: options.original?.[1] ?? null,
        texts: {
          create: catalogLocales.map((locale) => ({
            locale,
            title: titles[locale] ?? null,
            titleSource: titles[locale] ? ('wikidata' as const) : ('translation' as const),
            story: locale === 'en' ? 'A story.' : null,
            storySource: locale === 'en' ? ('template' as const) : null,
          })),
        },
      },
    });
    ids.push(row.id);
  }
  return { artistId: artist.id, ids };
}

const titlesOf = async (id: number) =>
  Object.fromEntries((await db.artworkText.findMany({ where: { artworkId: id }, orderBy: { locale: 'asc' } })).map((t) => [t.locale, [t.title, t.titleSource]]));

/** Published works (curated aside) lacking one of the six titles. */
const halfTitled = async () =>
  (await db.artwork.findMany({ where: { status: 'published', curated: false }, select: { texts: { select: { locale: true, title: true } } } })).filter((w) =>
    catalogLocales.some((l) => !w.texts.find((t) => t.locale === l)?.title),
  ).length;

beforeAll(async () => {
  own = await ownDatabase('titles');
  db = own.db;
  llm = await startLanguageModelServer();
});
afterAll(async () => {
  await llm.close();
  await own.drop();
});
beforeEach(async () => {
  await db.$executeRaw`DELETE FROM artworks WHERE NOT curated`;
  await db.$executeRaw`DELETE FROM artists WHERE NOT EXISTS (SELECT 1 FROM artworks w WHERE w.artist_id = artists.id)`;
  llm.requests.length = 0;
  llm.control.failWith = 0;
  llm.control.delayMs = 0;
  llm.control.gate = undefined;
});

describe('a day of publish ticks with a model that is slow or cut off', () => {
  test('nothing is published half-titled, and the next ticks complete the titles and publish', async () => {
    const a = await works(20);
    const b = await works(15);
    // Each tick: a title pass (here 10 works: one call), then the publish run.
    const tick = async (budgetMs = 2_000) => {
      const pass = await translateTitles(db, model(), { limit: 10, budgetMs });
      return { pass, run: await publishRun(db, settings()) };
    };

    llm.control.delayMs = 3_000; // slower than the budget: every call is cut off
    const slow = await tick(300);
    expect(slow.pass).toMatchObject({ translated: 0, completed: 0, calls: 1, remaining: 35 });
    expect(slow.pass.errors[0]).toMatch(/not done within/);
    expect(slow.run.published).toBe(0);

    llm.control.delayMs = 0;
    llm.control.failWith = 500; // then down
    const down = await tick();
    expect(down.pass).toMatchObject({ translated: 0, completed: 0 });
    expect(down.run.published).toBe(0);

    llm.control.failWith = 0;
    const published: number[] = [];
    for (let i = 0; i < 5; i++) {
      const { pass, run } = await tick();
      expect(pass.calls).toBeLessThanOrEqual(1); // bounded: 10 works, one call a tick
      published.push(run.published);
      expect(run.publishedWithoutTitles).toBe(0);
      expect(await halfTitled()).toBe(0);
    }
    // The pass takes the most popular first, across painters: after two ticks each painter has a
    // block of 10 (both introduced), then their other works as they complete.
    expect(published).toEqual([0, 20, 10, 5, 0]);
    expect(await db.artwork.count({ where: { id: { in: [...a.ids, ...b.ids] }, status: 'published' } })).toBe(35);
    expect((await titlesOf(a.ids[0]!)).ja).toEqual([expect.stringMatching(/^Canal \d+ \[ja\]$/), 'translation']);
  });

  test('a work with no title in any language nor an original one is not waiting, and never published', async () => {
    const { ids } = await works(10, { titles: (i) => (i === 0 ? {} : { en: `Pier ${i}` }) });
    const pass = await translateTitles(db, model());
    expect(pass).toMatchObject({ completed: 9, remaining: 0 });
    expect((await publishRun(db, settings())).published).toBe(0); // 9 ready: not a block of 10
    expect(await db.artwork.count({ where: { id: ids[0], status: 'queued' } })).toBe(1);
  });
});

describe("the worker's stories job", () => {
  test('completes every title; with the model down it throws, so the outbox tries again later', async () => {
    await works(25);
    const deps = { db, mailer: null, baseUrl: 'https://shop.example', model: model() };
    llm.control.failWith = 400;
    await expect(runJob(STORIES_EVENT, {}, deps)).rejects.toThrow(/25 works still wait for their titles/);
    llm.control.failWith = 0;
    expect(await runJob(STORIES_EVENT, {}, deps)).toMatchObject({ translated: 25 * 5 });
    expect(await translateTitles(db, model())).toMatchObject({ remaining: 0, calls: 0 });
  });
});

describe('without a language model', () => {
  test('stand-ins: the English title in every other language, as fallback; the works publish', async () => {
    const { ids } = await works(10, { titles: (i) => (i === 0 ? { en: 'The Mill', de: 'Die Mühle' } : { en: `Field ${i}` }) });
    const pass = await translateTitles(db, null);
    expect(pass).toMatchObject({ calls: 0, translated: 0, fallback: 9 * 5 + 4, completed: 10, ready: 10, remaining: 0 });
    expect(await titlesOf(ids[0]!)).toEqual({
      de: ['Die Mühle', 'wikidata'],
      en: ['The Mill', 'wikidata'],
      es: ['The Mill', 'fallback'],
      fr: ['The Mill', 'fallback'],
      it: ['The Mill', 'fallback'],
      ja: ['The Mill', 'fallback'],
    });
    expect(await publishRun(db, settings())).toMatchObject({ published: 10, publishedWithoutTitles: 0 });
  });

  test('a model configured later translates the stand-ins; the labels stay', async () => {
    const { ids } = await works(10, { titles: (i) => (i === 0 ? { en: 'The Mill', de: 'Die Mühle' } : { en: `Field ${i}` }) });
    await translateTitles(db, null);
    await publishRun(db, settings());
    const pass = await translateTitles(db, model());
    expect(pass).toMatchObject({ calls: 1, translated: 9 * 5 + 4, completed: 10, remaining: 0 });
    expect(await titlesOf(ids[0]!)).toMatchObject({ de: ['Die Mühle', 'wikidata'], en: ['The Mill', 'wikidata'], fr: ['The Mill [fr]', 'translation'] });
    expect(await db.artworkText.count({ where: { titleSource: 'fallback' } })).toBe(0);
  });
});

describe('backfill and labels', () => {
  test('a published work missing a language is filled, and before queued works', async () => {
    const published = await works(1, { status: 'published' });
    await works(10);
    expect(await publishRun(db, settings())).toMatchObject({ published: 0, publishedWithoutTitles: 1 });
    const pass = await translateTitles(db, model(), { limit: 1 });
    expect(pass).toMatchObject({ completed: 1, ready: 0, remaining: 10 });
    expect((await titlesOf(published.ids[0]!)).it).toEqual([expect.stringMatching(/^Canal \d+ \[it\]$/), 'translation']);
    expect(await halfTitled()).toBe(0);
  });

  test('a human label is never overwritten by a translation, even one arriving while the model answers', async () => {
    const { ids } = await works(10, { titles: (i) => (i === 0 ? { en: 'The Mill', fr: 'Le Moulin' } : { en: `Dune ${i}` }) });
    let answerNow!: () => void;
    llm.control.gate = new Promise((resolve) => (answerNow = resolve));
    const asked = llm.received();
    const pass = translateTitles(db, model(), { budgetMs: 10_000 });
    while (llm.received() === asked) await new Promise((resolve) => setTimeout(resolve, 10));
    // An editor's label arrives (a curated correction) while the model is thinking.
    await db.artworkText.update({ where: { artworkId_locale: { artworkId: ids[0]!, locale: 'de' } }, data: { title: 'Die Mühle', titleSource: 'curated' } });
    answerNow();
    expect(await pass).toMatchObject({ completed: 10 });
    const asking = JSON.parse(llm.requests[0]!.user) as { id: number; languages: string[] }[];
    expect(asking.find((item) => item.id === ids[0])!.languages).toEqual(['es', 'de', 'it', 'ja']);
    expect(await titlesOf(ids[0]!)).toMatchObject({
      en: ['The Mill', 'wikidata'],
      fr: ['Le Moulin', 'wikidata'],
      de: ['Die Mühle', 'curated'],
      es: ['The Mill [es]', 'translation'],
    });
    // Another pass changes nothing: nothing waits.
    llm.requests.length = 0;
    expect(await translateTitles(db, model())).toMatchObject({ calls: 0, remaining: 0 });
  });
});

describe('painters with 5 to 9 works hold no queue place', () => {
  test('a 7-work painter does not count toward QUEUE_TARGET; at ten works it does, and is published as a block', async () => {
    const seven = await works(7);
    await works(12);
    const vermeer = await db.artist.findUniqueOrThrow({ where: { slug: 'johannes-vermeer' } });
    ++serial;
    await db.artwork.create({
      data: { slug: `vermeer-queued-${serial}`, artistId: vermeer.id, wikidataId: `Q5${serial}`, texts: { create: { locale: 'en', title: 'A Letter' } } },
    });
    // 12 of a painter who can be introduced, 1 of a public painter; the 7 wait outside the count.
    expect(await db.artwork.count({ where: { status: 'queued' } })).toBe(20);
    expect(await queuedTowardTarget(db)).toBe(13);
    await translateTitles(db, null);
    expect((await publishRun(db, settings())).published).toBe(12); // introduced with 10, then the other 2; Vermeer's has no story yet; the 7 wait
    expect(await db.artwork.count({ where: { artistId: seven.artistId, status: 'published' } })).toBe(0);

    // A later ingest finds three more of their paintings: ten, counted, and introduced together.
    for (let i = 0; i < 3; i++) {
      await db.artwork.create({
        data: {
          slug: `seventh-more-${i}-${serial}`,
          artistId: seven.artistId,
          wikidataId: `Q4${serial}${i}`,
          texts: { create: catalogLocales.map((locale) => ({ locale, title: `More ${i}`, titleSource: 'wikidata' as const, story: locale === 'en' ? 'A story.' : null })) },
        },
      });
    }
    expect(await queuedTowardTarget(db)).toBe(1 + 10);
    const run = await publishRun(db, settings({ now: () => new Date(Date.now() + 86_400_000) }));
    expect(await db.artwork.count({ where: { artistId: seven.artistId, status: 'published' } })).toBe(10);
    expect(run.artistsIntroduced).toContain((await db.artist.findUniqueOrThrow({ where: { id: seven.artistId } })).slug);
  });
});

describe('paintings labelled only in other languages', () => {
  let wdqs: Awaited<ReturnType<typeof startWikidataServer>>;
  beforeAll(async () => {
    // A Dutch painter: 6 paintings labelled in English, one in Dutch only (with a museum suffix),
    // one in Swedish and Russian, one in British English only, one with no label at all.
    wdqs = await startWikidataServer({
      fixtures: false,
      turtle: [
        graphTurtle([
          painter({ qid: 'Q96001', labels: { en: 'Pieter Example', nl: 'Pieter Voorbeeld' }, born: '1600-01-01', died: '1670-05-05' }),
          ...Array.from({ length: 6 }, (_, n) => painting({ qid: `Q9601${n}`, creator: 'Q96001', labels: { en: `Dune ${n}` }, wikipedia: 1 })),
          painting({ qid: 'Q96020', creator: 'Q96001', labels: { nl: 'Gezicht op Haarlem (Rijksmuseum)' }, wikipedia: 3 }),
          painting({ qid: 'Q96021', creator: 'Q96001', labels: { sv: 'Vinterlandskap', ru: 'Зимний пейзаж' }, wikipedia: 2 }),
          painting({ qid: 'Q96022', creator: 'Q96001', labels: { 'en-gb': 'A Grey Harbour' }, wikipedia: 2 }),
          painting({ qid: 'Q96023', creator: 'Q96001', labels: {} }),
        ]),
      ],
    });
  });
  afterAll(async () => {
    await wdqs.close();
  });

  test('the original title is kept, stripped, translated by the title pass; only a painting with no label waits', async () => {
    const source = wikidataSource(sparqlClient({ url: wdqs.url, retry: { sleep: async () => undefined } }));
    const run = await ingestCatalog(db, source, { painters: 1 });
    expect(run.artworksAdded).toBe(9);
    expect(run.left.no_label).toBe(1);
    expect((await db.ingestSkip.findMany()).map((s) => s.wikidataId)).toEqual(['Q96023']);
    // One bounded query for the three paintings, asking every label, one row each.
    const asked = wdqs.requests.filter((r) => r.query.includes('(labels in any language)'));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.query).toMatch(/LIMIT \d+ OFFSET 0/);

    const haarlem = await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q96020' }, include: { texts: true } });
    expect(haarlem).toMatchObject({ originalTitle: 'Gezicht op Haarlem', originalLanguage: 'nl', slug: 'gezicht-op-haarlem' });
    expect(haarlem.texts.every((t) => t.title === null)).toBe(true); // no catalog-language title until the pass
    expect(await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q96021' } })).toMatchObject({ originalTitle: 'Vinterlandskap', originalLanguage: 'sv' });
    expect(await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q96022' } })).toMatchObject({ originalTitle: 'A Grey Harbour', originalLanguage: 'en-gb' });

    // Stories come first (the stories job): a template names the work by its original title.
    await writeStories(db, null);
    expect((await db.artworkText.findUniqueOrThrow({ where: { artworkId_locale: { artworkId: haarlem.id, locale: 'fr' } } })).story).toMatch(
      /^Gezicht op Haarlem est un tableau de Pieter Example/,
    );
    const pass = await translateTitles(db, model());
    expect(pass.errors).toEqual([]);
    const asking = llm.requests.flatMap((r) => JSON.parse(r.user) as { id: number; title: string; from: string; languages: string[] }[]);
    expect(asking.find((item) => item.id === haarlem.id)).toEqual({ id: haarlem.id, title: 'Gezicht op Haarlem', from: 'nl', languages: [...catalogLocales] });
    expect(await titlesOf(haarlem.id)).toMatchObject({ en: ['Gezicht op Haarlem [en]', 'translation'], ja: ['Gezicht op Haarlem [ja]', 'translation'] });
  });

  test('without a model the original title stands in for all six', async () => {
    const source = wikidataSource(sparqlClient({ url: wdqs.url, retry: { sleep: async () => undefined } }));
    await db.artist.updateMany({ where: { wikidataId: 'Q96001' }, data: { ingestedAt: null } });
    await ingestCatalog(db, source, { painters: 1, force: true });
    const winter = await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q96021' } });
    expect(await translateTitles(db, null)).toMatchObject({ calls: 0 });
    expect(Object.values(await titlesOf(winter.id))).toEqual(catalogLocales.map(() => ['Vinterlandskap', 'fallback']));
  });

  test('the language preference: a regional catalog language, then nl, sv, da…, then any by its code', () => {
    expect(pickOriginalTitle({ ru: 'Пейзаж', sv: 'Landskap', nl: 'Landschap' })).toEqual({ language: 'nl', title: 'Landschap' });
    expect(pickOriginalTitle({ nl: 'Landschap', 'de-ch': 'Landschaft' })).toEqual({ language: 'de-ch', title: 'Landschaft' });
    expect(pickOriginalTitle({ zh: '風景', ko: '풍경' })).toEqual({ language: 'ko', title: '풍경' });
    expect(pickOriginalTitle({ mul: 'X' })).toBeNull();
  });
});
