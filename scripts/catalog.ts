/**
 * `npm run catalog -- ingest|stories|publish|recount [options]`: the catalog pipeline's steps from
 * the command line, on the configured database or the embedded default (stop `npm start` first,
 * or set DATABASE_URL to the running server's), with the same domain services the Inngest
 * functions and staff endpoints call, and one progress line per step.
 *
 *   ingest [--painters N] [--force]   fill the queue from Wikidata (WIKIDATA_SPARQL_URL; the public
 *                                     endpoint wants WIKIDATA_CONTACT, the operator's contact);
 *                                     refreshes the stored painter list first when it is a week old
 *   painters                          refresh the stored painter list now (slice by slice)
 *   stories [--limit N]               stories for queued works (language model or templates), then
 *                                     the six titles of every work (model, or stand-ins without one)
 *   publish [--count N]               one title pass, then publish within today's cap, then notify IndexNow
 *   recount                           recount artist and browse-page sizes
 *   probe                             before the first night: times the painters list and the
 *                                     largest painters' queries, checks the curated works' ids,
 *                                     fetches a thumbnail at every width; go/no-go, exit 1 on no-go
 */
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { createDb } from '@/server/db/client';
import { ConfigError, parseEnv, publicBaseUrl } from '@/server/env';
import { runHere } from '@/server/jobs/runner';
import { drainOutbox } from '@/server/jobs/worker';
import { userAgent } from '@/server/integrations/http';
import { wikidataSource } from '@/server/integrations/wikidata';
import { configuredModel, configuredNotifier, configuredSparql, configuredWikidata } from '@/server/pipeline/config';
import { probe, probeTable } from '@/server/pipeline/probe';
import { curatedWorks } from '../prisma/seed/curated';
import { ingestCatalog, PAINTER_RULE } from '@/server/pipeline/ingest';
import { refreshPainterList } from '@/server/pipeline/painter-list';
import { NOTIFY_EVENT, publishRun } from '@/server/pipeline/publish';
import { refreshCounts } from '@/server/pipeline/stats';
import { writeStories } from '@/server/pipeline/stories';
import { translateTitles } from '@/server/pipeline/translations';

const [command, ...rest] = process.argv.slice(2);
const option = (name: string) => {
  const at = rest.indexOf(`--${name}`);
  if (at < 0) return undefined;
  const value = Number(rest[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a positive whole number`);
  return value;
};
const progress = (line: string) => console.log(`[catalog] ${line}`);

const config = parseEnv(process.env);
if (!['ingest', 'painters', 'stories', 'publish', 'recount', 'probe'].includes(command ?? '')) {
  console.error('usage: npm run catalog -- ingest [--painters N] [--force] | painters | stories [--limit N] | publish [--count N] | recount | probe');
  process.exit(2);
}
if (command === 'probe') {
  // Asks the endpoints only: no database is started, nothing is written.
  let sparql: ReturnType<typeof configuredSparql>;
  try {
    sparql = configuredSparql(config);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  progress(`probe of ${config.WIKIDATA_SPARQL_URL} and ${config.IMAGE_SOURCE_URL}`);
  const result = await probe({
    sparql,
    source: wikidataSource(sparql),
    curated: curatedWorks.map((w) => ({ qid: w.wikidataId, titles: Object.values(w.titles).filter((t): t is string => Boolean(t)) })),
    image: { sourceUrl: config.IMAGE_SOURCE_URL, file: curatedWorks[0]!.imageFile, userAgent: userAgent(config.WIKIDATA_CONTACT) },
  });
  console.log(probeTable(result));
  process.exit(result.go ? 0 : 1);
}
let wikidata: ReturnType<typeof configuredWikidata> | undefined;
try {
  // Checked before the database starts: an ingest against the public endpoint without the
  // operator's contact stops here with one line.
  if (command === 'ingest' || command === 'painters') wikidata = configuredWikidata(config);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const database = await openDatabase(config);
const db = createDb(database.url);
try {
  await prepareDatabase(database.url);
  const started = Date.now();
  if (command === 'ingest') {
    progress(`ingest from ${config.WIKIDATA_SPARQL_URL}`);
    const result = await ingestCatalog(db, wikidata!, { painters: option('painters'), force: rest.includes('--force'), trigger: 'cli', progress });
    progress(
      `ingest run ${result.runId}: ${result.painters.length} painters, ${result.artworksAdded} works queued, ${result.queries.length} queries in ${(result.queries.reduce((n, q) => n + q.ms, 0) / 1000).toFixed(1)} s`,
    );
  } else if (command === 'painters') {
    progress(`painter list from ${config.WIKIDATA_SPARQL_URL}`);
    await refreshPainterList(db, wikidata!, PAINTER_RULE, { trigger: 'cli', progress });
  } else if (command === 'stories') {
    const model = configuredModel(config);
    progress(`stories ${model ? `from the language model at ${config.LLM_BASE_URL}` : 'from the factual templates (LLM_BASE_URL unset)'}`);
    const limit = option('limit');
    for (let total = 0; ;) {
      const done = await writeStories(db, model, { limit: Math.min(500, limit ? limit - total : 500), progress });
      total += done.written;
      if (!done.written || !done.remaining || (limit && total >= limit)) break;
    }
    // Then title passes until every work has its six titles, or a pass completes none (the model down).
    for (;;) {
      const titles = await translateTitles(db, model, { progress });
      if (!titles.remaining || !titles.completed) break;
    }
  } else if (command === 'publish') {
    // As a publish tick does: one bounded title pass, then the works ready with their six titles.
    await translateTitles(db, configuredModel(config), { progress });
    const result = await publishRun(db, {
      perDay: config.PUBLISH_PER_DAY,
      baseUrl: publicBaseUrl(config),
      trigger: 'cli',
      count: option('count'),
      progress,
    });
    progress(
      `published ${result.published} (${result.capLeft} left of today's cap of ${config.PUBLISH_PER_DAY}); artists introduced: ${result.artistsIntroduced.join(', ') || 'none'}`,
    );
    const notifier = configuredNotifier(config);
    const sent = await drainOutbox(
      db,
      runHere(() => ({ db, mailer: null, baseUrl: publicBaseUrl(config), notifier })),
      { names: [NOTIFY_EVENT], limit: 1000 },
    );
    progress(notifier ? `IndexNow: ${sent.sent} notification batches sent, ${sent.failed} to retry` : `IndexNow not configured: ${result.urls} addresses left to the sitemaps`);
  } else {
    const counts = await refreshCounts(db);
    progress(`recounted: ${counts.changed.artists} artists and ${counts.changed.browsePages} browse pages changed; browse pages ${JSON.stringify(counts.browsePages)}`);
  }
  progress(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await db.$disconnect();
  await database.stop();
}
