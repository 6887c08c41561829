import { InngestTestEngine } from '@inngest/test';
import { Inngest } from 'inngest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import { USER_AGENT } from '@/server/integrations/http';
import { chatModel } from '@/server/integrations/llm';
import { sparqlClient, wikidataSource, type WikidataSource } from '@/server/integrations/wikidata';
import { createFunctions } from '@/server/jobs/functions';
import type { JobDeps } from '@/server/jobs/registry';
import { configuredWikidata } from '@/server/pipeline/config';
import { ingestCatalog, QUEUE_TARGET, STORIES_EVENT } from '@/server/pipeline/ingest';
import { publishRun } from '@/server/pipeline/publish';
import { STORY_SYSTEM_PROMPT, writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { startLanguageModelServer } from '../support/llm';
import { rest } from '../support/rest';
import { STAFF } from '../support/staff';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, painter, painting } from '../support/wikidata-graph';

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let sparql: Awaited<ReturnType<typeof startWikidataServer>>;
let llm: Awaited<ReturnType<typeof startLanguageModelServer>>;
const delays: number[] = [];
const source = () => wikidataSource(sparqlClient({ url: sparql.url, retry: { sleep: async (ms) => void delays.push(ms) } }));
/**
 * Two sources for two runs at once, kept in step: each run's first paintings query waits for the
 * other's. A run asks for paintings only after choosing its painters (those not written yet), so
 * both have chosen all six before either writes one, and each painter is written by one run and
 * found taken by the other. Unsynchronised, a run that chose late left out a painter the other
 * had already written, and the count of painters taken meanwhile came out 5 or 6 by the timing.
 */
function sourcesInStep(): [WikidataSource, WikidataSource] {
  let waiting = 2;
  let release = () => {};
  const bothChosen = new Promise<void>((resolve) => (release = resolve));
  const inStep = (): WikidataSource => {
    const own = source();
    let first = true;
    return {
      ...own,
      async paintings(painterQid, rule, trace) {
        if (first) {
          first = false;
          if (--waiting === 0) release();
          await bothChosen;
        }
        return own.paintings(painterQid, rule, trace);
      },
    };
  };
  return [inStep(), inStep()];
}
const rule = { diedBefore: 1926, minPaintings: 5 };
const dims = (w: { heightCm: unknown; widthCm: unknown }) => [w.heightCm === null ? null : Number(w.heightCm), w.widthCm === null ? null : Number(w.widthCm)];
const kinds = (w: Awaited<ReturnType<typeof work>>, kind: string) =>
  w.taxa
    .filter((l) => l.taxon.kind === kind)
    .map((l) => l.taxon.slug)
    .sort();
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

describe('ingest from Wikidata (every query run by Oxigraph on Wikidata-shaped graphs)', () => {
  let first: Awaited<ReturnType<typeof ingestCatalog>>[];

  test('the painters query, as executed: died before 1926 (1925 in, 1926 out), at least 5 paintings with an image, most paintings first', async () => {
    const painters = await source().painters(rule);
    // van Gogh and Rubens 12 each (the painter's IRI breaks the tie), Goya 11, Raphael and Hilma
    // Nordqvist 6, Ada Brandt 5 (died 1925-12-31). Monet (6, died 1926-12-05) and Carl Vinter
    // (4 with an image, a 5th without) do not qualify.
    expect(painters.map((p) => [p.qid, p.paintings])).toEqual([
      ['Q5582', 12],
      ['Q5599', 12],
      ['Q5432', 11],
      ['Q5597', 6],
      ['Q990200', 6],
      ['Q990100', 5],
    ]);
    expect(painters.find((p) => p.qid === 'Q990100')).toMatchObject({ birthYear: 1860, deathYear: 1925 });
    // the same rule with a threshold of 4 lets Carl Vinter in, so the HAVING is what keeps him out
    expect((await source().painters({ diedBefore: 1926, minPaintings: 4 })).map((p) => p.qid)).toContain('Q990300');
    expect((await source().painters({ diedBefore: 1927, minPaintings: 5 })).map((p) => p.qid)).toContain('Q296');
  });

  test('two runs at once queue each painting once, skip the painter who died in 1926 and the curated duplicate', async () => {
    const before = await db.artwork.count();
    sparql.requests.length = 0;
    first = await Promise.all(sourcesInStep().map((inStep) => ingestCatalog(db, inStep)));
    const added = first[0]!.artworksAdded + first[1]!.artworksAdded;
    expect(added).toBe(49); // van Gogh 10, Rubens 12, Goya 11, Raphael 6, Ada Brandt 5, Hilma Nordqvist 5
    expect(await db.artwork.count()).toBe(before + 49);
    expect(await db.artwork.count({ where: { wikidataId: 'Q45585' } })).toBe(1);
    const starry = await db.artwork.findUniqueOrThrow({ where: { wikidataId: 'Q45585' } });
    expect(starry).toMatchObject({ slug: 'the-starry-night', curated: true, status: 'published' });
    // Monet (died 1926-12-05) and Carl Vinter (4 paintings) are neither artists nor asked for their paintings
    for (const q of ['Q296', 'Q990300']) {
      expect(await db.artist.findUnique({ where: { wikidataId: q } })).toBeNull();
      expect(sparql.requests.some((r) => r.query.includes('(paintings)') && r.query.includes(`wd:${q} `))).toBe(false);
    }
    const byArtist = await db.artwork.groupBy({ by: ['artistId'], where: { status: 'queued' }, _count: { _all: true } });
    expect(byArtist.map((g) => g._count._all).sort((a, b) => a - b)).toEqual([5, 5, 6, 10, 11, 12]);
  });

  test('the painter list: computed slice by slice by cheap queries, stored, and read by the ingest', async () => {
    // Both runs found the list due (never refreshed) and refreshed it: the same rows, once each.
    const refreshes = await db.ingestRun.findMany({ where: { kind: 'painter_list' } });
    expect(refreshes.map((r) => r.outcome)).toEqual(['done', 'done']);
    const stored = await db.painterCandidate.findMany({ orderBy: [{ paintings: 'desc' }, { wikidataId: 'asc' }] });
    expect(stored.map((c) => [c.wikidataId, c.paintings, c.deathYear])).toEqual([
      ['Q5582', 12, 1890],
      ['Q5599', 12, 1640],
      ['Q5432', 11, 1828],
      ['Q5597', 6, 1520],
      ['Q990200', 6, 1915],
      ['Q990100', 5, 1925],
    ]);
    const list = sparql.requests.filter((r) => /\((painters died|painter paintings)/.test(r.query));
    expect(list.length).toBeGreaterThan(0);
    // by GET (the service caches those), never a count over all of Wikidata's paintings: each
    // count names its painters, each listing is a range of death dates
    expect(list.every((r) => r.method === 'GET')).toBe(true);
    expect(list.filter((r) => r.query.includes('COUNT(')).every((r) => /VALUES \?painter \{/.test(r.query))).toBe(true);
    expect(
      list.filter((r) => r.query.includes('(painters died')).every((r) => /\?died < "\d{4}-01-01T00:00:00Z"\^\^xsd:dateTime/.test(r.query) && /hint:rangeSafe/.test(r.query)),
    ).toBe(true);
    expect(sparql.requests.some((r) => /YEAR\(\?\w*[dD]eath\)/.test(r.query))).toBe(false);
    for (const run of first) {
      const row = await db.ingestRun.findUniqueOrThrow({ where: { id: run.runId } });
      expect(row).toMatchObject({ kind: 'ingest', outcome: 'done', trigger: 'cli' });
      const queries = row.queries as { kind: string; ms: number }[];
      expect(queries.map((q) => q.kind)).not.toContain('painters died');
      expect(queries.every((q) => typeof q.ms === 'number' && q.ms >= 0)).toBe(true);
      expect(row.queryMs).toBe(queries.reduce((n, q) => n + q.ms, 0));
    }
    const both = await db.ingestRun.findMany({ where: { id: { in: first.map((r) => r.runId) } } });
    expect(both.reduce((n, r) => n + r.worksQueued, 0)).toBe(49);
    expect(both.flatMap((r) => r.painters).sort()).toEqual([
      'Q5432 francisco-goya',
      'Q5582 vincent-van-gogh',
      'Q5597 raphael',
      'Q5599 peter-paul-rubens',
      'Q990100 ada-brandt',
      'Q990200 hilma-nordqvist',
    ]);
    // left out, and why: the works without an image, the curated Starry Night, the works without a label
    const left = both
      .map((r) => r.skipped as Record<string, number>)
      .reduce(
        (all, s) => {
          for (const [k, v] of Object.entries(s)) all[k] = (all[k] ?? 0) + v;
          return all;
        },
        {} as Record<string, number>,
      );
    expect(left).toMatchObject({ no_image: 2, in_catalog: 1, no_label: 2, painter_taken_meanwhile: 6 });
  });

  test('a second run finds nothing new: the stored list is fresh, no list query and no paintings query', async () => {
    const before = await db.artwork.count();
    sparql.requests.length = 0;
    const again = await ingestCatalog(db, source());
    expect(again.artworksAdded).toBe(0);
    expect(await db.artwork.count()).toBe(before);
    expect(await db.artist.count({ where: { wikidataId: { in: ['Q5582', 'Q5599', 'Q5432', 'Q5597', 'Q990100', 'Q990200'] } } })).toBe(6);
    // the unlabelled works looked at again: their labels in our languages, then in any
    expect(sparql.requests.map((r) => r.query.match(/\(([\w ]+)\)/)?.[1])).toEqual(['labels', 'labels in any language']);
  });

  test('the User-Agent carries the operator contact from WIKIDATA_CONTACT, and names no library it does not use', async () => {
    expect(sparql.requests.every((r) => r.userAgent === USER_AGENT)).toBe(true);
    const configured = configuredWikidata(parseEnv({ WIKIDATA_SPARQL_URL: sparql.url, WIKIDATA_CONTACT: 'catalog@atelier-prints.example' }));
    await configured.labels(['Q5582']);
    const agent = sparql.requests.at(-1)!.userAgent!;
    expect(agent).toMatch(/^AtelierPrintsCatalog\/[\d.]+ \(catalog@atelier-prints\.example\) Node\.js\/\d+/);
    expect(agent).not.toMatch(/node-fetch/);
  });

  test('sizes: centimetres whatever the unit, one consistent pair, preferred rank first, never deprecated or the frame', async () => {
    expect(dims(await work('Q3938318'))).toEqual([72.4, 92.1]); // centimetres
    expect(dims(await work('Q2955000'))).toEqual([100, 150]); // 1000 × 1500 mm
    expect(dims(await work('Q6114000'))).toEqual([101.6, 76.2]); // 40 × 30 in
    expect(dims(await work('Q7330000'))).toEqual([120, 80]); // 1.2 × 0.8 m
    expect(dims(await work('Q990104'))).toEqual([91.4, 121.9]); // 3 × 4 ft
    expect(dims(await work('Q990201'))).toEqual([100, 80]); // preferred 100 × 80 over normal 90 × 70
    expect(dims(await work('Q990202'))).toEqual([61, 50]); // the deprecated 500 cm height is never used
    expect(dims(await work('Q990203'))).toEqual([100, 80]); // 120 × 110 applies to the frame (P518)
    expect(dims(await work('Q990204'))).toEqual([null, null]); // a height without a width: neither
    expect(dims(await work('Q990206'))).toEqual([50.5, 40.2]); // 20 × 16 in and 50.5 × 40.2 cm: one unit, centimetres
  });

  test('names: mul is the fallback of every language, never a Q-id', async () => {
    const hilma = await db.artist.findUniqueOrThrow({ where: { wikidataId: 'Q990200' }, include: { texts: true } });
    expect(hilma).toMatchObject({ name: 'Hilma Nordqvist', slug: 'hilma-nordqvist', deathYear: 1915 });
    expect(hilma.texts.map((t) => `${t.locale}:${t.name}`).sort()).toEqual([...catalogLocales].sort().map((l) => `${l}:Hilma Nordqvist`));
    const fjord = await work('Q990201');
    expect(fjord.slug).toBe('azure-fjord');
    expect(fjord.texts.every((t) => t.title === 'Azure Fjord' && t.titleSource === 'wikidata')).toBe(true);
    const birch = (await work('Q990202')).texts;
    expect(birch.find((t) => t.locale === 'en')!.title).toBe('Birch Wood');
    expect(birch.find((t) => t.locale === 'de')!.title).toBe('Birkenwald');
    const names = [...(await db.artist.findMany({ select: { name: true } })), ...(await db.artistText.findMany({ select: { name: true } }))].map((a) => a.name);
    expect(names.filter((n) => /^Q\d+$/.test(n))).toEqual([]);
    expect((await db.artworkText.findMany({ where: { title: { startsWith: 'Q' } }, select: { title: true } })).filter((t) => /^Q\d+$/.test(t.title ?? ''))).toEqual([]);
  });

  test("museums: the current collection only, a private collection never; the painter's movement when the painting has none", async () => {
    expect(kinds(await work('Q990101'), 'museum')).toEqual(['rijksmuseum']);
    expect(kinds(await work('Q990102'), 'museum')).toEqual([]); // private collection
    expect(await db.taxon.count({ where: { wikidataId: 'Q768717' } })).toBe(0);
    expect(await db.taxonAlias.count({ where: { wikidataId: 'Q768717' } })).toBe(0);
    const boat = await work('Q990103'); // left the Van Gogh Museum in 1950
    expect(boat.taxa.filter((l) => l.taxon.kind === 'museum')).toHaveLength(1);
    expect(kinds(boat, 'museum')).not.toContain('van-gogh-museum');
    expect(kinds(await work('Q990101'), 'movement')).toEqual(['impressionism']); // Ada Brandt's own movement
    expect(kinds(await work('Q990105'), 'movement')).toEqual(['romanticism']); // its own, not hers too
    expect(kinds(await work('Q3938310'), 'movement')).toEqual(['post-impressionism']);
  });

  test('labels, titles, slugs, popularity (Wikipedia articles only) and the rows left out', async () => {
    const sunflowers = await work('Q3938310');
    const en = sunflowers.texts.find((t) => t.locale === 'en')!;
    expect(en).toMatchObject({ title: 'Sunflowers', titleSource: 'wikidata' });
    expect(sunflowers.texts.find((t) => t.locale === 'fr')!.title).toBe('Les Tournesols');
    expect(sunflowers.texts.find((t) => t.locale === 'es')!.title).toBeNull();
    expect(sunflowers.slug).toMatch(/^sunflowers(-|$)/);
    expect(sunflowers.popularity).toBe(40);
    expect(sunflowers.status).toBe('queued');
    const harbour = sparql.select('SELECT ?n WHERE { wd:Q990101 wikibase:sitelinks ?n }');
    expect(Number(harbour.results.bindings[0]!.n!.value)).toBe(7); // 3 Wikipedias, Commons, Wikiquote...
    expect((await work('Q990101')).popularity).toBe(3);
    expect((await work('Q990104')).popularity).toBe(0); // only other projects
    expect((await work('Q3938313')).slug).toBe('les-vessenots-a-auvers'); // French label only
    expect((await work('Q3938314')).slug).toBe('vincent-van-gogh-q3938314'); // Japanese label only
    expect(await db.artwork.findUnique({ where: { wikidataId: 'Q3938315' } })).toBeNull(); // no label at all
    expect(await db.artwork.findUnique({ where: { wikidataId: 'Q3938321' } })).toBeNull(); // no image
    expect(await db.artwork.findUnique({ where: { wikidataId: 'Q990106' } })).toBeNull(); // no image
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

  test('a painting skipped for want of a label is taken by a later run once Wikidata has one', async () => {
    expect((await db.ingestSkip.findMany({ orderBy: { wikidataId: 'asc' } })).map((s) => [s.wikidataId, s.painterQid, s.reason])).toEqual([
      ['Q3938315', 'Q5582', 'no_label'],
      ['Q990205', 'Q990200', 'no_label'],
    ]);
    sparql.update('INSERT DATA { wd:Q990205 rdfs:label "Fjord in Rain"@mul . }');
    const later = await ingestCatalog(db, source(), { trigger: 'staff' });
    expect(later.artworksAdded).toBe(1);
    expect(later.painters).toEqual([expect.objectContaining({ qid: 'Q990200', added: 1 })]);
    const rain = await work('Q990205');
    expect(rain).toMatchObject({ slug: 'fjord-in-rain', status: 'queued' });
    expect(dims(rain)).toEqual([55, 46]);
    expect((await db.ingestSkip.findMany()).map((s) => s.wikidataId)).toEqual(['Q3938315']);
    expect(await db.ingestRun.findUniqueOrThrow({ where: { id: later.runId } })).toMatchObject({ trigger: 'staff', worksQueued: 1, outcome: 'done' });
  });

  test('staff see each ingest run: painters taken, works queued, left out and why, query times', async () => {
    const stats = await rest('GET', '/admin/seo/stats', { db, headers: STAFF });
    expect(stats.status, JSON.stringify(stats.body)).toBe(200);
    const [latest, ...older] = stats.body.ingestRuns;
    expect(latest).toMatchObject({
      trigger: 'staff',
      outcome: 'done',
      painters: ['Q990200 hilma-nordqvist'],
      worksQueued: 1,
      kind: 'ingest',
      // labels of the paintings remembered without one (ours, then any language), the painter's
      // painting ids, their facts, their subjects, the painter's movements, labels
      queries: { count: 7, failed: 0, slowest: { kind: expect.any(String), ms: expect.any(Number) }, mostRows: expect.any(Number) },
      errors: [],
      finishedAt: expect.any(String),
    });
    expect(latest.queries.mostRows).toBeGreaterThan(0);
    const ingests = older.filter((r: { kind: string }) => r.kind === 'ingest');
    expect(ingests.map((r: { outcome: string }) => r.outcome)).toEqual(['done', 'done', 'done']);
    expect(ingests.slice(1).flatMap((r: { painters: string[] }) => r.painters)).toHaveLength(6);
    // the two runs at once (in step): each painter written by one, seen as taken by the other (which one varies)
    expect(ingests.slice(1).reduce((n: number, r: { skipped: Record<string, number> }) => n + (r.skipped.painter_taken_meanwhile ?? 0), 0)).toBe(6);
    // the two refreshes of the painter list, each with its queries
    const refreshes = older.filter((r: { kind: string }) => r.kind === 'painter_list');
    expect(refreshes.map((r: { outcome: string; painters: string[] }) => [r.outcome, r.painters])).toEqual([
      ['done', []],
      ['done', []],
    ]);
    expect(refreshes.every((r: { queries: { count: number } }) => r.queries.count > 0)).toBe(true);
  });

  test('429 and 5xx are retried, honouring Retry-After; a 400 is not', async () => {
    delays.length = 0;
    sparql.control.failures = [429, 503];
    const rows = await source().painters(rule);
    expect(rows.map((p) => p.qid)).toEqual(['Q5582', 'Q5599', 'Q5432', 'Q5597', 'Q990200', 'Q990100']);
    expect(delays).toEqual([1000, 1000]);
    sparql.control.failures = [400];
    await expect(source().painters(rule)).rejects.toThrow(/400/);
  });

  test('a slice of the painter list that times out is not retried unchanged: back off, then its two halves', async () => {
    delays.length = 0;
    sparql.requests.length = 0;
    sparql.control.failWhen = /\(painters died 1890-1900\)/;
    sparql.control.failures = ['timeout'];
    try {
      const rows = await source().paintersDied({ from: 1890, to: 1900 }, rule);
      expect(rows.map((p) => [p.qid, p.paintings, p.deathYear])).toEqual([['Q5582', 12, 1890]]);
    } finally {
      sparql.control.failWhen = null;
    }
    const asked = sparql.requests.map((r) => r.query.match(/\((painters died [\d-]+|painter paintings)\)/)?.[1]);
    expect(asked).toEqual(['painters died 1890-1900', 'painters died 1890-1895', 'painters died 1895-1900', 'painter paintings']);
    expect(sparql.requests[0]!.status).toBe(500);
    expect(delays).toEqual([30_000]); // a pause before the smaller queries, no identical retry
  });

  test('a page of paintings that times out is asked again smaller after a pause', async () => {
    delays.length = 0;
    sparql.requests.length = 0;
    sparql.control.failWhen = /\(painting ids\)/;
    sparql.control.failures = ['timeout', 'timeout'];
    try {
      const rubens = await wikidataSource(sparqlClient({ url: sparql.url, retry: { sleep: async (ms) => void delays.push(ms) } }), { pageSize: 400 }).paintings('Q5599', rule);
      expect(rubens.map((p) => p.qid)).toEqual(Array.from({ length: 12 }, (_, i) => `Q29550${String(i).padStart(2, '0')}`));
    } finally {
      sparql.control.failWhen = null;
    }
    const limits = sparql.requests
      .filter((r) => r.query.includes('(painting ids)'))
      .map((r) => [
        r.query
          .match(/LIMIT (\d+) OFFSET (\d+)/)!
          .slice(1)
          .join('/'),
        r.status,
      ]);
    // 400 timed out, then a quarter of it, then the smallest page answers
    expect(limits).toEqual([
      ['400/0', 500],
      ['100/0', 500],
      ['25/0', 200],
    ]);
    expect(delays).toEqual([30_000, 30_000]);
  });

  test('the ingest wrote an outbox event for the story job', async () => {
    expect(await db.outboxEvent.count({ where: { name: STORIES_EVENT } })).toBe(7);
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
    expect(Object.keys(facts).sort()).toEqual(['artist', 'genre', 'heightCm', 'movement', 'museum', 'title', 'widthCm', 'year', 'yearPrecision']);
    const texts = await db.artworkText.findMany({ where: { storySource: 'translation' } });
    expect(texts).toHaveLength(30);
    expect(texts.find((t) => t.locale === 'ja')!.story).toMatch(/^Story \(ja\) of /);
  });

  test('the rest from the templates; then a publish run puts them in /v1/artworks and /v1/taxa', async () => {
    const result = await writeStories(db, null);
    expect(result).toMatchObject({ written: 45, remaining: 0 });
    const template = await db.artworkText.findFirstOrThrow({ where: { storySource: 'template', locale: 'en', artwork: { wikidataId: 'Q2955000' } } });
    expect(template.story).toBe(
      'Rubens Panel A is a painting by Peter Paul Rubens. It dates from 1610. It measures 100 × 150 cm. It is held by Louvre Museum. It belongs to Baroque. Genre: Portrait.',
    );

    // Their six titles (stand-ins: no model), as the stories job completes them.
    await translateTitles(db, null);
    // Their six titles (stand-ins: no model), as the stories job completes them.
    await translateTitles(db, null);
    // Their six titles (stand-ins: no model), as the stories job completes them.
    await translateTitles(db, null);
    const run = await publishRun(db, { perDay: 300, baseUrl: 'https://shop.example', trigger: 'cli' });
    // Raphael (6 ready works), Ada Brandt (5) and Hilma Nordqvist (6) cannot be introduced: a new artist needs a block of 10
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
    expect(result).toEqual({ written: 1, translated: 5 }); // and its five other titles (stand-ins: no model)
  });
});

describe('how many painters a run takes (a generated graph of 23 qualifying painters)', () => {
  let own20: Awaited<ReturnType<typeof ownDatabase>>;
  let big: Awaited<ReturnType<typeof startWikidataServer>>;
  // 20 painters with 6 paintings and 3 with 5: a run of the default size takes exactly the first 20.
  const painters = Array.from({ length: 23 }, (_, i) => ({ qid: `Q98${String(i).padStart(4, '0')}`, works: i < 20 ? 6 : 5 }));
  beforeAll(async () => {
    own20 = await ownDatabase('ingest20');
    big = await startWikidataServer({
      fixtures: false,
      turtle: [
        graphTurtle(
          painters.flatMap((p, i) => [
            painter({ qid: p.qid, labels: { en: `Generated Painter ${i}` }, born: '1800-01-01', died: `${1850 + i}-06-01` }),
            ...Array.from({ length: p.works }, (_, n) =>
              painting({
                qid: `${p.qid}${n}`,
                creator: p.qid,
                labels: { en: `Generated Work ${i}-${n}` },
                inception: '1840-01-01',
                height: [{ amount: 50, unit: 'Q174728' }],
                width: [{ amount: 40, unit: 'Q174728' }],
                wikipedia: n,
              }),
            ),
          ]),
        ),
      ],
    });
  });
  afterAll(async () => {
    await big.close();
    await own20.drop();
  });

  test('by default 20 painters, those with the most paintings', async () => {
    const run = await ingestCatalog(own20.db, wikidataSource(sparqlClient({ url: big.url })));
    expect(run.painters).toHaveLength(20);
    expect(run.painters.map((p) => p.qid).sort()).toEqual(
      painters
        .slice(0, 20)
        .map((p) => p.qid)
        .sort(),
    );
    expect(run.artworksAdded).toBe(120);
    // the painter list refreshed first (never refreshed before), slice by slice
    expect(await own20.db.painterCandidate.count()).toBe(23);
    expect(big.requests.filter((r) => r.query.includes('(painter paintings)')).length).toBeGreaterThan(0);
  }, 60_000);

  test('the Inngest function takes the painter count of its event', async () => {
    const deps: JobDeps = { db: own20.db, mailer: null, baseUrl: 'https://shop.example', wikidata: wikidataSource(sparqlClient({ url: big.url })) };
    const fn = createFunctions(new Inngest({ id: 'pipeline-test' }), () => deps).find((f) => (f as unknown as { opts: { id: string } }).opts.id === 'catalog.ingest')!;
    const { result, error, ctx } = await new InngestTestEngine({ function: fn, events: [{ name: 'catalog/ingest.requested', data: { painters: 2 } }] }).execute();
    expect(error).toBeUndefined();
    // The list is fresh (the run before refreshed it). One step to plan, one per painter, one to
    // finish: a cut call repeats one painter, never the night.
    const steps = (ctx.step.run as unknown as { mock: { calls: [string][] } }).mock.calls.map(([name]) => name);
    const taken = (result as { painters: { qid: string }[] }).painters.map((p) => `painter ${p.qid}`);
    expect([...new Set(steps)]).toEqual(['is the painter list due', 'plan the run', ...taken, 'finish the run']);
    expect(result).toMatchObject({ artworksAdded: 10 });
    expect((result as { painters: { qid: string }[] }).painters.map((p) => p.qid)).toEqual(['Q980020', 'Q980021']);
    const row = await own20.db.ingestRun.findFirstOrThrow({ orderBy: { id: 'desc' } });
    expect(row).toMatchObject({ trigger: 'staff', worksQueued: 10, outcome: 'done' });
  });
});
