/**
 * `node --import tsx scripts/bench-pipeline.ts`: the catalog pipeline's targets with the local
 * stand-ins (issue 5): ingest of 20 painters × 100 paintings ≤ 15 s, a publish run of 300 artworks
 * including translation calls ≤ 5 s, a recount at 100,000 artworks ≤ 2 s. An embedded PostgreSQL
 * in a temporary folder (or TEST_DATABASE_URL's server), the SPARQL and chat-completions stand-ins
 * of tests/support on 127.0.0.1. Writes docs/benchmarks/pipeline-<date>.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { recountCatalog } from '@/server/catalog/counts';
import { seedCatalog } from '@/server/catalog/seed';
import { createDb, type Tx } from '@/server/db/client';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { migrate } from '@/server/db/migrate';
import { chatModel } from '@/server/integrations/llm';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { ingestCatalog } from '@/server/pipeline/ingest';
import { publishRun } from '@/server/pipeline/publish';
import { writeStories } from '@/server/pipeline/stories';
import { startLanguageModelServer } from '../tests/support/llm';
import { startWikidataServer, type SparqlResults } from '../tests/support/wikidata';

const E = 'http://www.wikidata.org/entity/';
const uri = (q: string) => ({ type: 'uri', value: E + q });
const lit = (v: string | number) => ({ type: 'literal', value: String(v) });

/** 20 painters × 100 paintings, with 4 museums, 3 movements, 3 genres and 12 subjects, labels in English (and French for half). */
function generated(): Record<'painters' | 'paintings' | 'labels', SparqlResults> {
  const painters = [];
  const paintings = [];
  const labels = [];
  const taxa = ['Q990001', 'Q990002', 'Q990003', 'Q990004', 'Q990011', 'Q990012', 'Q990013', 'Q990021', 'Q990022', 'Q990023', ...Array.from({ length: 12 }, (_, i) => `Q9901${String(i).padStart(2, '0')}`)];
  for (const q of taxa) labels.push({ item: uri(q), label: { type: 'literal', value: `Bench Taxon ${q}`, 'xml:lang': 'en' } });
  for (let p = 0; p < 20; p++) {
    const painter = `Q98${String(p).padStart(4, '0')}`;
    painters.push({ painter: uri(painter), death: lit(`${1700 + p}-01-01T00:00:00Z`), birth: lit(`${1640 + p}-01-01T00:00:00Z`), paintings: lit(200 - p) });
    labels.push({ item: uri(painter), label: { type: 'literal', value: `Bench Painter ${p}`, 'xml:lang': 'en' } });
    for (let i = 0; i < 100; i++) {
      const q = `Q97${String(p).padStart(2, '0')}${String(i).padStart(4, '0')}`;
      paintings.push({
        painting: uri(q), painter: uri(painter), image: uri(`http://commons.wikimedia.org/wiki/Special:FilePath/${q}.jpg`.replace(E, '')),
        inception: lit(`${1650 + i}-01-01T00:00:00Z`), height: lit(`${500 + i} ${E}Q174789`), width: lit(`${20 + i / 10} ${E}Q218593`),
        collections: lit(taxa[i % 4]!), movements: lit(taxa[4 + (i % 3)]!), genres: lit(taxa[7 + (i % 3)]!),
        depicts: lit(taxa.slice(10 + (i % 4), 10 + (i % 4) + 5).join(' ')), sitelinks: lit(1000 - i - p),
      });
      labels.push({ item: uri(q), label: { type: 'literal', value: `Bench Work ${p}-${i} (Bench Painter ${p})`, 'xml:lang': 'en' } });
      if (i % 2) labels.push({ item: uri(q), label: { type: 'literal', value: `Œuvre ${p}-${i}`, 'xml:lang': 'fr' } });
    }
  }
  const fix = (rows: Record<string, unknown>[]) => rows.map((r) => (r.image ? { ...r, image: { type: 'uri', value: (r.image as { value: string }).value.replace(E, '') } } : r));
  return {
    painters: { head: {}, results: { bindings: painters as never } },
    paintings: { head: {}, results: { bindings: fix(paintings) as never } },
    labels: { head: {}, results: { bindings: labels as never } },
  };
}

const timed = async <T>(what: string, fn: () => Promise<T>) => {
  const start = performance.now();
  const value = await fn();
  const ms = performance.now() - start;
  console.log(`${what}: ${(ms / 1000).toFixed(2)} s`);
  return { value, ms };
};

let folder: string | undefined;
let stopServer: (() => Promise<void>) | undefined;
let serverUrl = process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  folder = mkdtempSync(path.join(tmpdir(), 'art-prints-bench-pipeline-'));
  chmodSync(folder, 0o755);
  const server = await startEmbeddedPostgres({ dir: path.join(folder, 'pg'), password: 'bench' });
  serverUrl = server.url;
  stopServer = server.stop;
}
const sparql = await startWikidataServer(generated());
const llm = await startLanguageModelServer();
const name = `artprints_bench_pipeline_${process.pid}`;
const admin = new pg.Client({ connectionString: serverUrl.replace(/\/[^/]*$/, '/postgres') });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = serverUrl.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
const db = createDb(url);
try {
  await migrate(url);
  await seedCatalog(db);
  const source = wikidataSource(sparqlClient({ url: sparql.url }));
  const ingest = await timed('ingest 20 painters × 100 paintings', () => ingestCatalog(db, source, { painters: 20 }));
  const stories = await timed('stories (templates) for 2,000 works', () => writeStories(db, null, { limit: 5000 }));
  const model = chatModel({ baseUrl: llm.url });
  const publish = await timed('publish 300 (with title translation)', () => publishRun(db, { perDay: 300, baseUrl: 'https://shop.example', trigger: 'cli', model }));
  const translationCalls = llm.requests.length;
  // 100,000 artworks: fill published works over the benchmark painters, each in 3 browse pages
  await db.$executeRaw`
    INSERT INTO artworks (slug, artist_id, status, published_at, popularity, updated_at)
    SELECT 'bench-fill-' || g, (SELECT id FROM artists ORDER BY id LIMIT 1 OFFSET (g % 20)), 'published', now() - interval '2 days', g % 500, now()
      FROM generate_series(1, 100000 - (SELECT count(*) FROM artworks)) g`;
  await db.$executeRaw`
    INSERT INTO artwork_taxa (artwork_id, taxon_id)
    SELECT w.id, t.id FROM artworks w CROSS JOIN LATERAL (SELECT id FROM taxa ORDER BY (id + w.id) % 37 LIMIT 3) t
     WHERE w.slug LIKE 'bench-fill-%' ON CONFLICT DO NOTHING`;
  await db.$executeRaw`ANALYZE`;
  const total = await db.artwork.count();
  await timed('recount (warm-up)', () => db.$transaction((tx) => recountCatalog(tx as Tx)));
  const recount = await timed(`recount at ${total} artworks`, () => db.$transaction((tx) => recountCatalog(tx as Tx)));

  const row = (target: string, limit: number, ms: number, note: string) => `| ${target} | ≤ ${limit} s | ${(ms / 1000).toFixed(2)} s | ${ms / 1000 <= limit ? 'met' : '**missed**'} | ${note} |`;
  const report = `# Catalog pipeline benchmark (${new Date().toISOString().slice(0, 10)})

\`npm run bench:pipeline\` (scripts/bench-pipeline.ts) on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, embedded
PostgreSQL, the SPARQL and chat-completions stand-ins of \`tests/support\` on 127.0.0.1 (so network
time to Wikidata and a real model is not in these figures).

| target | limit | measured | | notes |
| --- | --- | --- | --- | --- |
${row('ingest, 20 painters × 100 paintings', 15, ingest.ms, `${ingest.value.artworksAdded} works queued, ${ingest.value.taxaAdded} browse pages created, ${sparql.requests.length} SPARQL requests`)}
${row('publish run of 300 with translations', 5, publish.ms, `${publish.value.published} published, ${translationCalls} translation calls (10 titles each), ${publish.value.urls} addresses`)}
${row(`recount at ${total.toLocaleString('en')} artworks`, 2, recount.ms, 'both statements, in a transaction, warm')}

Stories from the templates for ${stories.value.written} works took ${(stories.ms / 1000).toFixed(2)} s (not a target).
`;
  mkdirSync('docs/benchmarks', { recursive: true });
  const file = `docs/benchmarks/pipeline-${new Date().toISOString().slice(0, 10)}.md`;
  writeFileSync(file, report);
  console.log(report);
  console.log(`written to ${file}`);
} finally {
  await db.$disconnect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  await sparql.close();
  await llm.close();
  await stopServer?.();
  if (folder) rmSync(folder, { recursive: true, force: true });
}
