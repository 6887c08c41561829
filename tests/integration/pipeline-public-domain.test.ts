import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { DIED_BEFORE } from '@/server/pipeline/ingest';
import { startWikidataServer } from '../support/wikidata';
import { graphTurtle, painter, painting, type DateValue, type ItemSpec, type Statement } from '../support/wikidata-graph';

/**
 * Issue #39 item 3, the public-domain rule (docs/pipeline.md): every creator of a painting died
 * before 1926 with at least year precision; decades and centuries only when their last year is
 * before it; unknown or disagreeing death dates, anonymous hands, co-creators who died later and
 * "attributed to" / "possibly" works stay out, and never count toward a painter's five.
 */

const rule = { diedBefore: DIED_BEFORE, minPaintings: 5 };
let wdqs: Awaited<ReturnType<typeof startWikidataServer>>;
const source = () => wikidataSource(sparqlClient({ url: wdqs.url, retry: { sleep: async () => undefined } }));

/** A painter with `plain` paintings plainly theirs, and `extra` others as given. */
function painterWith(
  qid: string,
  died: DateValue | DateValue[],
  plain: number,
  extra: { coCreators?: (string | Statement<string>)[]; creator?: Statement<string> }[] = [],
): ItemSpec[] {
  return [
    painter({ qid, labels: { en: `Painter ${qid}` }, born: '1800-01-01', died }),
    ...Array.from({ length: plain }, (_, n) => painting({ qid: `${qid}0${n}`, creator: qid, labels: { en: `Work ${qid}-${n}` } })),
    ...extra.map((e, n) => painting({ qid: `${qid}9${n}`, creator: e.creator ?? qid, coCreators: e.coCreators, labels: { en: `Other ${qid}-${n}` } })),
  ];
}

const ANONYMOUS = 'Q4233718';
beforeAll(async () => {
  wdqs = await startWikidataServer({
    fixtures: false,
    turtle: [
      graphTurtle([
        // Died 1900: five plain works; a sixth painted with one who died in 1960, a seventh with
        // one who died in 1890, an eighth with an anonymous hand, two attributed or "possibly".
        ...painterWith('Q97001', '1900-05-05', 5, [
          { coCreators: ['Q97090'] },
          { coCreators: ['Q97091'] },
          { coCreators: [ANONYMOUS] },
          { creator: { value: 'Q97001', qualifiers: { P5102: 'Q230768' } } },
          { creator: { value: 'Q97001', qualifiers: { P1480: 'Q18122778' } } },
        ]),
        painter({ qid: 'Q97090', labels: { en: 'Later co-creator' }, died: '1960-01-01' }),
        painter({ qid: 'Q97091', labels: { en: 'Earlier co-creator' }, died: '1890-01-01' }),
        { qid: ANONYMOUS, labels: { en: 'anonymous' }, items: { P31: ['Q4167410'] } },
        // "1920s" (decade precision): may have died in 1929.
        ...painterWith('Q97002', { date: '1920-01-01', precision: 8 }, 6),
        // "1910s": died by 1919 at the latest.
        ...painterWith('Q97003', { date: '1910-01-01', precision: 8 }, 6),
        // "19th century", written 1850: by 1900 at the latest.
        ...painterWith('Q97004', { date: '1850-01-01', precision: 7 }, 6),
        // "20th century", written 1901 (as Wikidata often does): may have died in 2000.
        ...painterWith('Q97005', { date: '1901-01-01', precision: 7 }, 6),
        // Unknown value.
        ...painterWith('Q97006', 'unknown', 6),
        // Two dates that disagree: 1910 and 1930.
        ...painterWith('Q97007', ['1910-01-01', '1930-01-01'], 6),
        // 1910, and a deprecated 1930 (a known error): 1910 stands.
        ...painterWith('Q97008', ['1910-01-01', { date: '1930-01-01', precision: 11, rank: 'deprecated' }], 6),
        // Year precision, 1925: in.
        ...painterWith('Q97009', { date: '1925-01-01', precision: 9 }, 6),
        // Two death dates, 1840 and 1860 (both in): the painter straddles two death-year slices.
        ...painterWith('Q97011', ['1840-01-01', '1860-01-01'], 6),
        // Four plain works and three attributed ones: not five of their own.
        ...painterWith('Q97010', '1880-01-01', 4, [
          { creator: { value: 'Q97010', qualifiers: { P5102: 'Q230768' } } },
          { creator: { value: 'Q97010', qualifiers: { P1480: 'Q18122778' } } },
          { creator: { value: 'Q97010', qualifiers: { P5102: 'Q18122778' } } },
        ]),
      ]),
    ],
  });
});
afterAll(async () => wdqs.close());

describe('the public-domain rule', () => {
  test('only painters whose every death date is before 1926 with year precision, or a decade or century ending before it, qualify', async () => {
    const qualifying = (await source().painters(rule)).map((p) => p.qid).sort();
    expect(qualifying).toEqual(['Q97001', 'Q97003', 'Q97004', 'Q97008', 'Q97009', 'Q97011']);
  });

  test('a painter whose death dates fall in two slices is listed once when the list is asked in slices', async () => {
    wdqs.control.failures = ['timeout'];
    const listed = (await source().painters(rule)).map((p) => p.qid);
    expect(wdqs.requests.some((r) => r.query.includes('(painters died'))).toBe(true);
    expect(listed.filter((q) => q === 'Q97011')).toEqual(['Q97011']);
    expect([...listed].sort()).toEqual(['Q97001', 'Q97003', 'Q97004', 'Q97008', 'Q97009', 'Q97011']);
  });

  test("a painter's paintings: only those plainly theirs, and every co-creator died in the public domain", async () => {
    const works = (await source().paintings('Q97001', rule)).map((p) => p.qid).sort();
    // Five plain works and the one painted with the co-creator who died in 1890.
    expect(works).toEqual(['Q9700100', 'Q9700101', 'Q9700102', 'Q9700103', 'Q9700104', 'Q9700191']);
  });

  test('attributed works never count toward the five', async () => {
    const counted = (await source().painters({ ...rule, minPaintings: 4 })).find((p) => p.qid === 'Q97010');
    expect(counted?.paintings).toBe(4);
    expect((await source().paintings('Q97010', rule)).map((p) => p.qid).sort()).toEqual(['Q9701000', 'Q9701001', 'Q9701002', 'Q9701003']);
  });
});
