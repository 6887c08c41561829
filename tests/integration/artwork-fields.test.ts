import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sparqlClient, wikidataSource } from '@/server/integrations/wikidata';
import { ingestCatalog } from '@/server/pipeline/ingest';
import { fillCatalog } from '../../scripts/fill-catalog';
import { ownDatabase } from '../support/database';
import { startWikidataServer } from '../support/wikidata';

/**
 * Three things write artworks: the curated seed (src/server/catalog/seed.ts), the catalog ingest
 * (src/server/pipeline/ingest.ts) and the benchmark's fill script (scripts/fill-catalog.ts). A new
 * artwork field must be written by each (docs/architecture.md "How to add a locale, an order
 * status, or an artwork field"); these tests find a column one of them leaves empty, every column
 * the migrations create included, so a field added to the schema and forgotten in one writer fails
 * here. A column a writer leaves empty on purpose is named below with the reason.
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let sparql: Awaited<ReturnType<typeof startWikidataServer>>;
let client: pg.Client;

beforeAll(async () => {
  own = await ownDatabase('artwork_fields');
  sparql = await startWikidataServer();
  client = new pg.Client({ connectionString: own.url });
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await sparql.close();
  await own.drop();
});

/** The artworks columns that are NULL in at least one row of `scope`, each with how many rows. */
async function emptyColumns(scope: string): Promise<Record<string, number>> {
  const columns = await client.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'artworks' ORDER BY ordinal_position`,
  );
  expect(columns.rows.length).toBeGreaterThan(10);
  const counts = columns.rows.map((c) => `count(*) FILTER (WHERE "${c.name}" IS NULL)::int AS "${c.name}"`).join(', ');
  const { rows } = await client.query<Record<string, number>>(`SELECT count(*)::int AS rows_in_scope, ${counts} FROM artworks WHERE ${scope}`);
  const { rows_in_scope: inScope, ...nulls } = rows[0]!;
  expect(inScope, `no artworks where ${scope}`).toBeGreaterThan(0);
  return Object.fromEntries(Object.entries(nulls).filter(([, n]) => n > 0));
}

/** What any work may lack, whoever wrote it, and why. */
const emptyByDesign: Record<string, string> = {
  original_title: 'only a painting labelled in none of the six catalog languages has one (docs/pipeline.md "Complete titles")',
  original_language: 'the language of original_title, so only beside it',
};
const without = (empty: Record<string, number>, allowed: Record<string, string>) => Object.keys(empty).filter((column) => !(column in allowed) && !(column in emptyByDesign));

describe('every writer of artworks fills every column', () => {
  test('the curated seed: every column of every curated work', async () => {
    expect(without(await emptyColumns('curated'), {})).toEqual([]);
  });

  test('the fill script: every column of every synthetic work', async () => {
    await fillCatalog(own.url, { works: 40, artists: 8, log: () => undefined });
    expect(without(await emptyColumns(`wikidata_id LIKE 'X%'`), {})).toEqual([]);
  });

  test('the ingest: every column Wikidata can give, for every work it queued', async () => {
    /** What an ingested work may lack, and why. */
    const mayBeEmpty: Record<string, string> = {
      published_at: 'an ingested work waits in the queue; the publish run sets it',
      year: 'Wikidata has no inception date for some paintings',
      height_cm: 'Wikidata has no dimensions for some paintings',
      width_cm: 'Wikidata has no dimensions for some paintings',
    };
    await ingestCatalog(own.db, wikidataSource(sparqlClient({ url: sparql.url, retry: { sleep: async () => undefined } })));
    const empty = await emptyColumns(`NOT curated AND wikidata_id LIKE 'Q%'`);
    expect(without(empty, mayBeEmpty), 'columns the ingest leaves empty: write them in src/server/pipeline/ingest.ts, or say here why Wikidata may lack them').toEqual([]);
  });
});
