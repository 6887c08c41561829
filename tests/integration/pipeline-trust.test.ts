import { readFileSync } from 'node:fs';
import { createTranslator } from 'next-intl';
import { isValidElement, type ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { formatWorkDate, type CatalogTranslator } from '@/lib/work-date';
import { recountCatalog } from '@/server/catalog/counts';
import { artworkDetail, artworksBySlugs } from '@/server/catalog/service';
import type { Db } from '@/server/db/client';
import { sparqlClient, wikidataSource, type PaintingFacts } from '@/server/integrations/wikidata';
import { DIED_BEFORE, ingestPainter, type IngestPlan } from '@/server/pipeline/ingest';
import { templateStory, type StoryFacts } from '@/server/pipeline/stories';
import type { DatePrecision } from '@/shared/catalog';
import { locales, type Locale } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { rest } from '../support/rest';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, itemTurtle, painter, painting, TURTLE_PREFIXES } from '../support/wikidata-graph';

/**
 * Issue 39 item 6, "Data a visitor trusts": a work's date as exactly as Wikidata knows it (a year,
 * c. a year, a decade, a century), the museum a visitor can walk into (the building, P276, before
 * the organisation, P195), and a movement taken from the painter marked as the painter's. The
 * shop's own queries run on Oxigraph over a Wikidata-shaped graph, and the ingest writes into a
 * database of this file's own, which the artwork page then reads through the real procedures
 * (next-intl's request config is Next's: here the real messages of the page's locale).
 */

const messages = (locale: Locale) => JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8'));
let requestLocale: Locale = 'en';
vi.mock('next-intl/server', () => ({
  setRequestLocale: (locale: Locale) => void (requestLocale = locale),
  getTranslations: async (arg: string | { locale: Locale; namespace: string }) =>
    typeof arg === 'string'
      ? createTranslator({ locale: requestLocale, namespace: arg, messages: messages(requestLocale) })
      : createTranslator({ locale: arg.locale, namespace: arg.namespace, messages: messages(arg.locale) }),
  getMessages: async () => messages(requestLocale),
}));
// The page is only built here, never rendered in a browser: Next's and next-intl's navigation are stand-ins.
vi.mock('next/navigation', () => ({
  notFound: () => {
    throw new Error('notFound');
  },
  useRouter: () => ({}),
  usePathname: () => '/',
  useSearchParams: () => new URLSearchParams(),
}));
vi.mock('@/i18n/navigation', () => ({ Link: 'a', useRouter: () => ({}), usePathname: () => '/' }));
const catalogT = (locale: Locale) => createTranslator({ locale, namespace: 'Catalog', messages: messages(locale) }) as unknown as CatalogTranslator;

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
  // The page reads through the app's own client (db()): this file's database.
  process.env.DATABASE_URL = own.url;
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

describe('dates in the seven languages', () => {
  const forms: Record<Locale, Record<DatePrecision, string>> = {
    en: { year: '1650', circa: 'c. 1650', decade: '1650s', century: '17th century' },
    de: { year: '1650', circa: 'um 1650', decade: '1650er Jahre', century: '17. Jahrhundert' },
    fr: { year: '1650', circa: 'vers 1650', decade: 'années 1650', century: 'XVIIe siècle' },
    es: { year: '1650', circa: 'h. 1650', decade: 'década de 1650', century: 'siglo XVII' },
    it: { year: '1650', circa: '1650 circa', decade: 'anni 1650', century: 'XVII secolo' },
    ja: { year: '1650', circa: '1650年頃', decade: '1650年代', century: '17世紀' },
    vi: { year: '1650', circa: 'khoảng năm 1650', decade: 'thập niên 1650', century: 'thế kỷ 17' },
  };
  test('year, circa, decade and century, the year never grouped (1,650)', () => {
    expect(Object.keys(forms).sort()).toEqual([...locales].sort());
    for (const locale of locales) {
      const t = catalogT(locale);
      for (const precision of ['year', 'circa', 'decade', 'century'] as const) {
        expect(formatWorkDate(t, precision === 'century' ? 1601 : 1650, precision), `${locale} ${precision}`).toBe(forms[locale][precision]);
      }
      expect(formatWorkDate(t, null, 'circa')).toBeNull();
    }
  });

  test('ordinals and Roman numerals of other centuries', () => {
    const century = (locale: Locale, year: number) => formatWorkDate(catalogT(locale), year, 'century');
    expect([101, 201, 1001, 1101, 1201, 1901, 2001].map((y) => century('en', y))).toEqual([
      '2nd century',
      '3rd century',
      '11th century',
      '12th century',
      '13th century',
      '20th century',
      '21st century',
    ]);
    expect(century('fr', 1)).toBe('Ier siècle');
    expect(century('fr', 1801)).toBe('XIXe siècle');
    expect(century('es', 1401)).toBe('siglo XV');
    expect(century('it', 1901)).toBe('XX secolo');
  });

  test('the template stories say it as exactly, in the six catalog languages', () => {
    const facts: StoryFacts = {
      title: { en: 'Irises' },
      artist: { en: 'Ada' },
      year: 1650,
      yearPrecision: 'year',
      heightCm: null,
      widthCm: null,
      museum: null,
      movement: null,
      genre: null,
    };
    const sentences = (precision: DatePrecision, year = 1650) =>
      Object.fromEntries((['en', 'es', 'fr', 'de', 'it', 'ja'] as const).map((l) => [l, templateStory({ ...facts, year, yearPrecision: precision }, l)]));
    expect(sentences('year')).toMatchObject({ en: expect.stringContaining('It dates from 1650.'), de: expect.stringContaining('Es entstand 1650.') });
    const circa = sentences('circa');
    expect(circa.en).toContain('It dates from about 1650.');
    expect(circa.es).toContain('Data de hacia 1650.');
    expect(circa.fr).toContain('Il date des environs de 1650.');
    expect(circa.de).toContain('Es entstand um 1650.');
    expect(circa.it).toContain('Risale al 1650 circa.');
    expect(circa.ja).toContain('制作年は1650年頃です。');
    const decade = sentences('decade');
    expect(decade.en).toContain('It dates from the 1650s.');
    expect(decade.es).toContain('Data de la década de 1650.');
    expect(decade.fr).toContain('Il date des années 1650.');
    expect(decade.de).toContain('Es entstand in den 1650er Jahren.');
    expect(decade.it).toContain('Risale agli anni 1650.');
    expect(decade.ja).toContain('1650年代の作品です。');
    const century = sentences('century', 1601);
    expect(century.en).toContain('It dates from the 17th century.');
    expect(century.es).toContain('Data del siglo XVII.');
    expect(century.fr).toContain('Il date du XVIIe siècle.');
    expect(century.de).toContain('Es entstand im 17. Jahrhundert.');
    expect(century.it).toContain('Risale al XVII secolo.');
    expect(century.ja).toContain('17世紀の作品です。');
    // Never the stored first year of a century as if it were the date.
    for (const text of Object.values(century)) expect(text).not.toContain('1601');
  });
});

/** Every string of a tree as the page returns it (components' props included), without rendering them. */
function strings(node: ReactNode, out: string[] = []): string[] {
  if (typeof node === 'string' || typeof node === 'number') out.push(String(node));
  else if (Array.isArray(node)) for (const child of node) strings(child as ReactNode, out);
  else if (isValidElement<Record<string, unknown>>(node)) strings(node.props.children as ReactNode, out);
  return out;
}
/** The structured data a page's JsonLd element carries. */
function jsonLd(node: ReactNode): Record<string, unknown>[] {
  if (Array.isArray(node)) return node.flatMap((child) => jsonLd(child as ReactNode));
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  if (Array.isArray(node.props.data)) return node.props.data as Record<string, unknown>[];
  return jsonLd(node.props.children as ReactNode);
}

describe('the catalog read model and the artwork page', () => {
  beforeAll(async () => {
    await db.artwork.updateMany({ where: { artist: { wikidataId: PAINTER } }, data: { status: 'published', publishedAt: new Date() } });
    await db.artist.updateMany({ where: { wikidataId: PAINTER }, data: { status: 'published' } });
    await recountCatalog(db);
  });

  test('cards and the detail carry the precision; a movement from the painter is marked', async () => {
    const detail = await artworkDetail(db, 'circa-year', 'en');
    expect(detail.artwork).toMatchObject({ year: 1650, yearPrecision: 'circa' });
    expect(detail.artwork.taxa.filter((t) => t.kind === 'movements')).toEqual([expect.objectContaining({ slug: 'impressionism', viaPainter: true })]);
    expect(detail.artwork.taxa.filter((t) => t.kind === 'museums')).toEqual([expect.objectContaining({ slug: 'alte-pinakothek', viaPainter: false })]);
    // Related works are cards too, from the same statement.
    expect(detail.related.find((c) => c.slug === 'a-century')).toMatchObject({ year: 1601, yearPrecision: 'century' });
    const own = await artworkDetail(db, 'plain-year', 'en');
    expect(own.artwork.taxa.filter((t) => t.kind === 'movements')).toEqual([expect.objectContaining({ slug: 'baroque', viaPainter: false })]);
    const cards = await artworksBySlugs(db, ['a-decade', 'a-century', 'plain-year'], 'en');
    expect(cards.map((c) => [c.slug, c.year, c.yearPrecision])).toEqual([
      ['a-decade', 1650, 'decade'],
      ['a-century', 1601, 'century'],
      ['plain-year', 1650, 'year'],
    ]);
    // /v1 keeps its fields and adds these two.
    const answer = await rest('GET', '/artworks/circa-year', { db });
    expect(answer.status).toBe(200);
    expect(answer.body.artwork).toMatchObject({ slug: 'circa-year', year: 1650, yearPrecision: 'circa' });
    expect(answer.body.artwork.taxa.find((t: { kind: string }) => t.kind === 'movements')).toMatchObject({ slug: 'impressionism', viaPainter: true });
    // A movement from the painter counts toward its browse page (counts.ts): the page lists the work.
    const impressionism = await rest('GET', '/taxa/movements/impressionism', { db });
    expect(impressionism.body.works.items.map((c: { slug: string }) => c.slug)).toContain('circa-year');
    const list = await rest('GET', '/artworks', { db, query: { artist: 'ada-vertrauen' } });
    expect(list.body.items.find((c: { slug: string }) => c.slug === 'a-decade')).toMatchObject({ year: 1650, yearPrecision: 'decade' });
  });

  test("the page shows the date as exactly as it is known and the painter's movement as the painter's, in seven languages", async () => {
    const { default: ArtworkPage } = await import('@/app/[locale]/artworks/[slug]/page');
    const page = async (locale: Locale, slug: string) => {
      const tree = await ArtworkPage({ params: Promise.resolve({ locale, slug }) });
      return { text: strings(tree), data: jsonLd(tree) };
    };
    for (const locale of locales) {
      const circa = await page(locale, 'circa-year');
      const m = messages(locale);
      expect(circa.text, locale).toContain(formatWorkDate(catalogT(locale), 1650, 'circa'));
      expect(circa.text, locale).toContain(m.Artwork.facts.movementOfPainter);
      expect(circa.text, locale).not.toContain(m.Artwork.facts.movement);
      const plain = await page(locale, 'plain-year');
      expect(plain.text, locale).toContain(m.Artwork.facts.movement);
      expect(plain.text, locale).not.toContain(m.Artwork.facts.movementOfPainter);
    }
    const en = await page('en', 'a-century');
    expect(en.text).toContain('17th century');
    expect(en.text).not.toContain('1601');
    // dateCreated is a plain year only when the year is known to the year.
    const artwork = (data: Record<string, unknown>[]) => data.find((d) => d['@type'] === 'VisualArtwork')!;
    expect(artwork(en.data)).not.toHaveProperty('dateCreated');
    expect(artwork((await page('en', 'circa-year')).data)).not.toHaveProperty('dateCreated');
    expect(artwork((await page('en', 'plain-year')).data)).toMatchObject({ dateCreated: '1650' });
    expect((await page('ja', 'a-decade')).text).toContain('1650年代');
  });
});
