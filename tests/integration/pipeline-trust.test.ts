import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { sparqlClient, wikidataSource, type PaintingFacts } from '@/server/integrations/wikidata';
import { DIED_BEFORE, ingestPainter, type IngestPlan } from '@/server/pipeline/ingest';
import { ownDatabase } from '../support/database';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, itemTurtle, painter, painting, TURTLE_PREFIXES } from '../support/wikidata-graph';

/**
 * Issue 39 item 6, "Data a visitor trusts": a work's date as exactly as Wikidata knows it (a year,
 * c. a year, a decade, a century), the museum a visitor can walk into (the building, P276, before
 * the organisation, P195), and a movement taken from the painter marked as the painter's. The
 * shop's own queries run on Oxigraph over a Wikidata-shaped graph, and the ingest writes into a
 * database of this file's own.
 */

const PAINTER = 'Q97000';
const ALTE_PINAKOTHEK = 'Q154568'; // an art museum (Q207694)
const BAVARIAN_COLLECTIONS = 'Q812285'; // an organisation: what P195 names
const MUNICH = 'Q1726'; // a city: a location, not a museum
const LOUVRE = 'Q19675';
const NATIONAL_MUSEUM = 'Q97900'; // an instance of a subclass of museum
const IMPRESSIONISM = 'Q40415';
const BAROQUE = 'Q37853';

const graph = [
  graphTurtle([
    painter({ qid: PAINTER, labels: { en: 'Ada Vertrauen' }, born: '1830-02-01', died: '1890-03-04', movements: [IMPRESSIONISM] }),
    // A year (day precision) and the painting's own movement.
    painting({ qid: 'Q97001', creator: PAINTER, labels: { en: 'Plain Year' }, inception: '1650-05-01', collections: [LOUVRE], movements: [BAROQUE] }),
    // c. 1650, in the organisation's collection and in the museum building: the building.
    painting({
      qid: 'Q97002',
      creator: PAINTER,
      labels: { en: 'Circa Year' },
      inception: { date: '1650-01-01', precision: 9, circa: true },
      collections: [BAVARIAN_COLLECTIONS],
      locations: [ALTE_PINAKOTHEK],
    }),
    // The 1650s (written 1655), located in a city: the collection stays.
    painting({
      qid: 'Q97003',
      creator: PAINTER,
      labels: { en: 'A Decade' },
      inception: { date: '1655-01-01', precision: 8 },
      collections: [BAVARIAN_COLLECTIONS],
      locations: [MUNICH],
    }),
    // The 17th century written 1650; a location of a museum subclass beside the Louvre's collection.
    painting({
      qid: 'Q97004',
      creator: PAINTER,
      labels: { en: 'A Century' },
      inception: { date: '1650-01-01', precision: 7 },
      collections: [LOUVRE],
      locations: [NATIONAL_MUSEUM],
    }),
    // The 17th century written 1700 beside the year 1688: the finer date wins.
    painting({
      qid: 'Q97005',
      creator: PAINTER,
      labels: { en: 'Finer Wins' },
      inception: [
        { date: '1700-01-01', precision: 7 },
        { date: '1688-01-01', precision: 9 },
      ],
      collections: [LOUVRE],
    }),
    // A millennium (coarser than a century) beside a deprecated year: no year at all.
    painting({
      qid: 'Q97006',
      creator: PAINTER,
      labels: { en: 'No Year' },
      inception: [
        { date: '1000-01-01', precision: 6 },
        { date: '1500-01-01', precision: 9, rank: 'deprecated' },
      ],
    }),
    // The 17th century written 1601; a museum it left (end time): the collection stays.
    painting({
      qid: 'Q97007',
      creator: PAINTER,
      labels: { en: 'Former Location' },
      inception: { date: '1601-01-01', precision: 7 },
      collections: [LOUVRE],
      locations: [{ value: ALTE_PINAKOTHEK, qualifiers: { P582: '1900-01-01' } }],
    }),
    // A preferred c. 1655 beside a normal 1650: the best rank before the earliest.
    painting({
      qid: 'Q97008',
      creator: PAINTER,
      labels: { en: 'Preferred Circa' },
      inception: [
        { date: '1655-01-01', precision: 9, circa: true, rank: 'preferred' },
        { date: '1650-01-01', precision: 9 },
      ],
    }),
  ]),
  TURTLE_PREFIXES +
    [
      itemTurtle({ qid: ALTE_PINAKOTHEK, labels: { en: 'Alte Pinakothek', de: 'Alte Pinakothek' }, items: { P31: ['Q207694'] } }),
      itemTurtle({ qid: BAVARIAN_COLLECTIONS, labels: { en: 'Bavarian State Painting Collections', de: 'Bayerische Staatsgemäldesammlungen' }, items: { P31: ['Q43229'] } }),
      itemTurtle({ qid: MUNICH, labels: { en: 'Munich', de: 'München' }, items: { P31: ['Q515'] } }),
      itemTurtle({ qid: NATIONAL_MUSEUM, labels: { en: 'Museum of the Nation' }, items: { P31: ['Q97901'] } }),
      itemTurtle({ qid: 'Q97901', labels: { en: 'national museum' }, items: { P279: ['Q33506'] } }),
      itemTurtle({ qid: LOUVRE, labels: { en: 'Louvre' }, items: { P31: ['Q207694'] } }),
      itemTurtle({ qid: IMPRESSIONISM, labels: { en: 'Impressionism' } }),
      itemTurtle({ qid: BAROQUE, labels: { en: 'Baroque' } }),
    ].join('\n'),
];

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let wdqs: Awaited<ReturnType<typeof startWikidataServer>>;
let facts: Map<string, PaintingFacts>;
const source = () => wikidataSource(sparqlClient({ url: wdqs.url }));

beforeAll(async () => {
  own = await ownDatabase('trust');
  db = own.db;
  wdqs = await startWikidataServer({ fixtures: false, turtle: graph });
  facts = new Map((await source().paintings(PAINTER, { diedBefore: DIED_BEFORE })).map((p) => [p.qid, p]));
}, 120_000);
afterAll(async () => {
  await wdqs.close();
  await own.drop();
});

describe('facts as Wikidata states them', () => {
  test('dates with their precision: best rank, then finest, then earliest; a century stored as its first year', () => {
    const dates = Object.fromEntries([...facts].map(([q, p]) => [q, [p.year, p.yearPrecision]]));
    expect(dates).toEqual({
      Q97001: [1650, 'year'],
      Q97002: [1650, 'circa'],
      Q97003: [1650, 'decade'],
      Q97004: [1601, 'century'],
      Q97005: [1688, 'year'],
      Q97006: [null, 'year'],
      Q97007: [1601, 'century'],
      Q97008: [1655, 'circa'],
    });
  });

  test('the museum: a museum location other than the collection, else the collection', () => {
    const museums = Object.fromEntries([...facts].map(([q, p]) => [q, p.museums]));
    expect(museums).toMatchObject({
      Q97001: [LOUVRE],
      Q97002: [ALTE_PINAKOTHEK], // the building, not Bavarian State Painting Collections
      Q97003: [BAVARIAN_COLLECTIONS], // Munich is a city
      Q97004: [NATIONAL_MUSEUM], // an instance of a subclass of museum
      Q97007: [LOUVRE], // the museum it left is no location now
    });
    // The collection itself is kept (titles are stripped of its name).
    expect(facts.get('Q97002')!.collections).toEqual([BAVARIAN_COLLECTIONS]);
  });

  test("movements: the painting's own, else its painter's, marked so", () => {
    expect(facts.get('Q97001')).toMatchObject({ movements: [BAROQUE], movementsOfPainter: false });
    expect(facts.get('Q97002')).toMatchObject({ movements: [IMPRESSIONISM], movementsOfPainter: true });
  });

  test('the facts query stays one row per value: a date with circa is two rows, a museum location one', () => {
    const asked = wdqs.requests.filter((r) => r.query.includes('(painting facts)'));
    expect(asked.length).toBeGreaterThan(0);
    // 8 paintings: 9 best-rank inception values (a deprecated and an outranked one left out), 2 circa
    // qualifiers, 6 collections, 2 museum locations (the city and the former one left out), 1 own
    // movement, 8 images.
    expect(asked.reduce((n, r) => n + r.rows, 0)).toBe(9 + 2 + 6 + 2 + 1 + 8);
  });
});

describe('the ingest writes what a visitor is shown', () => {
  test('year precision, the museum a visitor knows, and movements via the painter', async () => {
    const run = await db.ingestRun.create({ data: { trigger: 'cli', startedAt: new Date() } });
    const plan: IngestPlan = {
      runId: run.id,
      queuedBefore: 0,
      startedAt: new Date().toISOString(),
      skipped: null,
      work: [{ qid: PAINTER, birthYear: 1830, deathYear: 1890, retry: false }],
      queries: [],
    };
    const step = await ingestPainter(db, source(), plan, 0);
    expect(step).toMatchObject({ outcome: 'written', added: 8 });
    const works = await db.artwork.findMany({
      where: { artist: { wikidataId: PAINTER } },
      include: { taxa: { include: { taxon: true } } },
      orderBy: { wikidataId: 'asc' },
    });
    expect(works.map((w) => [w.wikidataId, w.year, w.yearPrecision])).toEqual([
      ['Q97001', 1650, 'year'],
      ['Q97002', 1650, 'circa'],
      ['Q97003', 1650, 'decade'],
      ['Q97004', 1601, 'century'],
      ['Q97005', 1688, 'year'],
      ['Q97006', null, 'year'],
      ['Q97007', 1601, 'century'],
      ['Q97008', 1655, 'circa'],
    ]);
    const links = (qid: string, kind: string) =>
      works
        .find((w) => w.wikidataId === qid)!
        .taxa.filter((l) => l.taxon.kind === kind)
        .map((l) => [l.taxon.slug, l.viaPainter]);
    expect(links('Q97002', 'museum')).toEqual([['alte-pinakothek', false]]);
    expect(links('Q97003', 'museum')).toEqual([['bavarian-state-painting-collections', false]]);
    expect(links('Q97001', 'movement')).toEqual([['baroque', false]]);
    expect(links('Q97002', 'movement')).toEqual([['impressionism', true]]);
    // Only movements are ever marked as the painter's.
    expect(works.flatMap((w) => w.taxa.filter((l) => l.viaPainter && l.taxon.kind !== 'movement'))).toEqual([]);
  });
});
