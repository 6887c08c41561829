import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Store } from 'oxigraph';

const folder = path.join(path.dirname(new URL(import.meta.url).pathname), '../fixtures/wikidata');

/** Every Turtle graph of tests/fixtures/wikidata (painters, paintings, browse-page items, the traps of issue #18). */
export const fixtureGraphs = () =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.ttl'))
    .sort()
    .map((f) => readFileSync(path.join(folder, f), 'utf8'));

/**
 * The prefixes the Wikidata Query Service declares for every query
 * (https://www.mediawiki.org/wiki/Wikidata_Query_Service/User_Manual#Basics_-_Understanding_Prefixes).
 * This is the one Wikidata-only feature the shop's queries use that Oxigraph lacks, so the
 * stand-in adds the declarations a query does not make itself; nothing else of the query is touched.
 */
const WDQS_PREFIXES: Record<string, string> = {
  wd: 'http://www.wikidata.org/entity/',
  wdt: 'http://www.wikidata.org/prop/direct/',
  p: 'http://www.wikidata.org/prop/',
  ps: 'http://www.wikidata.org/prop/statement/',
  psv: 'http://www.wikidata.org/prop/statement/value/',
  pq: 'http://www.wikidata.org/prop/qualifier/',
  wds: 'http://www.wikidata.org/entity/statement/',
  wdv: 'http://www.wikidata.org/value/',
  wikibase: 'http://wikiba.se/ontology#',
  schema: 'http://schema.org/',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
};
/**
 * Wikidata-only features Oxigraph does not have and the shop must therefore never send: the label
 * service (it changes the answer). The stand-in refuses it (400) instead of imitating it, so a
 * query that would behave differently at Wikidata fails here.
 */
const UNSUPPORTED = [/SERVICE\s+wikibase:label/i];

/**
 * Blazegraph's query hints (`hint:Query hint:optimizer "None" .`, `hint:Prior hint:runFirst true .`)
 * and `bd:` planner parameters only steer WDQS's planner: they never change an answer. The stand-in
 * accepts them and leaves them out before Oxigraph runs the query (which would read them as triple
 * patterns that match nothing).
 */
export function withoutPlannerHints(query: string): string {
  return query.replace(/\bhint:\w+\s+hint:\w+\s+("[^"]*"|\S+)\s*\./g, '').replace(/\bbd:\w+\s+bd:\w+\s+("[^"]*"|\S+)\s*\./g, '');
}

export function withWdqsPrefixes(query: string): string {
  const declared = new Set([...query.matchAll(/PREFIX\s+(\w*):/gi)].map((m) => m[1]));
  const missing = Object.entries(WDQS_PREFIXES).filter(([name]) => !declared.has(name));
  return missing.map(([name, iri]) => `PREFIX ${name}: <${iri}>`).join('\n') + '\n' + query;
}

/** What the Wikidata Query Service answers when a query runs past its 60 seconds (HTTP 500). */
export const TIMEOUT_BODY = (query: string) =>
  `SPARQL-QUERY: queryStr=${query}\njava.util.concurrent.ExecutionException: java.util.concurrent.TimeoutException\n\tat java.util.concurrent.FutureTask.report(FutureTask.java:122)\n`;

export interface StandInRequest {
  method: string;
  query: string;
  userAgent: string | undefined;
  status: number;
  rows: number;
  ms: number;
  /** The solutions its evaluation touched (with a cost model on). */
  solutions?: number;
  /** The query time it cost against the budget (with a budget on). */
  costMs?: number;
}

/**
 * The solutions a query's outer pattern yields before grouping, ordering and LIMIT: what its
 * evaluation touches at least (a GROUP BY over OPTIONALs multiplies here; a subquery counts by
 * what it yields). Counted by Oxigraph on the query's own WHERE clause.
 */
export function solutionsTouched(store: Store, query: string): number {
  const text = withoutPlannerHints(query);
  const start = text.search(/\bWHERE\s*\{/i);
  if (start < 0) return 0;
  const open = text.indexOf('{', start);
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++;
    else if (text[end] === '}' && --depth === 0) break;
  }
  const body = text.slice(open, end + 1);
  const prologue = text.slice(0, text.search(/\bSELECT\b/i)).replace(/^#.*$/gm, '');
  const counted = JSON.parse(
    store.query(withWdqsPrefixes(`${prologue}SELECT (COUNT(*) AS ?n) WHERE ${body}`), { results_format: 'application/sparql-results+json' }) as string,
  ) as { results: { bindings: { n?: { value: string } }[] } };
  return Number(counted.results.bindings[0]?.n?.value ?? 0);
}

/** A failure to answer a coming request with: a status (429 with Retry-After, 503, ...) or 'timeout' (500 with the timeout body). */
export type Failure = number | 'timeout';

/**
 * A real HTTP server on 127.0.0.1 that answers SPARQL like query.wikidata.org/sparql: every query
 * (GET `?query=` or POST form) is run by Oxigraph, a SPARQL 1.1 engine, over graphs in Wikidata's
 * RDF shape (tests/fixtures/wikidata/*.ttl, plus `turtle`), and answered in the SPARQL JSON
 * results format. `control.failures` answers the next requests with a status instead, or only
 * those whose text matches `control.failWhen`; `update` changes the graph between runs (SPARQL Update).
 */
export async function startWikidataServer(options: { turtle?: string[]; fixtures?: boolean } = {}) {
  const store = new Store();
  for (const graph of [...(options.fixtures === false ? [] : fixtureGraphs()), ...(options.turtle ?? [])]) store.load(graph, { format: 'text/turtle' });
  const requests: StandInRequest[] = [];
  const control = {
    failures: [] as Failure[],
    retryAfter: '1',
    failWhen: null as RegExp | null,
    /**
     * WDQS's cost, made hostile: a query whose evaluation touches more than this many solutions
     * (its outer pattern's, before grouping, ordering and LIMIT) answers what WDQS answers after its
     * 60 s, a timeout. Null: no limit.
     */
    maxSolutions: null as number | null,
    /**
     * WDQS's query-time budget per client: 60 s of query time a minute. Each query costs
     * `msPerSolution` per solution touched; past the budget within a minute, 429 with Retry-After
     * until the minute is over. `takesTime`: the answer also waits that long, as a real engine's
     * would (so a client can measure what it spends). `minuteMs` shortens the minute for tests.
     * Null: no budget.
     */
    budget: null as { perMinuteMs: number; msPerSolution: number; takesTime?: boolean; minuteMs?: number } | null,
  };
  /** Query time spent in the current budget minute, and when that minute started. */
  const spent = { ms: 0, since: Date.now() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const started = performance.now();
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = Buffer.concat(chunks).toString('utf8');
      const query =
        req.method === 'POST'
          ? req.headers['content-type']?.startsWith('application/sparql-query')
            ? body
            : (new URLSearchParams(body).get('query') ?? '')
          : (url.searchParams.get('query') ?? '');
      const record: StandInRequest = { method: req.method ?? '', query, userAgent: req.headers['user-agent'], status: 200, rows: 0, ms: 0 };
      requests.push(record);
      const answer = (status: number, headers: Record<string, string>, text: string) => {
        record.status = status;
        record.ms = performance.now() - started;
        res.writeHead(status, headers).end(text);
      };
      if (url.pathname !== '/sparql' || !['GET', 'POST'].includes(req.method ?? '')) return answer(405, { 'content-type': 'text/plain' }, 'Method not allowed');
      const failure = !control.failWhen || control.failWhen.test(query) ? control.failures.shift() : undefined;
      if (failure === 'timeout') return answer(500, { 'content-type': 'text/plain' }, TIMEOUT_BODY(query));
      if (failure) return answer(failure, { 'retry-after': control.retryAfter, 'content-type': 'text/plain' }, failure === 429 ? 'Too Many Requests' : 'Service Unavailable');
      if (!query.trim() || UNSUPPORTED.some((r) => r.test(query)))
        return answer(400, { 'content-type': 'text/plain' }, 'query missing or using a feature the stand-in does not have');
      const respond = () => {
        try {
          const json = store.query(withWdqsPrefixes(withoutPlannerHints(query)), { results_format: 'application/sparql-results+json' }) as string;
          record.rows = (JSON.parse(json) as { results?: { bindings?: unknown[] } }).results?.bindings?.length ?? 0;
          return answer(200, { 'content-type': 'application/sparql-results+json;charset=utf-8' }, json);
        } catch (error) {
          // The query service answers a malformed query with 400 and the parser's message.
          return answer(400, { 'content-type': 'text/plain' }, `MalformedQueryException: ${error instanceof Error ? error.message : String(error)}`);
        }
      };
      if (control.maxSolutions !== null || control.budget) {
        const minute = control.budget?.minuteMs ?? 60_000;
        if (control.budget && Date.now() - spent.since >= minute) Object.assign(spent, { ms: 0, since: Date.now() });
        if (control.budget && spent.ms >= control.budget.perMinuteMs) {
          const wait = Math.max(1, Math.ceil((spent.since + minute - Date.now()) / 1000));
          return answer(429, { 'retry-after': String(wait), 'content-type': 'text/plain' }, 'Too Many Requests: query-time budget spent');
        }
        const touched = solutionsTouched(store, query);
        record.solutions = touched;
        const cost = control.budget ? touched * control.budget.msPerSolution : 0;
        spent.ms += cost;
        record.costMs = cost;
        if (control.maxSolutions !== null && touched > control.maxSolutions) return answer(500, { 'content-type': 'text/plain' }, TIMEOUT_BODY(query));
        // The engine's time, spent before the answer as WDQS spends it.
        if (control.budget?.takesTime && cost > 0) return void setTimeout(respond, cost);
      }
      return respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sparql`,
    requests,
    control,
    /** The graph itself, for tests that weigh a query (`solutionsTouched`). */
    store,
    /** Runs a SPARQL Update on the graph (Wikidata's editors at work between two runs). */
    update: (sparqlUpdate: string) => store.update(withWdqsPrefixes(sparqlUpdate)),
    /** Runs a query directly (for tests that check the fixtures themselves). */
    select: (query: string) =>
      JSON.parse(store.query(withWdqsPrefixes(query), { results_format: 'application/sparql-results+json' }) as string) as {
        results: { bindings: Record<string, { value: string }>[] };
      },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
