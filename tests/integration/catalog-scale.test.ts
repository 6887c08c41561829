import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { Prisma } from '@/generated/prisma/client';
import { recountCatalog } from '@/server/catalog/counts';
import { artworksBySlugs, listArtists, listArtworks, searchSuggestions, taxonDetail } from '@/server/catalog/service';
import type { Db } from '@/server/db/client';
import { ownDatabase } from '../support/database';

let db: Db;
let drop: () => Promise<void>;

/** 20,000 published works by one synthetic painter: enough for the planner to show its hand. */
beforeAll(async () => {
  ({ db, drop } = await ownDatabase('scale'));
  const artist = await db.artist.create({ data: { slug: 'synthetic-painter', name: 'Synthetic Painter', status: 'published' } });
  await db.$executeRaw`
    INSERT INTO artworks (slug, artist_id, year, popularity, status, published_at, updated_at)
    SELECT 'synthetic-' || n, ${artist.id}, 1800 + n % 120, n % 97, 'published', now(), now() FROM generate_series(1, 20000) n`;
  await db.$executeRaw`
    INSERT INTO artwork_texts (artwork_id, locale, title)
    SELECT id, 'en', 'Study of ' || (ARRAY['light', 'water', 'harbour', 'orchard', 'winter'])[1 + n % 5] || ' number ' || n
      FROM (SELECT id, split_part(slug, '-', 2)::int AS n FROM artworks WHERE slug LIKE 'synthetic-%') s`;
  await recountCatalog(db);
  // VACUUM, not only ANALYZE: rows just inserted sit in the GIN indexes' pending lists, which only
  // VACUUM (or autovacuum, whenever it comes by) merges; until then the planner prices the index
  // scan high and may choose a scan of artworks. A live catalog is vacuumed all along.
  await db.$executeRawUnsafe('VACUUM ANALYZE');
}, 120_000);
afterAll(() => drop());

test('search at scale is served by the trigram index, never a scan of artworks', async () => {
  const plan = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`
    EXPLAIN SELECT w.id FROM artworks w
     WHERE w.status = 'published' AND w.search_text LIKE '%' || shop_fold('sternennacht') || '%'`;
  const text = plan.map((row) => row['QUERY PLAN']).join('\n');
  expect(text, text).toMatch(/Bitmap Index Scan on artworks_search_text_trgm/);
  expect(text, text).not.toMatch(/Seq Scan on artworks/);
});

test('one- and two-character Japanese words are served by the CJK index, never a scan of artworks', async () => {
  // Japanese titles for a fifth of the synthetic works: 川 (river) in some, 庭園 (garden) in others.
  await db.$executeRaw`
    INSERT INTO artwork_texts (artwork_id, locale, title)
    SELECT id, 'ja', (ARRAY['川の習作', '庭園の習作', '冬の光', '港の朝', '果樹園'])[1 + n % 5] || ' ' || n
      FROM (SELECT id, split_part(slug, '-', 2)::int AS n FROM artworks WHERE slug LIKE 'synthetic-%') s
     WHERE n % 4 = 0`;
  await db.$executeRawUnsafe('VACUUM ANALYZE artworks');
  for (const word of ['川', '庭園']) {
    const plan = await db.$queryRaw<{ 'QUERY PLAN': string }[]>`
      EXPLAIN SELECT w.id FROM artworks w
       WHERE w.status = 'published' AND cjk_grams(w.search_text) @> cjk_grams(shop_fold(${word}))`;
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text, text).toMatch(/Bitmap Index Scan on artworks_search_cjk_grams/);
    expect(text, text).not.toMatch(/Seq Scan on artworks/);
  }
  // n % 4 = 0 and n % 5 = 0 (川) or 1 (庭園): 1,000 works each among 1..20000.
  const river = await listArtworks(db, { q: '川', page: 1, locale: 'ja' });
  expect(river.total).toBe(1000);
  expect(river.items[0]?.title).toMatch(/^川の習作 /);
  const garden = await listArtworks(db, { q: '庭園 習作', page: 1, locale: 'ja' });
  expect(garden.total).toBe(1000);
  // A one-character word is a substring like any other: 冬 finds 冬の光 but not 川.
  const winter = await listArtworks(db, { q: '冬', page: 1, locale: 'ja' });
  expect(winter.total).toBe(1000);
  expect(winter.items.every((c) => c.title.startsWith('冬の光'))).toBe(true);
});

test('search still finds the curated work among 20,000 others, and the synthetic ones by their words', async () => {
  const starry = await listArtworks(db, { q: 'Sternennacht', page: 1, locale: 'en' });
  expect(starry.items.map((c) => c.slug)).toEqual(['the-starry-night']);
  // 1234 % 5 = 4: "winter"; the exact title ranks first among the titles holding these words.
  const winter = await listArtworks(db, { q: 'study of winter number 1234', page: 1, locale: 'en' });
  expect(winter.items[0]?.slug).toBe('synthetic-1234');
  expect(winter.items.map((c) => c.slug)).toEqual(expect.arrayContaining(['synthetic-12349']));
  const lists = await listArtworks(db, { page: 2, locale: 'en' });
  expect(lists.total).toBe(20031);
  expect(lists.items).toHaveLength(48);
});

/** Runs `read` on a client whose raw reads are also EXPLAINed; returns each statement's plan. */
async function plansOf(read: (db: Db) => Promise<unknown>): Promise<string[]> {
  const plans: string[] = [];
  const explaining = new Proxy(db, {
    get(target, prop) {
      if (prop !== '$queryRaw') return Reflect.get(target, prop);
      return async (sql: { text: string; values: unknown[] }) => {
        const rows = await target.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (ANALYZE, COSTS OFF) ${sql.text}`, ...sql.values);
        plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
        return target.$queryRaw(sql as never);
      };
    },
  });
  await read(explaining);
  return plans;
}

test('search that forgives at scale: the closest title and the suggestions start from the word list, not from the titles', async () => {
  const typo = await listArtworks(db, { q: 'Sternenacht', page: 1, locale: 'en' });
  // The German title found, named as the English page names it.
  expect(typo.suggestion).toEqual({ q: 'The Starry Night', shown: true });
  expect(typo.items.map((c) => c.slug)).toEqual(['the-starry-night']);
  // "Did you mean": the words near each typed word (the word list's trigram index), their
  // best-known works index-only; only those works' titles are read, by primary key.
  for (const q of ['Sternenacht', 'harbr numbr', 'monalisa']) {
    const [, closest, named] = await plansOf((explaining) => listArtworks(explaining, { q, page: 1, locale: 'en' }));
    expect(closest, closest).toMatch(/Bitmap Index Scan on search_terms_trgm/);
    // The closest text named in the page's language: titles by a folded-title index, never a scan
    // of the 400,000 titles (the few hundred painters' names may be read whole).
    expect(named, named).toMatch(/Index Scan on artwork_texts_title_(trgm|folded)/);
    expect(named, named).not.toMatch(/Seq Scan on (artwork_texts|artworks)/);
    expect(closest, closest).toMatch(/Index Only Scan using artwork_terms_term_popularity_artwork_id_lead_idx/);
    expect(closest, closest).not.toMatch(/artwork_texts_title_trgm|Seq Scan on (artwork_texts|artworks|artwork_terms)/);
  }
  // Suggestions start from the search index's words (issue #17): the works come index-only from
  // artwork_terms, never from a scan of the titles.
  for (const [q, locale] of [
    ['sternen', 'de'],
    ['monalisa', 'en'],
    ['harbr', 'en'],
  ] as const) {
    const plans = await plansOf((explaining) => searchSuggestions(explaining, q, locale));
    expect(plans).toHaveLength(1);
    const [plan] = plans as [string];
    expect(plan, plan).toMatch(/Index Only Scan using artwork_terms_term_popularity_artwork_id_lead_idx/);
    expect(plan, plan).not.toMatch(/Seq Scan on (artwork_texts|artworks|artwork_terms)/);
  }
  expect((await searchSuggestions(db, 'harbr', 'en')).items).toHaveLength(8);
});

test('"did you mean" for two misspelt words finds a work holding both nearest words, where neither word alone brings it', async () => {
  // "light" and "orchard" are each in 4,000 titles, never in the same one. One work holds both,
  // known well enough to be among each word's 2,000 best known (CLOSEST_PAIR_DEPTH), not among
  // the 64 best known of either: only the intersection of the two words' works finds it. Without
  // it, the answer would be the typed words mended ("orchard light").
  const painter = await db.artist.create({ data: { slug: 'pair-painter', name: 'Pair Painter', status: 'published' } });
  const [work] = await db.$queryRaw<{ id: number }[]>`
    INSERT INTO artworks (slug, artist_id, popularity, status, published_at, updated_at)
    VALUES ('orchard-light', ${painter.id}, 60, 'published', now(), now()) RETURNING id`;
  await db.$executeRaw`INSERT INTO artwork_texts (artwork_id, locale, title) VALUES (${work!.id}, 'en', 'Orchard Light')`;
  onTestFinished(async () => {
    await db.artwork.deleteMany({ where: { artistId: painter.id } });
    await db.artist.delete({ where: { id: painter.id } });
    await recountCatalog(db);
  });
  const found = await listArtworks(db, { q: 'orchrd ligt', page: 1, locale: 'en' });
  expect(found.suggestion).toEqual({ q: 'Orchard Light', shown: true });
  expect(found.items.map((c) => c.slug)).toEqual(['orchard-light']);
});

test('"did you mean" guesses by edits where no word is near by trigrams: one edit at most, a swapped word first, then the word the most works hold, read by a range of the word list', async () => {
  // One edit from "bule" lie "ble" (a letter dropped) and "blue" (two letters swapped count as one
  // edit; Levenshtein counts two), "ble" held by more works; one from "bxle" lie "bile", "ble" and
  // "bole": "bile" first in the alphabet, "ble" the most similar by trigrams, "bole" held by the
  // most works; two from "muonz" lies "moon" (held by many), one "munoz". The list's 20,000
  // numbers make it long. "port", "porto" and "por" are all near "portait" (0.44, 0.40, 0.33),
  // "portrait" nearest (0.55).
  const painter = await db.artist.create({ data: { slug: 'guess-painter', name: 'Guess Painter', status: 'published' } });
  const many = (n: number, title: string) => Array.from({ length: n }, () => title);
  const titles = [
    ...many(12, 'Moon Garden'),
    'Plaza Muñoz',
    ...many(12, 'Champ de blé'),
    'Blue Hour',
    ...many(20, 'Bole Study'),
    'Bile Green',
    ...many(40, 'Port Porto Por'),
    'Portrait at Sunset',
    'Garden of Seurat',
  ];
  await db.$executeRaw`
    WITH w AS (
      INSERT INTO artworks (slug, artist_id, popularity, status, published_at, updated_at)
      SELECT 'guess-' || n, ${painter.id}, 50, 'published', now(), now() FROM generate_series(1, ${titles.length}::int) n RETURNING id, slug)
    INSERT INTO artwork_texts (artwork_id, locale, title)
    SELECT w.id, 'en', (${titles}::text[])[split_part(w.slug, '-', 2)::int] FROM w`;
  onTestFinished(async () => {
    await db.artwork.deleteMany({ where: { artistId: painter.id } });
    await db.artist.delete({ where: { id: painter.id } });
    await recountCatalog(db);
  });
  await recountCatalog(db);
  const munoz = await listArtworks(db, { q: 'muonz', page: 1, locale: 'en' });
  expect(munoz.suggestion).toEqual({ q: 'Plaza Muñoz', shown: true });
  expect((await listArtworks(db, { q: 'bule', page: 1, locale: 'en' })).suggestion).toEqual({ q: 'Blue Hour', shown: true });
  // A typed word counts once, by its nearest word a work holds: the 40 works holding three words
  // near "portait" (0.44 + 0.40 + 0.33 when summed) no longer crowd out the one holding the
  // nearest words of both typed words (0.55 + 0.27, "sunset" guessed for "sunest").
  expect((await listArtworks(db, { q: 'portait sunest', page: 1, locale: 'en' })).suggestion).toEqual({ q: 'Portrait at Sunset', shown: true });
  // One edit at most: "secret", spelt right but absent, is two from "seurat".
  expect((await listArtworks(db, { q: 'secret', page: 1, locale: 'en' })).suggestion).toBeNull();
  const bole = await listArtworks(db, { q: 'bxle', page: 1, locale: 'en' });
  expect(bole.suggestion).toEqual({ q: 'Bole Study', shown: true });
  expect(bole.total).toBe(20);
  // The guess is a statement of its own, sent only when a typed word has no near word; it reads
  // the words starting with "m" as a range of the word list's primary key.
  const plans = await plansOf((explaining) => listArtworks(explaining, { q: 'muonz', page: 1, locale: 'en' }));
  const guessing = plans.filter((plan) => plan.includes('levenshtein_less_equal'));
  expect(guessing, plans.join('\n\n')).toHaveLength(1);
  expect(guessing[0]).toMatch(/Index Only Scan using search_terms_pkey on search_terms s_\d+ .*\n\s+Index Cond: \(\(term >= /);
  for (const plan of plans) expect(plan, plan).not.toMatch(/Seq Scan on (search_terms|artwork_texts|artworks|artwork_terms)/);
  const spelt = await plansOf((explaining) => listArtworks(explaining, { q: 'harbr numbr', page: 1, locale: 'en' }));
  expect(spelt.filter((plan) => plan.includes('levenshtein_less_equal'))).toEqual([]);
});

/** The generic plans (EXPLAIN (GENERIC_PLAN), no values) of the statements `read` sends: what a statement planned once runs. */
async function genericPlansOf(read: (db: Db) => Promise<unknown>): Promise<{ text: string; plan: string }[]> {
  const plans: { text: string; plan: string }[] = [];
  const explaining = new Proxy(db, {
    get(target, prop) {
      if (prop !== '$queryRaw') return Reflect.get(target, prop);
      return async (sql: { text: string; values: unknown[] }) => {
        const rows = await target.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(`EXPLAIN (GENERIC_PLAN, COSTS OFF) ${sql.text}`);
        plans.push({ text: sql.text, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
        return target.$queryRaw(sql as never);
      };
    },
  });
  await read(explaining);
  return plans;
}

test('a Japanese suggestion of one or two characters is planned once, and its plan reads the words through the CJK index alone', async () => {
  // With the substring test written as LIKE, the generic plan also took the trigram index and
  // rechecked every word's grams: 13-19 ms against 3-4 ms (100,000 works).
  for (const q of ['庭', '川の']) {
    const [{ text, plan }] = (await genericPlansOf((explaining) => searchSuggestions(explaining, q, 'ja'))) as [{ text: string; plan: string }];
    expect(text.startsWith('/* plan once */')).toBe(true);
    expect(plan, plan).toMatch(/Bitmap Index Scan on search_terms_cjk_grams/);
    expect(plan, plan).not.toMatch(/search_terms_trgm|Seq Scan on search_terms/);
    // The word is folded once (an InitPlan), not again for each of the words the index returns.
    expect(plan, plan).not.toMatch(/Filter: .*shop_fold\(\$/);
  }
  // The same statement with its values: 星月 is in 星月夜, The Starry Night's Japanese title.
  expect((await searchSuggestions(db, '星月', 'ja')).items.map((item) => item.slug)).toContain('the-starry-night');
});

test('the reads planned once keep plans that probe a page of rows: no trigram index for a title prefix or a CJK character, no scan of titles, the featured works by their own index', async () => {
  // A generic plan cannot turn a LIKE pattern from a parameter into a range of the folded-title
  // index, and takes a LIMIT parameter for a tenth of its input: before, the search box's plan
  // read the titles' trigram index (15 ms at 100,000 works) and a browse page's joined every
  // title by hash (60 ms). The featured works were found by walking every published work.
  const reads: [string, (db: Db) => Promise<unknown>][] = [
    // Page 2: no "did you mean" (a statement of its own).
    ['search, one word', (d) => listArtworks(d, { q: 'harbour', page: 2, locale: 'en' })],
    ['search, two words', (d) => listArtworks(d, { q: 'study harbour', page: 2, locale: 'en' })],
    // Three and four words, with a one-letter word and a CJK character among them.
    ['search, three words', (d) => listArtworks(d, { q: 'study of harbour', page: 2, locale: 'en' })],
    ['search, four words, one of them 川', (d) => listArtworks(d, { q: 'study 川 a harbour', page: 2, locale: 'ja' })],
    ['search, one CJK character', (d) => listArtworks(d, { q: '川', page: 2, locale: 'ja' })],
    ['the grid', (d) => listArtworks(d, { page: 2, locale: 'fr' })],
    ['the featured works', (d) => listArtworks(d, { featured: '1', page: 1, locale: 'en' })],
    ['a browse page', (d) => taxonDetail(d, 'movements', 'post-impressionism', 1, 'en')],
    ['the artists', (d) => listArtists(d, 1, 'en')],
    ['cards by slug', (d) => artworksBySlugs(d, ['synthetic-7', 'synthetic-12345', 'the-starry-night'], 'de')],
  ];
  for (const [name, read] of reads) {
    const plans = await genericPlansOf(read);
    expect(plans, name).toHaveLength(1);
    const [{ text, plan }] = plans as [{ text: string; plan: string }];
    expect(text.startsWith('/* plan once */'), name).toBe(true);
    expect(plan, `${name}\n${plan}`).not.toMatch(/Seq Scan on (artwork_texts|artworks|artwork_terms)|artwork_texts_title_trgm/);
    if (name.includes('CJK')) expect(plan, plan).not.toMatch(/search_terms_trgm|Filter: .*shop_fold\(\$/);
    if (name.includes('featured')) expect(plan, plan).toMatch(/artworks_featured_by_popularity/);
  }
});

/** Rows each table gave in a suggestion's plan (EXPLAIN ANALYZE, FORMAT JSON): actual rows × loops per node. */
async function rowsRead(q: string, locale: 'en' | 'ja' = 'en'): Promise<Record<string, number>> {
  const read: Record<string, number> = {};
  const explaining = new Proxy(db, {
    get(target, prop) {
      if (prop !== '$queryRaw') return Reflect.get(target, prop);
      return async (sql: { text: string; values: unknown[] }) => {
        const [row] = await target.$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, ...sql.values);
        const walk = (node: PlanNode) => {
          if (node['Relation Name']) read[node['Relation Name']] = (read[node['Relation Name']] ?? 0) + node['Actual Rows'] * node['Actual Loops'];
          for (const child of node.Plans ?? []) walk(child);
        };
        walk(row!['QUERY PLAN'][0].Plan);
        return target.$queryRaw(sql as never);
      };
    },
  });
  await searchSuggestions(explaining, q, locale);
  return read;
}
interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

test('a one- or two-letter suggestion reads a capped few titles, not every title that starts with it', async () => {
  // 20,000 synthetic titles start with "s" ("Study of …") and hold "study" and "of": the old
  // statement folded and scored every one. Now at most 64 candidates' titles (a few languages
  // each) and the 8 shown works' labels are read.
  for (const q of ['s', 'st', 'o', 'study of']) {
    const read = await rowsRead(q);
    expect(read.artwork_texts ?? 0, `${q}: ${JSON.stringify(read)}`).toBeLessThanOrEqual(64 * 6 + 8 * 3);
    expect(read.artworks ?? 0, `${q}: ${JSON.stringify(read)}`).toBeLessThanOrEqual(64 * 2 + 8);
    expect(read.artwork_terms ?? 0, `${q}: ${JSON.stringify(read)}`).toBeLessThan(3_000);
    const { items } = await searchSuggestions(db, q, 'en');
    expect(items, q).toHaveLength(8);
  }
  // Japanese, one character held by 1,000 synthetic titles (川の習作 n): the same cap.
  const read = await rowsRead('川', 'ja');
  expect(read.artwork_texts ?? 0, JSON.stringify(read)).toBeLessThanOrEqual(64 * 6 + 8 * 3);
  const river = await searchSuggestions(db, '川', 'ja');
  expect(river.items).toHaveLength(8);
  expect(river.items.every((i) => i.kind === 'artwork' && i.label.includes('川'))).toBe(true);
});

test("a one-letter suggestion follows its best-known words, not the first in alphabetical order, and recounting keeps each word's best exact", async () => {
  // 1,500 little-known works, one word each (qa0000 … qa1499), then a well-known Quokka: "q"
  // starts 1,501 words, and "quokka" comes after the others in the word list, whether it is read
  // in alphabetical order (its primary key) or in the order written (the trigram index's bitmap).
  // Following the first 400 words never reached it.
  const painter = await db.artist.create({ data: { slug: 'q-painter', name: 'Xylo', status: 'published' } });
  const paint = async (slugs: string, popularity: number, title: Prisma.Sql) => {
    await db.$executeRaw`
      INSERT INTO artworks (slug, artist_id, popularity, status, published_at, updated_at)
      SELECT s, ${painter.id}, ${popularity}, 'published', now(), now() FROM unnest(${slugs.split(' ')}::text[]) s`;
    await db.$executeRaw`
      INSERT INTO artwork_texts (artwork_id, locale, title)
      SELECT w.id, 'en', ${title} FROM artworks w
       WHERE w.artist_id = ${painter.id} AND NOT EXISTS (SELECT 1 FROM artwork_texts x WHERE x.artwork_id = w.id)`;
  };
  await paint(Array.from({ length: 1500 }, (_, n) => `qa-${n}`).join(' '), 1, Prisma.sql`'Qa' || lpad(split_part(w.slug, '-', 2), 4, '0')`);
  await paint('quokka', 90, Prisma.sql`'Quokka'`);
  onTestFinished(async () => {
    await db.artwork.deleteMany({ where: { artistId: painter.id } });
    await db.artist.delete({ where: { id: painter.id } });
    await recountCatalog(db);
  });
  const best = async (term: string) => (await db.searchTerm.findUnique({ where: { term } }))?.best;
  expect(await best('quokka')).toBe(90);
  expect(await best('qa0007')).toBe(1);
  expect((await searchSuggestions(db, 'q', 'en')).items[0]).toMatchObject({ kind: 'artwork', slug: 'quokka', label: 'Quokka' });

  // Raised as soon as a work is written; lowered only by the recount (an upper bound until then).
  await db.artwork.update({ where: { slug: 'qa-7' }, data: { popularity: 95 } });
  expect(await best('qa0007')).toBe(95);
  await db.artwork.update({ where: { slug: 'quokka' }, data: { popularity: 3 } });
  await db.artwork.update({ where: { slug: 'qa-7' }, data: { popularity: 2 } });
  expect([await best('quokka'), await best('qa0007')]).toEqual([90, 95]);
  await recountCatalog(db);
  expect([await best('quokka'), await best('qa0007')]).toEqual([3, 2]);
  // A word no published work holds any more is worth nothing.
  await db.artwork.update({ where: { slug: 'quokka' }, data: { status: 'queued' } });
  await recountCatalog(db);
  expect(await best('quokka')).toBe(0);
  expect((await searchSuggestions(db, 'q', 'en')).items.map((i) => i.slug)).not.toContain('quokka');
  // The Xylo painter's name is a word of all 1,501: "xylo" is as good as its best work.
  expect(await best('xylo')).toBe(2);
});

test("the grid's deep pages come from its stored order: the same works as the live order, planned once on its key, moved by the recount that follows a publish", async () => {
  const live = async (offset: number) =>
    (await db.$queryRaw<{ slug: string }[]>`SELECT slug FROM artworks WHERE status = 'published' ORDER BY popularity DESC, id OFFSET ${offset} LIMIT 48`).map((r) => r.slug);
  const slugsOf = async (page: number) => (await listArtworks(db, { page, locale: 'en' })).items.map((item) => item.slug);
  // Page 30 starts after 1,392 works: from the stored order. Page 2 walks the popularity index.
  expect(await slugsOf(30)).toEqual(await live(29 * 48));
  expect(await slugsOf(2)).toEqual(await live(48));
  const plans = await genericPlansOf((d) => listArtworks(d, { page: 30, locale: 'en' }));
  expect(plans).toHaveLength(1);
  expect(plans[0]!.text.startsWith('/* plan once */')).toBe(true);
  expect(plans[0]!.plan, plans[0]!.plan).toMatch(/Index Scan using grid_positions_pkey/);
  expect(plans[0]!.plan, plans[0]!.plan).not.toMatch(/artworks_published_by_popularity/);

  // A publish (and its recount) moves every place after the new work: the best known comes first.
  const painter = await db.artist.findUniqueOrThrow({ where: { slug: 'synthetic-painter' } });
  await db.artwork.create({ data: { slug: 'newly-published', artistId: painter.id, popularity: 1_000, status: 'published', publishedAt: new Date() } });
  onTestFinished(async () => {
    await db.artwork.delete({ where: { slug: 'newly-published' } });
    await db.artwork.updateMany({ where: { artistId: painter.id, status: 'queued' }, data: { status: 'published' } });
    await recountCatalog(db);
  });
  const before = await slugsOf(30);
  await recountCatalog(db);
  const after = await slugsOf(30);
  expect(after).toEqual(await live(29 * 48));
  expect(after.slice(1)).toEqual(before.slice(0, -1));
  // Unpublished since the last recount: its place shows nothing rather than a work that is not for sale.
  await db.artwork.update({ where: { slug: after[0]! }, data: { status: 'queued' } });
  expect(await slugsOf(30)).toEqual(after.slice(1));
});

test("a browse page's works come from its stored order, at any page: the same works as the live order, planned once on its key, moved by the recount that follows a publish", async () => {
  // A museum holding every third synthetic work (6,666: a page that used to walk the popularity
  // index) and a subject holding 267 others (one that used to collect its links).
  const museum = await db.taxon.create({ data: { kind: 'museum', slug: 'synthetic-museum', texts: { create: { locale: 'en', name: 'Synthetic Museum' } } } });
  const subject = await db.taxon.create({ data: { kind: 'subject', slug: 'synthetic-subject', texts: { create: { locale: 'en', name: 'Synthetic subject' } } } });
  await db.$executeRaw`
    INSERT INTO artwork_taxa (artwork_id, taxon_id)
    SELECT id, CASE WHEN n % 3 = 0 THEN ${museum.id}::int ELSE ${subject.id}::int END
      FROM (SELECT id, split_part(slug, '-', 2)::int AS n FROM artworks WHERE slug LIKE 'synthetic-%') s
     WHERE n % 3 = 0 OR n % 50 = 1`;
  const painter = await db.artist.findUniqueOrThrow({ where: { slug: 'synthetic-painter' } });
  onTestFinished(async () => {
    await db.artwork.deleteMany({ where: { slug: 'newly-in-the-museum' } });
    await db.artwork.updateMany({ where: { artistId: painter.id, status: 'queued' }, data: { status: 'published' } });
    await db.taxon.deleteMany({ where: { id: { in: [museum.id, subject.id] } } });
    await recountCatalog(db);
  });
  await recountCatalog(db);
  // Only a page whose works changed is written again: a recount with nothing new writes neither.
  const writtenBy = async (taxonId: number) =>
    (await db.$queryRaw<{ x: string }[]>`SELECT DISTINCT xmin::text AS x FROM taxon_positions WHERE taxon_id = ${taxonId}`).map((r) => r.x);
  const [museumWrite, subjectWrite] = [await writtenBy(museum.id), await writtenBy(subject.id)];
  expect(museumWrite).toHaveLength(1);
  await recountCatalog(db);
  expect([await writtenBy(museum.id), await writtenBy(subject.id)]).toEqual([museumWrite, subjectWrite]);
  const live = async (taxonId: number, offset: number) =>
    (
      await db.$queryRaw<{ slug: string }[]>`
        SELECT w.slug FROM artworks w JOIN artwork_taxa l ON l.artwork_id = w.id AND l.taxon_id = ${taxonId}
         WHERE w.status = 'published' ORDER BY w.popularity DESC, w.id OFFSET ${offset} LIMIT 48`
    ).map((r) => r.slug);
  const slugsOf = async (kind: 'museums' | 'subjects', slug: string, page: number) => (await taxonDetail(db, kind, slug, page, 'en')).works.items.map((item) => item.slug);

  for (const page of [1, 2, 60, 139]) expect(await slugsOf('museums', 'synthetic-museum', page), `museum page ${page}`).toEqual(await live(museum.id, (page - 1) * 48));
  for (const page of [1, 6]) expect(await slugsOf('subjects', 'synthetic-subject', page), `subject page ${page}`).toEqual(await live(subject.id, (page - 1) * 48));
  expect(await slugsOf('subjects', 'synthetic-subject', 6)).toHaveLength(267 - 5 * 48);
  const museumPage = await taxonDetail(db, 'museums', 'synthetic-museum', 139, 'en');
  expect(museumPage.works.total).toBe(6666);
  expect(museumPage.works.items).toHaveLength(6666 - 138 * 48);
  const plans = await genericPlansOf((d) => taxonDetail(d, 'museums', 'synthetic-museum', 60, 'en'));
  expect(plans).toHaveLength(1);
  expect(plans[0]!.plan, plans[0]!.plan).toMatch(/Index Scan using taxon_positions_pkey/);
  expect(plans[0]!.plan, plans[0]!.plan).not.toMatch(/artwork_taxa|artworks_published_by_popularity/);

  // A publish (and its recount) moves every place after the new work: the best known comes first.
  const created = await db.artwork.create({ data: { slug: 'newly-in-the-museum', artistId: painter.id, popularity: 1_000, status: 'published', publishedAt: new Date() } });
  await db.artworkTaxon.create({ data: { artworkId: created.id, taxonId: museum.id } });
  const before = await slugsOf('museums', 'synthetic-museum', 60);
  await recountCatalog(db);
  const after = await slugsOf('museums', 'synthetic-museum', 60);
  expect(after).toEqual(await live(museum.id, 59 * 48));
  expect(after.slice(1)).toEqual(before.slice(0, -1));
  expect((await slugsOf('museums', 'synthetic-museum', 1))[0]).toBe('newly-in-the-museum');
  expect(await writtenBy(museum.id)).not.toEqual(museumWrite);
  expect(await writtenBy(subject.id)).toEqual(subjectWrite);
  // Unpublished since the last recount: its place shows nothing rather than a work that is not for sale.
  await db.artwork.update({ where: { slug: after[0]! }, data: { status: 'queued' } });
  expect(await slugsOf('museums', 'synthetic-museum', 60)).toEqual(after.slice(1));
});

test('suggestions rank the best-known first among titles that answer alike', async () => {
  // "study of harbour number …": every title starts with it alike; popularity (n % 97) decides.
  const { items } = await searchSuggestions(db, 'study of harb', 'en');
  expect(items).toHaveLength(8);
  const known = await db.artwork.findMany({ where: { slug: { in: items.map((i) => i.slug) } }, select: { slug: true, popularity: true } });
  const popularity = new Map(known.map((k) => [k.slug, k.popularity]));
  const shown = items.map((i) => popularity.get(i.slug)!);
  expect(shown).toEqual([...shown].sort((a, b) => b - a));
  // The best known harbour studies have popularity 96 (n % 97 = 96, n % 5 = 2).
  expect(shown[0]).toBe(96);
  expect(items.every((i) => i.label.startsWith('Study of harbour number '))).toBe(true);
});

test('sitemap chunks hold at most 5,000 pages each', async () => {
  const { sitemapChunk, sitemapIndex } = await import('@/server/seo/sitemaps');
  const index = await sitemapIndex(db);
  const artworkChunks = index.sitemaps.filter((s) => s.type === 'artworks');
  expect(artworkChunks.map((s) => s.entries)).toEqual([5000, 5000, 5000, 5000, 31]);
  const last = await sitemapChunk(db, 'https://shop.example', 'artworks', 5);
  expect(last.entries).toHaveLength(31);
  const first = await sitemapChunk(db, 'https://shop.example', 'artworks', 1);
  expect(first.entries).toHaveLength(5000);
  expect(new Set(first.entries.map((e) => e.loc)).size).toBe(5000);
});
