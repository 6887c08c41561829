import 'server-only';
import type { DatePrecision } from '@/shared/catalog';
import { catalogLocales } from '@/shared/locales';
import { fetchWithRetry, type RetryOptions } from './http';

/**
 * Wikidata through its SPARQL endpoint (address from WIKIDATA_SPARQL_URL). The pipeline sees only
 * `WikidataSource`: the qualifying painters of a slice of death years, a painter's paintings and
 * labels of items, every query cheap and bounded (docs/pipeline.md "Cheap, bounded queries"). The queries are exactly what the Wikidata Query Service
 * runs; the tests run the same text on Oxigraph over Wikidata-shaped graphs (docs/pipeline.md).
 */
export interface SparqlBinding {
  [variable: string]: { type: string; value: string; datatype?: string; 'xml:lang'?: string } | undefined;
}

/** One query as the run records it: what it was, how long it took, what came back. */
export interface QueryRecord {
  kind: string;
  method: 'GET' | 'POST';
  ms: number;
  rows: number;
  error?: string;
}
export type QueryTrace = (record: QueryRecord) => void;

export interface Sparql {
  select(query: string, info?: { kind?: string; trace?: QueryTrace }): Promise<SparqlBinding[]>;
  /** Waits before a smaller query after a timeout (the service is busy; an identical retry would time out again). */
  backOff(): Promise<void>;
}

/** The query ran out of the service's time (HTTP 500 with a TimeoutException body) or ours. */
export class SparqlTimeoutError extends Error {
  override name = 'SparqlTimeoutError';
}

/**
 * A GET is what the query service caches (for a few minutes, per query text); a POST never is.
 * Queries go by GET unless the address would pass what proxies accept (8 KB is common; we keep
 * a margin), which only long label lists reach.
 */
const MAX_GET_URL = 7_000;

/**
 * WDQS gives each client 60 s of query time a minute and answers 429 past it (and bans a client
 * that ignores 429s). The shop keeps to half of it, by measure: the time its own queries took
 * (their round trips, an upper bound of the service's time) within the last minute.
 */
export const QUERY_TIME_PER_MINUTE_MS = 30_000;

export interface QueryBudget {
  perMinuteMs: number;
  /** The span the budget is counted over (WDQS: a minute). */
  windowMs?: number;
}

/**
 * Query times of the last window; `waitFor()` answers how long to wait before the next query so
 * that the window's total stays under the budget with that query in it, and forgets what that wait
 * lets expire. The next query's cost is not known before it runs: the last one's stands for it (a
 * night asks the same kind of question many times over), so a client just under the budget does
 * not start a heavy query that would take it over.
 */
export function queryTimeKeeper(budget: QueryBudget, now: () => number = () => performance.now()) {
  const windowMs = budget.windowMs ?? 60_000;
  const spent: { at: number; ms: number }[] = [];
  return {
    add: (ms: number) => void spent.push({ at: now(), ms }),
    waitFor(): number {
      const t = now();
      while (spent.length && spent[0]!.at <= t - windowMs) spent.shift();
      const next = spent.at(-1)?.ms ?? 0;
      let total = spent.reduce((n, q) => n + q.ms, 0);
      let wait = 0;
      // Wait until enough of the oldest queries leave the window; counted as gone once waited for.
      while (spent.length && total + next > budget.perMinuteMs) {
        const oldest = spent.shift()!;
        wait = Math.max(wait, oldest.at + windowMs - t);
        total -= oldest.ms;
      }
      return Math.ceil(wait);
    },
  };
}

/**
 * One keeper per endpoint for the whole process: each Inngest step is a call of its own with a
 * client of its own, and the steps of a night must share one account of the minute.
 */
const keepers = new Map<string, ReturnType<typeof queryTimeKeeper>>();
const sharedKeeper = (url: string) => {
  if (!keepers.has(url)) keepers.set(url, queryTimeKeeper({ perMinuteMs: QUERY_TIME_PER_MINUTE_MS }));
  return keepers.get(url)!;
};

export function sparqlClient(options: { url: string; userAgent?: string; retry?: RetryOptions; timeoutBackoffMs?: number; budget?: QueryBudget }): Sparql {
  const retry = options.retry ?? {};
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const keeper = options.budget ? queryTimeKeeper(options.budget) : sharedKeeper(options.url);
  return {
    async select(query, info = {}) {
      const wait = keeper.waitFor();
      if (wait > 0) await sleep(wait);
      const get = `${options.url}${options.url.includes('?') ? '&' : '?'}${new URLSearchParams({ query }).toString()}`;
      const method = get.length <= MAX_GET_URL ? 'GET' : 'POST';
      const headers: Record<string, string> = { accept: 'application/sparql-results+json' };
      const init: RequestInit =
        method === 'GET'
          ? { method, headers }
          : { method, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ query }).toString() };
      const started = performance.now();
      const record = (rows: number, error?: unknown) => {
        keeper.add(performance.now() - started);
        info.trace?.({
          kind: info.kind ?? 'query',
          method,
          ms: Math.round(performance.now() - started),
          rows,
          ...(error ? { error: error instanceof Error ? error.message.slice(0, 200) : String(error) } : {}),
        });
      };
      try {
        const response = await fetchWithRetry(method === 'GET' ? get : options.url, init, {
          timeoutMs: 58_000,
          userAgent: options.userAgent,
          ...retry,
          // A timeout is not retried unchanged: the caller backs off and asks a smaller question.
          stopOn: (status, body) =>
            status === 500 && /TimeoutException/.test(body) ? new SparqlTimeoutError(`The query service ran out of time (${info.kind ?? 'query'})`) : undefined,
          onTimeout: () => new SparqlTimeoutError(`No answer within our timeout (${info.kind ?? 'query'})`),
        });
        const json = (await response.json()) as { results?: { bindings?: SparqlBinding[] } };
        if (!Array.isArray(json.results?.bindings)) throw new Error('The SPARQL endpoint answered without results.bindings');
        record(json.results.bindings.length);
        return json.results.bindings;
      } catch (error) {
        record(0, error);
        throw error;
      }
    },
    backOff: () => sleep(options.timeoutBackoffMs ?? (retry.baseDelayMs ?? 1_000) * 30),
  };
}

export const qid = (uri: string | undefined): string | null => {
  const match = uri?.match(/\/entity\/(Q\d+)$/);
  return match ? match[1]! : null;
};

/** Wikidata's unit items for lengths, in centimetres, in the order a pair is preferred in. */
export const unitsInCm: Record<string, number> = {
  Q174728: 1, // centimetre
  Q174789: 0.1, // millimetre
  Q11573: 100, // metre
  Q218593: 2.54, // inch
  Q3710: 30.48, // foot
};
const unitOrder = Object.keys(unitsInCm);

/** An amount and a unit item → centimetres, one decimal; null for an unknown unit or a senseless value. */
export function toCentimetres(amount: string | number | undefined, unit: string | undefined): number | null {
  const factor = unitsInCm[unit ?? ''];
  const value = Number(amount);
  if (factor === undefined || !Number.isFinite(value) || value <= 0) return null;
  const cm = Math.round(value * factor * 10) / 10;
  return cm > 0 && cm < 1_000_000 ? cm : null;
}

/** The year of an xsd:dateTime as Wikidata writes it ("1889-01-01T00:00:00Z", "-0500-…"). */
export function yearOf(date: string | undefined): number | null {
  const match = date?.match(/^([+-]?\d{1,})-/);
  return match ? Number(match[1]) : null;
}

/** One inception statement as the facts query gives it: time value, wikibase:timePrecision, circa or not. */
export interface InceptionValue {
  time: string | undefined;
  precision: number;
  circa: boolean;
}

/**
 * A work's date as a visitor may be told it, from its best-rank inception statements: the finest
 * precision wins, then the earliest. Year precision or finer (9+) is the year, "c." when the
 * statement has the circa qualifier; a decade (8) is the decade's first year (1650s → 1650); a
 * century (7) is stored as its first year (17th century → 1601). Wikidata writes a century's
 * value as any year in it, 1601, 1650 or 1700 (the 17th century is ceil(year / 100)); a century
 * before year 1 and anything coarser (a millennium) give no year. Circa on a decade or century
 * adds nothing: they are approximate already.
 */
export function chooseInception(values: InceptionValue[]): { year: number | null; yearPrecision: DatePrecision } {
  const usable = values.flatMap((v): { rank: number; year: number; yearPrecision: DatePrecision }[] => {
    const year = yearOf(v.time);
    if (year === null || !Number.isFinite(v.precision)) return [];
    if (v.precision >= 9) return [{ rank: 9, year, yearPrecision: v.circa ? 'circa' : 'year' }];
    if (v.precision === 8) return [{ rank: 8, year: Math.floor(year / 10) * 10, yearPrecision: 'decade' }];
    if (v.precision === 7 && year >= 1) return [{ rank: 7, year: (Math.ceil(year / 100) - 1) * 100 + 1, yearPrecision: 'century' }];
    return [];
  });
  // Finest first, then earliest; at one year a plain date before a circa one.
  const best = usable.sort((a, b) => b.rank - a.rank || a.year - b.year || (a.yearPrecision === 'circa' ? 1 : 0) - (b.yearPrecision === 'circa' ? 1 : 0))[0];
  return best ? { year: best.year, yearPrecision: best.yearPrecision } : { year: null, yearPrecision: 'year' };
}

/**
 * The museums a visitor knows: a current best-rank location (P276) that is a museum (Alte
 * Pinakothek) when there is one not among the collections (the collection is often the
 * organisation: Bavarian State Painting Collections); otherwise the current collections.
 */
export function chooseMuseums(collections: string[], museumLocations: string[]): string[] {
  const locations = [...new Set(museumLocations)].filter((q) => q !== PRIVATE_COLLECTION);
  return locations.some((q) => !collections.includes(q)) ? locations : collections;
}

/** A Commons file name from the Special:FilePath address Wikidata gives for P18. */
export function commonsFile(uri: string | undefined): string | null {
  if (!uri) return null;
  const name = decodeURIComponent(uri.replace(/^https?:\/\/commons\.wikimedia\.org\/wiki\/Special:FilePath\//, ''));
  return name ? name.replace(/_/g, ' ').slice(0, 400) : null;
}

type Rank = 'PreferredRank' | 'NormalRank';
const rankOrder = (r: string) => (r === 'PreferredRank' ? 0 : 1);
interface Measure {
  rank: string;
  cm: number;
  unit: string;
}
/** "NormalRank|73.7|Q174728 PreferredRank|29|Q218593" (the query's GROUP_CONCAT) → usable measures. */
function measures(text: string | undefined): Measure[] {
  return (text ?? '').split(/\s+/).flatMap((part) => {
    const [rank, amount, unit] = part.split('|');
    const cm = toCentimetres(amount, unit);
    return cm !== null && (rank === 'PreferredRank' || rank === 'NormalRank') ? [{ rank: rank as Rank, cm, unit: unit! }] : [];
  });
}

/**
 * Height and width as one consistent pair, or neither: the query has already left out deprecated
 * statements and those about a part (P518: the frame, a visible part). Each side takes its best
 * rank (preferred over normal); among what is left a pair in one unit wins (a canvas measured in
 * centimetres and in inches is not mixed), centimetres before millimetres, metres, inches, feet.
 */
export function chooseDimensions(heights: string | undefined, widths: string | undefined): { heightCm: number | null; widthCm: number | null } {
  const best = (all: Measure[]) => {
    const top = Math.min(...all.map((m) => rankOrder(m.rank)));
    return all.filter((m) => rankOrder(m.rank) === top);
  };
  const h = measures(heights);
  const w = measures(widths);
  if (!h.length || !w.length) return { heightCm: null, widthCm: null };
  const hs = best(h);
  const ws = best(w);
  const byUnit = (a: Measure, b: Measure) => unitOrder.indexOf(a.unit) - unitOrder.indexOf(b.unit) || a.cm - b.cm;
  for (const height of [...hs].sort(byUnit)) {
    const width = ws.filter((m) => m.unit === height.unit).sort(byUnit)[0];
    if (width) return { heightCm: height.cm, widthCm: width.cm };
  }
  return { heightCm: [...hs].sort(byUnit)[0]!.cm, widthCm: [...ws].sort(byUnit)[0]!.cm };
}

/** "NormalRank|Q19675 PreferredRank|Q160236" → the current collections of the best rank present. */
export function currentCollections(text: string | undefined): string[] {
  const all = (text ?? '').split(/\s+/).flatMap((part) => {
    const [rank, q] = part.split('|');
    return q && /^Q\d+$/.test(q) ? [{ rank: rankOrder(rank ?? ''), q }] : [];
  });
  const top = Math.min(...all.map((c) => c.rank));
  return [...new Set(all.filter((c) => c.rank === top).map((c) => c.q))];
}

const TOOL = '#TOOL: atelier-prints catalog ingest';
/** The labels an ingest asks for: one per catalog language. */
export const labelLanguages = catalogLocales;
/** Wikidata's "default for all languages" label (since 2024), used where a language has none of its own. */
export const MUL = 'mul';
/** "private collection": a painting there has no museum a shopper could visit. */
export const PRIVATE_COLLECTION = 'Q768717';
/** "circa", as a P1480 "sourcing circumstances" qualifier of an inception (P571): c. 1650. */
export const CIRCA = 'Q5727902';
/**
 * Museum (Q33506) and art museum (Q207694): a location (P276) is a museum a visitor can walk into
 * when it is an instance of one of these or of a direct subclass of one (one `wdt:P279` step, so
 * the path stays bounded: Alte Pinakothek is an art museum, Munich is a city).
 */
export const MUSEUM_CLASSES = ['Q33506', 'Q207694'] as const;

/**
 * Qualifiers of a creator statement (P170) that make it anything but a plain "painted by": the
 * nature of the statement (P5102: attribution, possibly, disputed), its sourcing circumstances
 * (P1480: presumably, circa), and attributed to, workshop of, follower of, circle of, manner of,
 * possible creator, school of (P1773–P1780, usually on an unknown-value creator). Such works are
 * neither sold under the painter's name nor counted toward the painter's five (docs/pipeline.md).
 */
export const UNCERTAIN_CREATOR_QUALIFIERS = ['P5102', 'P1480', 'P1773', 'P1774', 'P1775', 'P1776', 'P1777', 'P1779', 'P1780'] as const;

/**
 * A death date that puts a person's works in the public domain: before `diedBefore` with at least
 * year precision (wikibase:timePrecision 9 or finer), or a decade (8) or century (7) whose last year
 * is before it. A century's last year is taken as the hundred after the value's ("1901" or "1999"
 * → 2000; "1900" → 2000 too: Wikidata writes centuries both ways, and the later reading is the safe
 * one). Anything coarser, an unknown value (no time value) or a missing date never qualifies.
 */
function publicDomainDate(time: string, precision: string, diedBefore: number): string {
  return `((${precision} >= 9 && YEAR(${time}) < ${diedBefore}) || (${precision} = 8 && FLOOR(YEAR(${time}) / 10) * 10 + 9 < ${diedBefore}) || (${precision} = 7 && FLOOR(YEAR(${time}) / 100) * 100 + 100 < ${diedBefore}))`;
}

/**
 * `person`'s works are in the public domain: at least one death date that qualifies, and no death
 * date (deprecated ones aside) that does not: two dates that disagree are read the unsafe way.
 * `tag` keeps the variables of each use apart.
 */
export function diedInPublicDomain(person: string, diedBefore: number, tag: string): string {
  const v = (name: string) => `?${tag}${name}`;
  return `FILTER EXISTS {
    ${person} p:P570 ${v('Ok')} . ${v('Ok')} wikibase:rank ${v('OkRank')} ; psv:P570 ${v('OkValue')} .
    ${v('OkValue')} wikibase:timeValue ${v('OkTime')} ; wikibase:timePrecision ${v('OkPrecision')} .
    FILTER (${v('OkRank')} != wikibase:DeprecatedRank && ${publicDomainDate(v('OkTime'), v('OkPrecision'), diedBefore)})
  }
  FILTER NOT EXISTS {
    ${person} p:P570 ${v('Any')} . ${v('Any')} wikibase:rank ${v('AnyRank')} .
    FILTER (${v('AnyRank')} != wikibase:DeprecatedRank)
    FILTER NOT EXISTS {
      ${v('Any')} psv:P570 ${v('AnyValue')} . ${v('AnyValue')} wikibase:timeValue ${v('AnyTime')} ; wikibase:timePrecision ${v('AnyPrecision')} .
      FILTER (${publicDomainDate(v('AnyTime'), v('AnyPrecision'), diedBefore)})
    }
  }`;
}

/** `painting` is plainly `painter`'s: a creator statement of best rank naming them with no qualifier of doubt. */
export function plainlyPaintedBy(painting: string, painter: string, tag: string): string {
  return `${painting} p:P170 ?${tag}Creator . ?${tag}Creator ps:P170 ${painter} ; a wikibase:BestRank .
  FILTER NOT EXISTS { ?${tag}Creator ${UNCERTAIN_CREATOR_QUALIFIERS.map((q) => `pq:${q}`).join('|')} ?${tag}Doubt . }`;
}

/**
 * Every other creator of `painting` (a co-creator, an unknown or anonymous hand) died in the public
 * domain too: a painting by a painter who died in 1900 and one who died in 1960 is not free.
 */
export function coCreatorsInPublicDomain(painting: string, painter: string, diedBefore: number): string {
  return `FILTER NOT EXISTS {
    ${painting} wdt:P170 ?coCreator .
    FILTER (?coCreator != ${painter})
    FILTER NOT EXISTS { ?coCreator wdt:P31 ?anything . ${diedInPublicDomain('?coCreator', diedBefore, 'co')} }
  }`;
}

/** One slice of the painter list: painters who died from `from` (inclusive; null: any time before) to `to` (exclusive). */
export interface DeathSlice {
  from: number | null;
  to: number;
}

const instant = (year: number) => `"${year < 0 ? '-' : ''}${String(Math.abs(year)).padStart(4, '0')}-01-01T00:00:00Z"^^xsd:dateTime`;

/**
 * The painters who died in one slice of years, with their dates, in the public domain by the rule
 * above: the first of the painter list's two cheap queries. A range filter on the death date
 * (never `YEAR()`, which WDQS's optimisation guide calls slow), marked `rangeSafe` so WDQS reads it
 * from its date index: the query costs what the slice's deaths cost, never all of Wikidata's
 * paintings. Paged; a painter with two dates or two births has several rows, merged on our side.
 */
export function paintersDiedQuery(slice: DeathSlice, diedBefore: number, limit: number, offset: number): string {
  const range = [slice.from !== null ? `?died >= ${instant(slice.from)}` : null, `?died < ${instant(slice.to)}`].filter(Boolean).join(' && ');
  return `${TOOL} (painters died ${slice.from ?? ''}-${slice.to})
SELECT ?painter ?died ?born WHERE {
  ?painter wdt:P570 ?died .
  hint:Prior hint:rangeSafe true .
  FILTER (${range})
  ?painter wdt:P106 wd:Q1028181 ;
           wdt:P31 wd:Q5 .
  # Most painters on Wikidata have no painting item: those are never counted.
  FILTER EXISTS { ?anyPainting wdt:P170 ?painter ; wdt:P31 wd:Q3305213 . }
  ${diedInPublicDomain('?painter', diedBefore, 'painter')}
  OPTIONAL { ?painter wdt:P569 ?born . }
}
ORDER BY ?painter ?died ?born
LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * How many paintings with an image each of a batch of painters plainly painted, for those with at
 * least `minPaintings`: the second cheap query, its cost the batch's paintings (a batch of 100
 * painters touches a few thousand at most; a batch that times out is asked again in halves).
 */
export function painterPaintingsQuery(painterQids: string[], minPaintings: number): string {
  return `${TOOL} (painter paintings)
SELECT ?painter (COUNT(DISTINCT ?painting) AS ?paintings) WHERE {
  VALUES ?painter { ${painterQids.map((q) => `wd:${q}`).join(' ')} }
  ?painting wdt:P170 ?painter ;
            wdt:P31 wd:Q3305213 ;
            wdt:P18 ?image .
  ${plainlyPaintedBy('?painting', '?painter', 'count')}
}
GROUP BY ?painter
HAVING (COUNT(DISTINCT ?painting) >= ${minPaintings})
ORDER BY ?painter`;
}

/**
 * One page of a painter's paintings, ids only: the cheapest pattern that pages (no OPTIONAL, no
 * grouping before the page), so a page costs what its rows cost however many paintings the
 * painter has. Only paintings plainly theirs, every co-creator in the public domain.
 */
export function paintingIdsQuery(painterQid: string, limit: number, offset: number, diedBefore: number): string {
  return `${TOOL} (painting ids)
SELECT ?painting WHERE {
  VALUES ?painter { wd:${painterQid} }
  ?painting wdt:P170 ?painter ;
            wdt:P31 wd:Q3305213 .
  ${plainlyPaintedBy('?painting', '?painter', 'own')}
  ${coCreatorsInPublicDomain('?painting', '?painter', diedBefore)}
}
ORDER BY ?painting
LIMIT ${limit} OFFSET ${offset}`;
}

/** The facts a painting row carries, one kind a branch of the facts query. */
type Fact = 'image' | 'inception' | 'circa' | 'height' | 'width' | 'collection' | 'location' | 'movement' | 'genre' | 'wikipedia';

/**
 * The facts of a batch of paintings, one row per value: a UNION of one branch per property, so the
 * rows grow with the batch and with each property's own values, never with their product (the
 * OPTIONALs of one grouped query multiplied: 2 heights × 2 widths × 2 collections × 3 movements ×
 * 2 genres made 48 rows of one painting). Paged, so no answer passes `limit` rows. Dimensions
 * come from full statements (rank, unit; deprecated and part-of statements left out), images with
 * their statement (the best rank, the first statement id wins: the same image every run),
 * collections from statements without an end time other than "private collection", locations
 * (P276) of best rank without an end time that are museums, inceptions as full best-rank
 * statements (time value and precision; a "circa" qualifier as a row of its own), popularity
 * from Wikipedia articles only. Depicted subjects have a query of their own (`depictsQuery`).
 */
export function paintingFactsQuery(paintingQids: string[], limit: number, offset: number): string {
  const values = `VALUES ?painting { ${paintingQids.map((q) => `wd:${q}`).join(' ')} }`;
  const quantity = (prop: string, fact: Fact) => `{
    ${values}
    ?painting p:${prop} ?statement .
    ?statement wikibase:rank ?rank ; psv:${prop} [ wikibase:quantityAmount ?amount ; wikibase:quantityUnit ?unit ] .
    FILTER (?rank != wikibase:DeprecatedRank)
    FILTER NOT EXISTS { ?statement pq:P518 ?part . }
    BIND ("${fact}" AS ?fact)
  }`;
  const item = (prop: string, fact: Fact) => `{ ${values} ?painting wdt:${prop} ?value . BIND ("${fact}" AS ?fact) }`;
  return `${TOOL} (painting facts)
SELECT ?painting ?fact ?value ?statement ?rank ?precision ?amount ?unit WHERE {
  {
    ${values}
    ?painting p:P18 ?statement .
    ?statement a wikibase:BestRank ; ps:P18 ?value .
    BIND ("image" AS ?fact)
  }
  UNION {
    ${values}
    ?painting p:P571 ?statement .
    ?statement a wikibase:BestRank ; psv:P571 [ wikibase:timeValue ?value ; wikibase:timePrecision ?precision ] .
    BIND ("inception" AS ?fact)
  }
  UNION {
    ${values}
    ?painting p:P571 ?statement .
    ?statement a wikibase:BestRank ; pq:P1480 wd:${CIRCA} .
    BIND ("circa" AS ?fact)
  }
  UNION ${quantity('P2048', 'height')}
  UNION ${quantity('P2049', 'width')}
  UNION {
    ${values}
    ?painting p:P195 ?statement .
    ?statement wikibase:rank ?rank ; ps:P195 ?value .
    FILTER (?rank != wikibase:DeprecatedRank && ?value != wd:${PRIVATE_COLLECTION})
    FILTER NOT EXISTS { ?statement pq:P582 ?ended . }
    BIND ("collection" AS ?fact)
  }
  UNION {
    ${values}
    ?painting p:P276 ?statement .
    ?statement a wikibase:BestRank ; ps:P276 ?value .
    FILTER NOT EXISTS { ?statement pq:P582 ?ended . }
    FILTER EXISTS { VALUES ?museum { ${MUSEUM_CLASSES.map((q) => `wd:${q}`).join(' ')} } ?value wdt:P31/wdt:P279? ?museum . }
    BIND ("location" AS ?fact)
  }
  UNION ${item('P135', 'movement')}
  UNION ${item('P136', 'genre')}
  UNION {
    SELECT ?painting (COUNT(DISTINCT ?article) AS ?value) ("wikipedia" AS ?fact) WHERE {
      ${values}
      ?article schema:about ?painting ;
               schema:isPartOf ?site .
      ?site wikibase:wikiGroup "wikipedia" .
    }
    GROUP BY ?painting
  }
}
ORDER BY ?painting ?fact ?value ?statement
LIMIT ${limit} OFFSET ${offset}`;
}

/** The subjects a batch of paintings depicts (P180), one row each, paged: some paintings list dozens. */
export function depictsQuery(paintingQids: string[], limit: number, offset: number): string {
  return `${TOOL} (depicts)
SELECT ?painting ?value WHERE {
  VALUES ?painting { ${paintingQids.map((q) => `wd:${q}`).join(' ')} }
  ?painting wdt:P180 ?value .
}
ORDER BY ?painting ?value
LIMIT ${limit} OFFSET ${offset}`;
}

/** A painter's own movements (P135): a painting without movements of its own takes its painter's. */
export function painterMovementsQuery(painterQid: string): string {
  return `${TOOL} (painter movements)
SELECT ?value WHERE { wd:${painterQid} wdt:P135 ?value . }
ORDER BY ?value
LIMIT 50`;
}

/** Labels of up to a few hundred items in the six catalog languages and `mul`. */
export function labelsQuery(qids: string[], limit: number, offset: number): string {
  return `${TOOL} (labels)
SELECT ?item ?label WHERE {
  VALUES ?item { ${qids.map((q) => `wd:${q}`).join(' ')} }
  ?item rdfs:label ?label .
  FILTER (LANG(?label) IN (${[...labelLanguages, MUL].map((l) => `"${l}"`).join(', ')}))
}
ORDER BY ?item ?label
LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * Every label of up to a few hundred items, in any language, one row per label: asked only for
 * paintings with none in the six catalog languages nor `mul` (they have few), paged with LIMIT.
 */
export function anyLabelsQuery(qids: string[], limit: number, offset: number): string {
  return `${TOOL} (labels in any language)
SELECT ?item ?label WHERE {
  VALUES ?item { ${qids.map((q) => `wd:${q}`).join(' ')} }
  ?item rdfs:label ?label .
}
ORDER BY ?item (LANG(?label))
LIMIT ${limit} OFFSET ${offset}`;
}

/**
 * The languages an original title is taken from, in this order, when a painting has no label in
 * the catalog's six nor `mul`: first a regional form of a catalog language (en-gb, de-ch…), then
 * the languages of the collections that label their paintings only in their own (Dutch, the
 * Nordic languages, Polish, Russian, Czech, Hungarian, Portuguese, Catalan…), then any other in
 * the alphabetical order of its code. The same label every run.
 */
export const ORIGINAL_LANGUAGES: readonly string[] = 'nl sv da nb no nn fi pl ru cs hu pt ca ro uk sk sl hr et lv lt el tr'.split(' ');

/** A painting's one label outside the catalog languages: what its titles are translated from. */
export interface OriginalTitle {
  language: string;
  title: string;
}

/** The label `ORIGINAL_LANGUAGES` prefers among an item's labels (language code → text). */
export function pickOriginalTitle(labels: Record<string, string>): OriginalTitle | null {
  const catalog = labelLanguages as readonly string[];
  const rank = (language: string) => {
    const base = language.split('-')[0]!;
    if (catalog.includes(base)) return catalog.indexOf(base);
    const preferred = ORIGINAL_LANGUAGES.indexOf(language);
    return preferred >= 0 ? catalog.length + preferred : catalog.length + ORIGINAL_LANGUAGES.length;
  };
  const candidates = Object.entries(labels).filter(([language, title]) => title.trim() && language !== MUL && !catalog.includes(language));
  candidates.sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const [best] = candidates;
  return best ? { language: best[0], title: best[1].trim() } : null;
}

export interface PainterCandidate {
  qid: string;
  paintings: number;
  birthYear: number | null;
  deathYear: number | null;
}

export interface PaintingFacts {
  qid: string;
  painterQid: string;
  imageFile: string | null;
  /** The year as stored: a circa year, a decade's or a century's first year (`chooseInception`). */
  year: number | null;
  yearPrecision: DatePrecision;
  heightCm: number | null;
  widthCm: number | null;
  /** Current collections, "private collection" never among them. */
  collections: string[];
  /** The museums its page names: a museum location, else the collections (`chooseMuseums`). */
  museums: string[];
  /** The painting's own movements, else its painter's. */
  movements: string[];
  /** The movements are the painter's (the painting states none of its own): shown as the painter's. */
  movementsOfPainter: boolean;
  genres: string[];
  depicts: string[];
  /** Wikipedia articles about it (all languages). */
  wikipediaArticles: number;
}

/** Per item, a label in each catalog language that has one, `mul` filling the others. */
export type Labels = Map<string, Partial<Record<(typeof labelLanguages)[number], string>>>;

export interface PainterRule {
  /** Every creator died before this year (at least year precision): the works are in the public domain. */
  diedBefore: number;
  minPaintings: number;
}

/** What the ingest needs from Wikidata. */
export interface WikidataSource {
  /** The qualifying painters who died in one slice of years (the painter list is refreshed slice by slice). */
  paintersDied(slice: DeathSlice, rule: PainterRule, trace?: QueryTrace): Promise<PainterCandidate[]>;
  /** Every qualifying painter, most paintings first: every slice of `deathSlices`, one after another. */
  painters(rule: PainterRule, trace?: QueryTrace): Promise<PainterCandidate[]>;
  /** The painter's paintings that are plainly theirs, every co-creator in the public domain too. */
  paintings(painterQid: string, rule: Pick<PainterRule, 'diedBefore'>, trace?: QueryTrace): Promise<PaintingFacts[]>;
  labels(qids: string[], trace?: QueryTrace): Promise<Labels>;
  /** For items without a label in the catalog languages nor `mul`: one label in another language (`pickOriginalTitle`). */
  originalTitles(qids: string[], trace?: QueryTrace): Promise<Map<string, OriginalTitle>>;
}

/**
 * The painter list's slices of death years, narrower where Wikidata records more painters: before
 * 1400, the 15th century, quarter-centuries to 1800, decades after. A slice that still runs out of
 * time is asked again in halves.
 */
export function deathSlices(diedBefore: number): DeathSlice[] {
  const bounds = [1400, 1500];
  for (let y = 1525; y <= 1800; y += 25) bounds.push(y);
  for (let y = 1810; y < diedBefore; y += 10) bounds.push(y);
  const ends = [...bounds.filter((b) => b < diedBefore), diedBefore];
  return ends.map((to, i) => ({ from: i === 0 ? null : ends[i - 1]!, to }));
}

/** Rows a page of a slice's painters holds (a painter with two death dates has two rows). */
export const PAINTER_PAGE = 2_000;
/** Painters whose paintings one query counts. */
export const PAINTER_BATCH = 100;

/** The smallest page asked for after timeouts; a timeout below it ends the painter's ingest. */
const MIN_PAGE = 25;

/**
 * The most rows one facts or depicts query answers: the bound of every painting query (ids pages
 * are `pageSize`, 500 by default). A batch of 50 paintings rarely needs more than one page.
 */
export const FACT_PAGE = 2_000;

/**
 * Every row of a paged query: pages of `size` until one comes back short. A page that times out is
 * asked again smaller after a pause (never the same query at once): the ORDER BY keeps pages of
 * any size consistent with what came before.
 */
async function pagedRows(sparql: Sparql, query: (limit: number, offset: number) => string, pageSize: number, kind: string, trace?: QueryTrace): Promise<SparqlBinding[]> {
  const rows: SparqlBinding[] = [];
  let size = pageSize;
  for (let offset = 0; ;) {
    let page: SparqlBinding[];
    try {
      page = await sparql.select(query(size, offset), { kind, trace });
    } catch (error) {
      if (!(error instanceof SparqlTimeoutError) || size <= MIN_PAGE) throw error;
      await sparql.backOff();
      size = Math.max(MIN_PAGE, Math.floor(size / 4));
      continue;
    }
    rows.push(...page);
    if (page.length < size) return rows;
    offset += size;
  }
}

/** One painting's facts from its rows of the facts query (`rank|value` strings as the choosers read them). */
function paintingFacts(id: string, painterQid: string, rows: SparqlBinding[], depicts: string[], painterMovements: string[]): PaintingFacts {
  const of = (fact: Fact) => rows.filter((row) => row.fact?.value === fact);
  const rank = (row: SparqlBinding) => STRAFTER(row.rank?.value, '#');
  const measured = (fact: Fact) =>
    of(fact)
      .map((row) => `${rank(row)}|${row.amount?.value}|${STRAFTER(row.unit?.value, 'entity/')}`)
      .join(' ');
  // The best-rank image statement with the lowest id: the same file every run.
  const image = of('image').sort((a, b) => (a.statement!.value < b.statement!.value ? -1 : 1))[0];
  const circa = new Set(of('circa').map((row) => row.statement?.value));
  const inception = chooseInception(
    of('inception').map((row) => ({ time: row.value?.value, precision: Number(row.precision?.value), circa: circa.has(row.statement?.value) })),
  );
  const own = [...new Set(of('movement').flatMap((row) => qid(row.value?.value) ?? []))];
  const collections = currentCollections(
    of('collection')
      .map((row) => `${rank(row)}|${qid(row.value?.value)}`)
      .join(' '),
  );
  const museumLocations = of('location').flatMap((row) => qid(row.value?.value) ?? []);
  return {
    qid: id,
    painterQid,
    imageFile: commonsFile(image?.value?.value),
    ...inception,
    ...chooseDimensions(measured('height'), measured('width')),
    collections,
    museums: chooseMuseums(collections, museumLocations),
    movements: own.length ? own : painterMovements,
    movementsOfPainter: !own.length && painterMovements.length > 0,
    genres: [...new Set(of('genre').flatMap((row) => qid(row.value?.value) ?? []))],
    depicts,
    wikipediaArticles: Number(of('wikipedia')[0]?.value?.value ?? 0) || 0,
  };
}

/** SPARQL's STRAFTER on a possibly absent value. */
const STRAFTER = (text: string | undefined, marker: string) => (text?.includes(marker) ? text.slice(text.indexOf(marker) + marker.length) : '');

export function wikidataSource(sparql: Sparql, options: { pageSize?: number; labelBatch?: number; factBatch?: number } = {}): WikidataSource {
  const pageSize = options.pageSize ?? 500;
  const labelBatch = options.labelBatch ?? 200;
  const factBatch = options.factBatch ?? 50;
  return {
    async paintersDied(slice, rule, trace) {
      // Who died in the slice, in the public domain: a slice that runs out of time is asked once
      // more, in halves (a half that runs out of time too fails the slice: the service is slow).
      const died = async (part: DeathSlice, halved = false): Promise<SparqlBinding[]> => {
        try {
          // Paged, but never in smaller pages after a timeout: what costs is the range, not the page.
          const rows: SparqlBinding[] = [];
          for (let offset = 0; ; offset += PAINTER_PAGE) {
            const page = await sparql.select(paintersDiedQuery(part, rule.diedBefore, PAINTER_PAGE, offset), { kind: 'painters died', trace });
            rows.push(...page);
            if (page.length < PAINTER_PAGE) return rows;
          }
        } catch (error) {
          const from = part.from ?? part.to - 1_000;
          if (!(error instanceof SparqlTimeoutError) || halved || part.to - from < 2) throw error;
          await sparql.backOff();
          const middle = Math.floor((from + part.to) / 2);
          return [...(await died({ from: part.from, to: middle }, true)), ...(await died({ from: middle, to: part.to }, true))];
        }
      };
      const people = new Map<string, { born: number | null; died: number | null }>();
      for (const row of await died(slice)) {
        const id = qid(row.painter?.value);
        if (!id) continue;
        const seen = people.get(id) ?? { born: null, died: null };
        const born = yearOf(row.born?.value);
        const death = yearOf(row.died?.value);
        people.set(id, {
          born: born === null ? seen.born : Math.min(born, seen.born ?? born),
          died: death === null ? seen.died : Math.max(death, seen.died ?? death),
        });
      }
      // Their paintings counted, a batch at a time; a batch that runs out of time is counted once
      // more, in halves.
      const counted = async (batch: string[], halved = false): Promise<SparqlBinding[]> => {
        try {
          return await sparql.select(painterPaintingsQuery(batch, rule.minPaintings), { kind: 'painter paintings', trace });
        } catch (error) {
          if (!(error instanceof SparqlTimeoutError) || halved || batch.length < 2) throw error;
          await sparql.backOff();
          const half = Math.ceil(batch.length / 2);
          return [...(await counted(batch.slice(0, half), true)), ...(await counted(batch.slice(half), true))];
        }
      };
      const ids = [...people.keys()].sort();
      const found: PainterCandidate[] = [];
      for (let i = 0; i < ids.length; i += PAINTER_BATCH) {
        for (const row of await counted(ids.slice(i, i + PAINTER_BATCH))) {
          const id = qid(row.painter?.value);
          const person = id ? people.get(id) : undefined;
          if (id && person) found.push({ qid: id, paintings: Number(row.paintings?.value ?? 0), birthYear: person.born, deathYear: person.died });
        }
      }
      return found;
    },
    async painters(rule, trace) {
      // A painter whose death dates fall in two slices is found in both: listed once.
      const once = new Map<string, PainterCandidate>();
      for (const slice of deathSlices(rule.diedBefore)) {
        for (const candidate of await this.paintersDied(slice, rule, trace)) {
          const seen = once.get(candidate.qid);
          const deaths = [seen?.deathYear, candidate.deathYear].filter((y): y is number => typeof y === 'number');
          once.set(candidate.qid, { ...candidate, deathYear: deaths.length ? Math.max(...deaths) : null });
        }
      }
      return [...once.values()].sort((a, b) => b.paintings - a.paintings || (a.qid < b.qid ? -1 : 1));
    },
    async paintings(painterQid, rule, trace) {
      const ids = await pagedRows(sparql, (limit, offset) => paintingIdsQuery(painterQid, limit, offset, rule.diedBefore), pageSize, 'painting ids', trace);
      const qids = [...new Set(ids.flatMap((row) => qid(row.painting?.value) ?? []))];
      const facts = new Map<string, SparqlBinding[]>(qids.map((id) => [id, []]));
      const depicted = new Map<string, string[]>(qids.map((id) => [id, []]));
      for (let i = 0; i < qids.length; i += factBatch) {
        const batch = qids.slice(i, i + factBatch);
        for (const row of await pagedRows(sparql, (limit, offset) => paintingFactsQuery(batch, limit, offset), FACT_PAGE, 'painting facts', trace)) {
          facts.get(qid(row.painting?.value) ?? '')?.push(row);
        }
        for (const row of await pagedRows(sparql, (limit, offset) => depictsQuery(batch, limit, offset), FACT_PAGE, 'depicts', trace)) {
          const subject = qid(row.value?.value);
          if (subject) depicted.get(qid(row.painting?.value) ?? '')?.push(subject);
        }
      }
      const painterMovements = qids.length
        ? (await sparql.select(painterMovementsQuery(painterQid), { kind: 'painter movements', trace })).flatMap((row) => qid(row.value?.value) ?? [])
        : [];
      return qids.map((id) => paintingFacts(id, painterQid, facts.get(id)!, depicted.get(id)!, painterMovements));
    },
    async labels(qids, trace) {
      const raw = new Map<string, Record<string, string>>();
      const unique = [...new Set(qids)];
      const languages: string[] = [...labelLanguages, MUL];
      for (let i = 0; i < unique.length; i += labelBatch) {
        const batch = unique.slice(i, i + labelBatch);
        const page = batch.length * languages.length;
        for (let offset = 0; ; offset += page) {
          const rows = await sparql.select(labelsQuery(batch, page, offset), { kind: 'labels', trace });
          for (const row of rows) {
            const id = qid(row.item?.value);
            const lang = row.label?.['xml:lang'];
            if (!id || !lang || !languages.includes(lang) || !row.label?.value) continue;
            raw.set(id, { ...raw.get(id), [lang]: row.label.value });
          }
          if (rows.length < page) break;
        }
      }
      // mul is Wikidata's label for every language that has none of its own: apply it here, so
      // the catalog sees six languages and a painter known only by a mul name keeps that name.
      const labels: Labels = new Map();
      for (const [id, own] of raw) {
        const filled = Object.fromEntries(labelLanguages.flatMap((l) => ((own[l] ?? own[MUL]) ? [[l, own[l] ?? own[MUL]!]] : [])));
        if (Object.keys(filled).length) labels.set(id, filled);
      }
      return labels;
    },
    async originalTitles(qids, trace) {
      const all = new Map<string, Record<string, string>>();
      const unique = [...new Set(qids)];
      for (let i = 0; i < unique.length; i += labelBatch) {
        const batch = unique.slice(i, i + labelBatch);
        for (const row of await pagedRows(sparql, (limit, offset) => anyLabelsQuery(batch, limit, offset), FACT_PAGE, 'labels in any language', trace)) {
          const id = qid(row.item?.value);
          const lang = row.label?.['xml:lang'];
          if (id && lang && row.label?.value) all.set(id, { ...all.get(id), [lang.toLowerCase()]: row.label.value });
        }
      }
      const titles = new Map<string, OriginalTitle>();
      for (const [id, own] of all) {
        const picked = pickOriginalTitle(own);
        if (picked) titles.set(id, picked);
      }
      return titles;
    },
  };
}
