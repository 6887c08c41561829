import 'server-only';
import { fetchWithRetry } from '@/server/integrations/http';
import { deathSlices, paintingFactsQuery, paintingIdsQuery, qid, type QueryRecord, type Sparql, type WikidataSource } from '@/server/integrations/wikidata';
import { imageWidths } from '@/shared/images';
import { DIED_BEFORE, PAINTER_RULE } from './ingest';
import { slugify } from './slug';

/**
 * The day-one probe (`npm run catalog -- probe`, issue #39 item 7): before the first night on live
 * Wikidata, asks the configured endpoints what the pipeline will ask, times it, and says go or
 * no-go. Nothing is written.
 */

/** The painter list's slices the probe asks: the most recent, where Wikidata records the most painters. */
export const PROBE_SLICES = 2;
/** How long a query may take before the probe calls it a no-go: WDQS stops every query at 60 s. */
export const PROBE_QUERY_BUDGET_MS = 30_000;

export interface ProbeRow {
  check: string;
  ok: boolean;
  detail: string;
}

export interface ProbeSettings {
  sparql: Sparql;
  source: WikidataSource;
  /** The curated works' Wikidata ids and their titles in our languages (prisma/seed/curated-works.json). */
  curated: { qid: string; titles: string[] }[];
  /** A Commons file to fetch at every served width, and where and as whom. */
  image: { sourceUrl: string; file: string; userAgent: string };
  /** The largest painters whose queries are timed. */
  painters?: number;
}

const fold = (text: string) => slugify(text, 500);

export async function probe(settings: ProbeSettings): Promise<{ go: boolean; rows: ProbeRow[] }> {
  const rows: ProbeRow[] = [];
  const timed = (record: QueryRecord) => `${(record.ms / 1000).toFixed(1)} s, ${record.rows} rows`;
  const traced = () => {
    const records: QueryRecord[] = [];
    return { records, trace: (r: QueryRecord) => void records.push(r) };
  };

  // 1. The painter list as the weekly refresh asks it, for its most crowded slices (the last
  //    decades before the rule's year): the listing by death date and the counts in batches.
  const list = traced();
  let largest: string[] = [];
  try {
    const slices = deathSlices(DIED_BEFORE).slice(-PROBE_SLICES);
    const found = [];
    for (const slice of slices) found.push(...(await settings.source.paintersDied(slice, PAINTER_RULE, list.trace)));
    largest = found
      .sort((a, b) => b.paintings - a.paintings || (a.qid < b.qid ? -1 : 1))
      .slice(0, settings.painters ?? 5)
      .map((p) => p.qid);
    const slowest = Math.max(...list.records.map((r) => r.ms));
    rows.push({
      check: `painter list (${slices.map((s) => `died ${s.from}–${s.to}`).join(', ')})`,
      ok: found.length > 0 && slowest < PROBE_QUERY_BUDGET_MS,
      detail: `${found.length} painters; ${list.records.length} queries, slowest ${(slowest / 1000).toFixed(1)} s, largest answer ${Math.max(...list.records.map((r) => r.rows))} rows`,
    });
  } catch (error) {
    rows.push({ check: 'painter list', ok: false, detail: message(error) });
  }

  // 2. The largest painters' first page of ids and one batch of facts: the night's heaviest light queries.
  for (const painter of largest) {
    const page = traced();
    try {
      const ids = (await settings.sparql.select(paintingIdsQuery(painter, 500, 0, DIED_BEFORE), { kind: 'painting ids', trace: page.trace })).flatMap(
        (r) => qid(r.painting?.value) ?? [],
      );
      if (ids.length) await settings.sparql.select(paintingFactsQuery(ids.slice(0, 50), 2_000, 0), { kind: 'painting facts', trace: page.trace });
      const slowest = Math.max(...page.records.map((r) => r.ms));
      rows.push({ check: `paintings of ${painter}`, ok: slowest < PROBE_QUERY_BUDGET_MS, detail: page.records.map((r) => `${r.kind} ${timed(r)}`).join('; ') });
    } catch (error) {
      rows.push({ check: `paintings of ${painter}`, ok: false, detail: message(error) });
    }
  }

  // 3. The curated works: each id exists, and its label is the work we think it is.
  try {
    const labels = await settings.source.labels(settings.curated.map((c) => c.qid));
    const wrong = settings.curated.filter((c) => {
      const found = labels.get(c.qid);
      const ours = new Set(c.titles.map(fold));
      return !found || !Object.values(found).some((label) => label && ours.has(fold(label)));
    });
    rows.push({
      check: `curated works (${settings.curated.length})`,
      ok: wrong.length === 0,
      detail: wrong.length ? `not found or another label: ${wrong.map((c) => `${c.qid} (${c.titles[0]})`).join(', ')}` : 'every id exists with its title',
    });
  } catch (error) {
    rows.push({ check: `curated works (${settings.curated.length})`, ok: false, detail: message(error) });
  }

  // 4. Commons: one thumbnail at every width the shop serves, with the real User-Agent.
  for (const width of imageWidths) {
    const url = `${settings.image.sourceUrl}${encodeURIComponent(settings.image.file.replace(/ /g, '_'))}?width=${width}`;
    try {
      const started = performance.now();
      const answer = await fetchWithRetry(url, { method: 'GET' }, { userAgent: settings.image.userAgent, attempts: 1, timeoutMs: 20_000 });
      const type = answer.headers.get('content-type') ?? '';
      await answer.arrayBuffer();
      rows.push({ check: `thumbnail ${width} px`, ok: type.startsWith('image/'), detail: `${answer.status} ${type} in ${Math.round(performance.now() - started)} ms` });
    } catch (error) {
      rows.push({ check: `thumbnail ${width} px`, ok: false, detail: message(error) });
    }
  }
  return { go: rows.every((r) => r.ok), rows };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/** The probe's answer as a table for the terminal, and its verdict on the last line. */
export function probeTable(result: { go: boolean; rows: ProbeRow[] }): string {
  const width = Math.max(...result.rows.map((r) => r.check.length));
  return [
    ...result.rows.map((r) => `${r.ok ? 'go   ' : 'NO-GO'}  ${r.check.padEnd(width)}  ${r.detail}`),
    '',
    result.go ? 'GO: the pipeline may run against these endpoints.' : 'NO-GO: fix what is marked before the first night.',
  ].join('\n');
}
