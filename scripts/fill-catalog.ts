/**
 * Fills a database with a deterministic synthetic catalog for benchmarks: 100,000 published
 * artworks by 5,000 published artists, in a few hundred browse pages (museums, movements, genres,
 * subjects), with titles and artist names in the six catalog languages.
 *
 *   node --import tsx --import ./scripts/server-process.mjs scripts/fill-catalog.ts [--works=100000] [--artists=5000] [--force]
 *
 * With DATABASE_URL it fills that database; without, it starts the embedded PostgreSQL in
 * DATA_DIR (default: <os temp dir>/art-prints-catalog-fill) and leaves its files there, so
 * `DATA_DIR=<that folder> npm start` serves the filled catalog. Both ways the database is
 * migrated and seeded first (the same step `npm start` runs).
 *
 * Synthetic rows are recognisable by their Wikidata id, which starts with `X` (real ones start
 * with `Q`). A second run finds the same counts and does nothing; a partial or different fill is
 * deleted and refilled; `--force` always refills.
 *
 * Everything goes in with bulk statements (`INSERT ... SELECT FROM unnest(...)`: 100,000 works or
 * 10,000 titles or links a statement) in one transaction with triggers off (`session_replication_role = replica`); the
 * search text is then computed for every synthetic work in one UPDATE with the same function the
 * triggers use, the stored counts are recounted, and the tables are vacuumed and analyzed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { recountCatalog } from '@/server/catalog/counts';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { createDb } from '@/server/db/client';
import { parseEnv } from '@/server/env';
import type { TaxonKind } from '@/shared/catalog';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';

/**
 * The columns of the vocabulary (below): the catalog languages it is written in. The fill writes
 * every catalog language (src/shared/locales.ts); one the vocabulary has no column for gets the
 * English words, as the shop shows English where a translation is missing.
 */
const VOCABULARY = ['en', 'es', 'fr', 'de', 'it', 'ja'] as const satisfies readonly CatalogLocale[];
type Words = readonly [en: string, es: string, fr: string, de: string, it: string, ja: string];

export interface FillOptions {
  works?: number;
  artists?: number;
  /** Delete the synthetic rows and fill again even when the counts already match. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface FillResult {
  filled: boolean;
  works: number;
  artists: number;
  taxa: number;
  seconds: number;
}

// ───────────────────────────── vocabulary ─────────────────────────────

/** Painters' names of one tradition: [latin, japanese] for first and family names. */
interface NameGroup {
  first: [string, string][];
  last: [string, string][];
  /** Family name first, in the latin spelling too (Japanese painters). */
  familyFirst?: boolean;
}

/**
 * What the catalog is made of (scripts/data/fill-vocabulary.json), each concept in the VOCABULARY
 * languages in that order: the nouns titles are made of (about 3 % of works hold any one noun;
 * each is a subject's browse page too), the adjectives, times and cities titles add, the museum
 * types crossed with the cities for the museums, the movements and genres; and the painters' names
 * by tradition. Data, not code: adding a word changes the fill (and the benchmark's fingerprint of
 * it), not the script.
 */
interface Vocabulary {
  nouns: Words[];
  adjectives: Words[];
  times: Words[];
  cities: Words[];
  museumTypes: Words[];
  movements: Words[];
  genres: Words[];
  nameGroups: NameGroup[];
}

export const VOCABULARY_FILE = fileURLToPath(new URL('./data/fill-vocabulary.json', import.meta.url));

/** Reads the vocabulary, refusing a row that lacks a language: a missing word would put `undefined` in titles. */
function readVocabulary(): Vocabulary {
  const vocabulary = JSON.parse(readFileSync(VOCABULARY_FILE, 'utf8')) as Vocabulary;
  const words = (row: unknown) => Array.isArray(row) && row.length === VOCABULARY.length && row.every((word) => typeof word === 'string' && word !== '');
  const names = (row: unknown) => Array.isArray(row) && row.length === 2 && row.every((name) => typeof name === 'string' && name !== '');
  const { nameGroups, ...lists } = vocabulary;
  for (const [list, rows] of Object.entries(lists)) {
    const bad = (rows as unknown[]).findIndex((row) => !words(row));
    if (bad >= 0) throw new Error(`${VOCABULARY_FILE}: ${list}[${bad}] is not ${VOCABULARY.length} words (${VOCABULARY.join(', ')})`);
  }
  nameGroups.forEach((group, at) => {
    if (![...group.first, ...group.last].every(names)) throw new Error(`${VOCABULARY_FILE}: nameGroups[${at}] has a name that is not [latin, japanese]`);
  });
  return vocabulary;
}

const vocabulary = readVocabulary();
export const NOUNS = vocabulary.nouns;
const { adjectives: ADJECTIVES, times: TIMES, cities: CITIES, museumTypes: MUSEUM_TYPES, movements: MOVEMENTS, genres: GENRES, nameGroups: NAME_GROUPS } = vocabulary;

/** How often a work has a title in each language (English always; 0.5 for a language not named here). */
const TITLE_SHARE: Partial<Record<CatalogLocale, number>> = { en: 1, es: 0.65, fr: 0.8, de: 0.7, it: 0.6, ja: 0.5 };

// ───────────────────────────── determinism ─────────────────────────────

/** A uniform number in [0, 1) that depends only on (n, salt): the same catalog on every run. */
export function rnd(n: number, salt: number): number {
  let h = (Math.imul(n, 0x9e3779b1) ^ Math.imul(salt + 0x632be5ab, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296;
}
const pick = <T>(list: readonly T[], n: number, salt: number): T => list[Math.floor(rnd(n, salt) * list.length)]!;
/** Skewed toward the start of the list (power > 1): a few museums and painters hold most works. */
const pickSkewed = (size: number, n: number, salt: number, power: number) => Math.min(size - 1, Math.floor(size * rnd(n, salt) ** power));

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A language's column in the vocabulary (English's when it has none). */
const L = (lang: CatalogLocale) => Math.max(0, (VOCABULARY as readonly CatalogLocale[]).indexOf(lang));

/** A title in every language from one of six patterns. */
function titleOf(i: number): Words {
  const a = pick(NOUNS, i, 1);
  let b = pick(NOUNS, i, 2);
  if (b === a) b = NOUNS[(NOUNS.indexOf(a) + 7) % NOUNS.length]!;
  const adj = pick(ADJECTIVES, i, 3);
  const time = pick(TIMES, i, 4);
  const city = pick(CITIES, i, 5);
  const pattern = Math.floor(rnd(i, 6) * 6);
  return VOCABULARY.map((lang) => {
    const k = L(lang);
    switch (pattern) {
      case 0:
        return a[k];
      case 1:
        return lang === 'en' || lang === 'de' ? `${adj[k]} ${a[k]}` : lang === 'ja' ? `${adj[k]}${a[k]}` : `${a[k]} ${adj[k]}`;
      case 2:
        return lang === 'ja' ? `${a[k]}と${b[k]}` : `${a[k]} ${['and', 'y', 'et', 'und', 'e'][k]} ${b[k]}`;
      case 3:
        return lang === 'ja' ? `${b[k]}のある${a[k]}` : `${a[k]} ${['with', 'con', 'avec', 'mit', 'con'][k]} ${b[k]}`;
      case 4:
        return lang === 'ja' ? `${time[k]}${a[k]}` : `${a[k]} ${time[k]}`;
      default:
        return lang === 'ja' ? `${city[k]}の${a[k]}` : `${a[k]} ${['in', 'en', 'à', 'in', 'a'][k]} ${city[k]}`;
    }
  }) as unknown as Words;
}

function artistOf(j: number): { names: Words; group: number } {
  const group = Math.floor(rnd(j, 11) * NAME_GROUPS.length);
  const g = NAME_GROUPS[group]!;
  const first = pick(g.first, j, 12);
  const last = pick(g.last, j, 13);
  const latin = g.familyFirst ? `${last[0]} ${first[0]}` : `${first[0]} ${last[0]}`;
  const ja = g.familyFirst ? `${last[1]}${first[1]}` : `${first[1]}・${last[1]}`;
  return { names: [latin, latin, latin, latin, latin, ja], group };
}

// ───────────────────────────── the fill ─────────────────────────────

interface TaxonSpec {
  kind: TaxonKind;
  names: Words;
}

function taxonSpecs(): TaxonSpec[] {
  const museums: TaxonSpec[] = [];
  for (const type of MUSEUM_TYPES) {
    for (const city of CITIES) {
      museums.push({ kind: 'museum', names: VOCABULARY.map((lang) => (lang === 'ja' ? `${city[5]}${type[5]}` : `${type[L(lang)]}, ${city[L(lang)]}`)) as unknown as Words });
    }
  }
  return [
    ...museums,
    ...MOVEMENTS.map((names) => ({ kind: 'movement' as const, names })),
    ...GENRES.map((names) => ({ kind: 'genre' as const, names })),
    ...NOUNS.map((names) => ({ kind: 'subject' as const, names })),
  ];
}

const BATCH = 10_000;
const BASE_TIME = Date.UTC(2026, 0, 1);

/** Runs `INSERT INTO table (columns) SELECT * FROM unnest($1::type[], ...)` in batches. */
async function bulkInsert(client: pg.ClientBase, table: string, columns: [name: string, type: string][], rows: unknown[][]) {
  const names = columns.map(([name]) => `"${name}"`).join(', ');
  const arrays = columns.map(([, type], k) => `$${k + 1}::${type}[]`).join(', ');
  const sql = `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += BATCH) {
    const slice = rows.slice(start, start + BATCH);
    await client.query(
      sql,
      columns.map((_, k) => slice.map((row) => row[k])),
    );
  }
}

/** How many works are generated and written at a time (with their titles and links): a million works take ten rounds. */
const CHUNK = 100_000;

interface Artist {
  id: number;
  names: Words;
  birth: number;
  death: number;
  movement: number;
}

/** The rows of works `from` to `to` (exclusive): the works, their titles and their browse-page links. */
function fillWorks(from: number, to: number, workBase: number, artists: Artist[], taxonIds: Record<TaxonKind, number[]>) {
  const workRows: unknown[][] = [];
  const textRows: unknown[][] = [];
  const linkRows: unknown[][] = [];
  for (let i = from; i < to; i++) {
    const id = workBase + i;
    const artist = artists[i < artists.length ? i : pickSkewed(artists.length, i, 21, 2.2)]!;
    const titles = titleOf(i);
    const year = Math.min(artist.death, artist.birth + 18 + Math.floor(rnd(i, 22) * (artist.death - artist.birth - 18)));
    const portraitLike = rnd(i, 23) < 0.5;
    const long = 20 + Math.round(rnd(i, 24) * 2800) / 10;
    const short = Math.round(long * (0.55 + rnd(i, 25) * 0.4) * 10) / 10;
    const popularity = Math.floor(300 * rnd(i, 26) ** 6);
    const publishedAt = BASE_TIME - Math.floor(rnd(i, 27) * 365 * 86_400_000);
    workRows.push([
      id,
      `${slugify(titles[0])}-${i + 1}`,
      `XW${i + 1}`,
      artist.id,
      year,
      portraitLike ? long : short,
      portraitLike ? short : long,
      `${artist.names[0]} - ${titles[0]} (${year}).jpg`,
      popularity,
      rnd(i, 28) < 0.01,
      publishedAt,
    ]);
    for (const lang of catalogLocales) {
      if (lang !== 'en' && rnd(i, 30 + L(lang)) >= (TITLE_SHARE[lang] ?? 0.5)) continue;
      const story = lang === 'en' && rnd(i, 29) < 0.6 ? `${titles[0]}, painted by ${artist.names[0]} in ${year}.` : null;
      textRows.push([id, lang, titles[L(lang)], story]);
    }
    const taxa = new Set<number>([
      taxonIds.museum[pickSkewed(taxonIds.museum.length, i, 40, 2)]!,
      rnd(i, 41) < 0.8 ? artist.movement : pick(taxonIds.movement, i, 42),
      pick(taxonIds.genre, i, 43),
      taxonIds.subject[NOUNS.findIndex((n) => n[0] === pick(NOUNS, i, 1)[0])]!,
    ]);
    const extraSubjects = Math.floor(rnd(i, 44) * 4); // 1-4 subjects in all
    for (let s = 0; s < extraSubjects; s++) taxa.add(pick(taxonIds.subject, i, 45 + s));
    for (const taxonId of taxa) linkRows.push([id, taxonId]);
  }
  return { works: workRows, texts: textRows, links: linkRows };
}

/** Fills the database at `url` (already migrated) with the synthetic catalog. */
export async function fillCatalog(url: string, options: FillOptions = {}): Promise<FillResult> {
  const works = options.works ?? 100_000;
  const artistCount = options.artists ?? 5_000;
  const log = options.log ?? ((line: string) => console.log(`[fill] ${line}`));
  const specs = taxonSpecs();
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts = await client.query<{ works: number; artists: number; taxa: number }>(`
      SELECT (SELECT count(*)::int FROM artworks WHERE wikidata_id LIKE 'X%') AS works,
             (SELECT count(*)::int FROM artists WHERE wikidata_id LIKE 'X%') AS artists,
             (SELECT count(*)::int FROM taxa WHERE wikidata_id LIKE 'X%') AS taxa`);
    const have = counts.rows[0]!;
    if (!options.force && have.works === works && have.artists === artistCount && have.taxa === specs.length) {
      log(`already filled: ${works} synthetic works by ${artistCount} artists in ${specs.length} browse pages`);
      return { filled: false, works, artists: artistCount, taxa: specs.length, seconds: (Date.now() - started) / 1000 };
    }

    await client.query('BEGIN');
    if (have.works || have.artists || have.taxa) {
      log('removing the previous synthetic fill');
      // Cascades (texts, browse-page links, favorites) are triggers: delete before they are switched off.
      await client.query(`DELETE FROM artworks WHERE wikidata_id LIKE 'X%'`);
      await client.query(`DELETE FROM artists WHERE wikidata_id LIKE 'X%'`);
      await client.query(`DELETE FROM taxa WHERE wikidata_id LIKE 'X%'`);
    }
    const triggersOn = await switchTriggersOff(client, log);

    const nextId = async (table: string) => Number((await client.query<{ n: number }>(`SELECT COALESCE(max(id), 0)::int AS n FROM ${table}`)).rows[0]!.n) + 1;

    // Browse pages: slugs made unique against the curated ones (the curated "impressionism" stays theirs).
    const taken = new Set((await client.query<{ key: string }>(`SELECT kind || ':' || slug AS key FROM taxa`)).rows.map((r) => r.key));
    const taxonBase = await nextId('taxa');
    const taxonIds: Record<TaxonSpec['kind'], number[]> = { museum: [], movement: [], genre: [], subject: [] };
    const taxaRows: unknown[][] = [];
    const taxonTextRows: unknown[][] = [];
    specs.forEach((spec, k) => {
      const id = taxonBase + k;
      let slug = slugify(spec.names[0]);
      for (let n = 2; taken.has(`${spec.kind}:${slug}`); n++) slug = `${slugify(spec.names[0])}-${n}`;
      taken.add(`${spec.kind}:${slug}`);
      taxonIds[spec.kind].push(id);
      taxaRows.push([id, spec.kind, slug, `XT${k + 1}`, BASE_TIME]);
      catalogLocales.forEach((lang) => taxonTextRows.push([id, lang, spec.names[L(lang)], lang === 'en' ? `${spec.names[0]}: works in the catalog, best known first.` : null]));
    });
    await client.query(
      `INSERT INTO taxa (id, kind, slug, wikidata_id, updated_at)
       SELECT id, kind::"TaxonKind", slug, wd, to_timestamp(t / 1000.0) FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::float8[]) AS u(id, kind, slug, wd, t)`,
      [0, 1, 2, 3, 4].map((c) => taxaRows.map((r) => r[c])),
    );
    await bulkInsert(
      client,
      'taxon_texts',
      [
        ['taxon_id', 'int'],
        ['locale', 'text'],
        ['name', 'text'],
        ['description', 'text'],
      ],
      taxonTextRows,
    );
    log(`${specs.length} browse pages`);

    // Artists, each with a main movement most of their works belong to.
    const artistBase = await nextId('artists');
    const artists: Artist[] = Array.from({ length: artistCount }, (_, j) => {
      const { names } = artistOf(j);
      const birth = 1300 + Math.floor(rnd(j, 14) * 600);
      const death = birth + 30 + Math.floor(rnd(j, 15) * 60);
      return { id: artistBase + j, names, birth, death, movement: pick(taxonIds.movement, j, 16) };
    });
    await client.query(
      `INSERT INTO artists (id, slug, wikidata_id, name, birth_year, death_year, status, published_at, updated_at)
       SELECT id, slug, wd, name, b, d, 'published', to_timestamp(t / 1000.0), to_timestamp(t / 1000.0)
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::float8[]) AS u(id, slug, wd, name, b, d, t)`,
      [
        artists.map((a) => a.id),
        artists.map((a, j) => `${slugify(a.names[0])}-${j + 1}`),
        artists.map((_, j) => `XA${j + 1}`),
        artists.map((a) => a.names[0]),
        artists.map((a) => a.birth),
        artists.map((a) => a.death),
        artists.map((_, j) => BASE_TIME - j * 60_000),
      ],
    );
    const artistTextRows: unknown[][] = [];
    for (const a of artists) {
      catalogLocales.forEach((lang) =>
        artistTextRows.push([
          a.id,
          lang,
          a.names[L(lang)],
          lang === 'en' ? `${a.names[0]} (${a.birth}–${a.death}) was a painter whose works are reproduced by hand in our studio.` : null,
        ]),
      );
    }
    await bulkInsert(
      client,
      'artist_texts',
      [
        ['artist_id', 'int'],
        ['locale', 'text'],
        ['name', 'text'],
        ['bio', 'text'],
      ],
      artistTextRows,
    );
    log(`${artistCount} artists`);

    // Works: the first of each artist so every artist has one, then skewed toward prolific painters.
    // Written a chunk at a time (rows in id order, so the table is stored in id order), so that a
    // million works never hold all their rows in Node's memory at once.
    const workBase = await nextId('artworks');
    let titles = 0;
    let links = 0;
    for (let from = 0; from < works; from += CHUNK) {
      const chunk = fillWorks(from, Math.min(works, from + CHUNK), workBase, artists, taxonIds);
      await client.query(
        `INSERT INTO artworks (id, slug, wikidata_id, artist_id, year, height_cm, width_cm, image_file, popularity, featured, curated, status, published_at, updated_at)
         SELECT id, slug, wd, artist_id, year, h, w, image, pop, featured, false, 'published', to_timestamp(t / 1000.0), to_timestamp(t / 1000.0)
           FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::numeric[], $7::numeric[], $8::text[], $9::int[], $10::bool[], $11::float8[])
                AS u(id, slug, wd, artist_id, year, h, w, image, pop, featured, t)`,
        chunk.works[0]!.map((_, k) => chunk.works.map((row) => row[k])),
      );
      await bulkInsert(
        client,
        'artwork_texts',
        [
          ['artwork_id', 'int'],
          ['locale', 'text'],
          ['title', 'text'],
          ['story', 'text'],
        ],
        chunk.texts,
      );
      await bulkInsert(
        client,
        'artwork_taxa',
        [
          ['artwork_id', 'int'],
          ['taxon_id', 'int'],
        ],
        chunk.links,
      );
      titles += chunk.texts.length;
      links += chunk.links.length;
      if (works > CHUNK) log(`${Math.min(works, from + CHUNK)} of ${works} artworks`);
    }
    log(`${works} artworks, ${titles} titles, ${links} browse-page links`);

    // What the triggers would have written, for all synthetic works at once: the search text,
    // then the search index's terms and entries with their leads (migrations
    // 20261124090000_search_terms, 20261125130000_term_leads); each word's best-known work
    // (search_terms.best) is set by the recount below.
    await client.query(`UPDATE artworks SET search_text = artwork_search_text(id, artist_id) WHERE id >= $1`, [workBase]);
    await client.query(
      `INSERT INTO search_terms (term)
       SELECT DISTINCT unnest(search_terms_of(search_text)) FROM artworks WHERE id >= $1 AND status = 'published' AND search_text IS NOT NULL
       ON CONFLICT DO NOTHING`,
      [workBase],
    );
    await client.query(
      `INSERT INTO artwork_terms (artwork_id, term, popularity, lead)
       SELECT w.id, t, w.popularity, COALESCE(l.lead, 0) FROM artworks w CROSS JOIN LATERAL unnest(search_terms_of(w.search_text)) t
         LEFT JOIN artwork_title_leads($1, 2147483647) l ON l.artwork_id = w.id AND l.term = t
        WHERE w.id >= $1 AND w.status = 'published' AND w.search_text IS NOT NULL`,
      [workBase],
    );
    for (const table of ['taxa', 'artists', 'artworks']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    await triggersOn();
    await client.query('COMMIT');
    log('search text computed, committed');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }

  const db = createDb(url);
  try {
    const recounted = await recountCatalog(db);
    log(`recounted ${recounted.artists} artists and ${recounted.taxa} browse pages`);
  } finally {
    await db.$disconnect();
  }
  const vacuum = new pg.Client({ connectionString: url });
  await vacuum.connect();
  try {
    await vacuum.query('VACUUM (ANALYZE) artworks, artwork_texts, artwork_taxa, artists, artist_texts, taxa, taxon_texts, artwork_terms, search_terms');
  } finally {
    await vacuum.end();
  }
  const seconds = (Date.now() - started) / 1000;
  log(`filled in ${seconds.toFixed(1)} s (vacuumed and analyzed)`);
  return { filled: true, works, artists: artistCount, taxa: specs.length, seconds };
}

/**
 * Triggers off for this transaction: `session_replication_role = replica` (superuser, or a user
 * granted SET on it), else the search triggers are disabled by name (table owner) and enabled again
 * before commit. Foreign keys are not checked in replica mode; the fill writes consistent rows.
 */
async function switchTriggersOff(client: pg.ClientBase, log: (line: string) => void): Promise<() => Promise<void>> {
  await client.query('SAVEPOINT triggers');
  try {
    await client.query('SET LOCAL session_replication_role = replica');
    return async () => undefined; // SET LOCAL ends with the transaction
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT triggers');
  }
  log('session_replication_role is not allowed for this user: disabling the search triggers by name instead');
  const triggers = [
    ['artworks', 'artworks_search_text'],
    ['artwork_texts', 'artwork_texts_search_text'],
    ['artist_texts', 'artist_texts_search_text'],
    ['artists', 'artists_search_text'],
    ['artworks', 'artworks_terms_insert'],
    ['artworks', 'artworks_terms_update'],
  ];
  for (const [table, trigger] of triggers) await client.query(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
  // ALTER TABLE is transactional: enabled again in the same transaction, before COMMIT.
  return async () => {
    for (const [table, trigger] of triggers) await client.query(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
  };
}

// ───────────────────────────── command line ─────────────────────────────

function flag(name: string): string | undefined {
  const arg = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  return arg === undefined ? undefined : (arg.split('=')[1] ?? '');
}

async function main() {
  const works = flag('works') ? Number(flag('works')) : undefined;
  const artists = flag('artists') ? Number(flag('artists')) : undefined;
  const force = flag('force') !== undefined;
  const dataDir = process.env.DATA_DIR ?? path.join(tmpdir(), 'art-prints-catalog-fill');
  if (!process.env.DATABASE_URL) mkdirSync(dataDir, { recursive: true, mode: 0o755 });
  const config = parseEnv({ ...process.env, DATA_DIR: dataDir });
  const database = await openDatabase(config);
  try {
    await prepareDatabase(database.url);
    await fillCatalog(database.url, { works, artists, force });
    if (!config.DATABASE_URL) console.log(`[fill] the embedded database is in ${dataDir}; serve it with DATA_DIR=${dataDir} npm start`);
  } finally {
    await database.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(`[fill] failed: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  });
}
