/**
 * The database time of every catalog read, statement by statement: each read is called once
 * through the real service with a Prisma client that logs its statements, then each statement is
 * sent again RUNS times with the same parameters through `pg` on one warm connection and timed
 * from send to answer (parse, plan, execute, rows back: what the database costs the app, without
 * Prisma). The report gives the best (the statement's own cost) and the median (what other work
 * on the machine added); --plans writes each statement's `EXPLAIN (ANALYZE, BUFFERS)`. For measuring SQL changes on a filled database without the whole benchmark
 * (docs/benchmarks/README.md "search-sql-2026-11-24"); `npm run bench` stays the judge of requests per second.
 *
 *   DATABASE_URL=… node --import tsx --import ./scripts/server-process.mjs scripts/catalog-plans.ts [--only=search] [--plans=FILE]
 *
 * The database must already be filled (scripts/fill-catalog.ts) and analyzed.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '@/generated/prisma/client';
import { PLANNED_CONNECTION_SETUP, statementName, type Db } from '@/server/db/client';
import type { Locale } from '@/shared/locales';
import { explainAsSent } from './lib/statements';
import { typedSuggestions } from './lib/typing';

/** How often each statement is timed. */
const RUNS = 11;

interface Case {
  group: string;
  label: string;
  read: (db: Db) => Promise<unknown>;
}

async function cases(client: pg.Client): Promise<Case[]> {
  const service = (await import(process.env.CATALOG_SERVICE ?? '@/server/catalog/service')) as typeof import('@/server/catalog/service');
  const first = async (sql: string) => (await client.query<{ slug: string; kind?: string }>(sql)).rows;
  const works = await first(`SELECT slug FROM artworks WHERE status = 'published' AND id % 997 = 7 ORDER BY id LIMIT 4`);
  const curated = await first(`SELECT slug FROM artworks WHERE status = 'published' AND curated ORDER BY id LIMIT 2`);
  const artists = await first(`SELECT slug FROM artists WHERE status = 'published' AND artwork_count > 0 ORDER BY (id * 7919) % 10007 LIMIT 4`);
  const taxa = await first(`SELECT kind::text || 's' AS kind, slug FROM taxa WHERE artwork_count >= 3 ORDER BY (id * 7919) % 10007 LIMIT 4`);
  const big = await first(`SELECT kind::text || 's' AS kind, slug FROM taxa WHERE artwork_count >= 3 ORDER BY artwork_count DESC LIMIT 1`);
  const list: Case[] = [
    ...(['en', 'fr', 'ja'] as const).map((locale) => ({ group: 'artworks', label: `page 1 ${locale}`, read: (db: Db) => service.listArtworks(db, { page: 1, locale }) })),
    { group: 'artworks', label: 'page 1500 de', read: (db) => service.listArtworks(db, { page: 1500, locale: 'de' }) },
    // The grid filtered: by an artist (a few dozen works), the featured works, a browse page.
    { group: 'artworks', label: `artist ${artists[0]!.slug}`, read: (db) => service.listArtworks(db, { artist: artists[0]!.slug, page: 1, locale: 'en' }) },
    { group: 'artworks', label: 'featured', read: (db) => service.listArtworks(db, { featured: '1', page: 1, locale: 'en' }) },
    ...big.map(({ kind, slug }) => ({
      group: 'artworks',
      label: `${kind} ${slug}`,
      read: (db: Db) => service.listArtworks(db, { [kind!.replace(/s$/, '')]: slug, page: 1, locale: 'fr' }),
    })),
    ...[...curated, ...works].map(({ slug }, i) => ({
      group: 'artwork-detail',
      label: slug,
      read: (db: Db) => service.artworkDetail(db, slug, (['en', 'fr', 'ja', 'de', 'es', 'it'] as const)[i % 6]!),
    })),
    ...[1, 3].map((page) => ({ group: 'artists', label: `page ${page}`, read: (db: Db) => service.listArtists(db, page, 'fr') })),
    // A favorites list or a wall: cards by slug, in the order given.
    {
      group: 'by-slugs',
      label: `${works.length + curated.length} slugs`,
      read: (db) =>
        service.artworksBySlugs(
          db,
          [...curated, ...works].map((w) => w.slug),
          'de',
        ),
    },
    { group: 'by-slugs', label: '1 slug', read: (db) => service.artworksBySlugs(db, [works[0]!.slug], 'ja') },
    ...artists.map(({ slug }, i) => ({ group: 'artist-detail', label: slug, read: (db: Db) => service.artistDetail(db, slug, 1 + (i % 2), i % 2 ? 'ja' : 'en') })),
    ...['museums', 'movements'].map((kind) => ({ group: 'taxa', label: kind, read: (db: Db) => service.listTaxa(db, kind, 1, 'es') })),
    ...[...taxa, ...big].map(({ kind, slug }, i) => ({
      group: 'taxon-detail',
      label: `${kind}/${slug}`,
      read: (db: Db) => service.taxonDetail(db, kind!, slug, 1, i % 2 ? 'it' : 'en'),
    })),
  ];
  const searches: [Locale, string][] = [
    ['en', 'river'],
    ['en', 'portrait'],
    ['en', 'moreau'],
    ['fr', 'rivière'],
    ['fr', 'eglise'],
    ['de', 'garten'],
    ['es', 'jardín'],
    ['it', 'giardino'],
    ['ja', '庭園'],
    ['ja', '川'],
    ['ja', 'ひまわり'],
    ['en', 'river sunset'],
    ['en', 'woman flowers'],
    ['fr', 'femme fleurs'],
    ['de', 'blaue fluss'],
    ['es', 'mujer flores'],
    ['it', 'donna fiori'],
    // A one-letter word among longer ones (the search for the suggestion "Jardin à Paris").
    ['fr', 'jardin à paris'],
    ['ja', '青い 川'],
    ['ja', '庭園 夕暮れ'],
    // Three and four words (planned once since 2026-11-28), with one-letter and CJK words.
    ['en', 'river at sunset'],
    ['en', 'the starry night'],
    ['de', 'frau mit blumen'],
    ['ja', '青い 川 夕暮れ'],
    ['en', 'woman with a parasol'],
    ['fr', 'le pont de langlois'],
    ['ja', '川 青い 夕暮れ 庭'],
  ];
  for (const [locale, q] of searches)
    list.push({
      group: `search-${['one', 'two'][q.split(' ').length - 1] ?? 'more'}`,
      label: `${locale} ${q}`,
      read: (db) => service.listArtworks(db, { q, page: 1, locale }),
    });
  // Typos: the search finds nothing, so "did you mean" looks for the closest title or name (and
  // the search runs again for it): one or two words, run together, an artist's name.
  for (const [locale, q] of [
    ['en', 'rivre sunset'],
    ['en', 'gardn'],
    ['de', 'sternenacht'],
    ['en', 'monalisa'],
    ['fr', 'jardim paris'],
    ['en', 'portriat'],
    ['en', 'moreu'],
  ] as const) {
    list.push({ group: 'search-typo', label: `${locale} ${q}`, read: (db) => service.listArtworks(db, { q, page: 1, locale }) });
  }
  const typing: [Locale, string][] = [
    ...typedSuggestions,
    ['es', 'jardí'],
    ['it', 'giard'],
    ['en', 'monalisa'],
    ['en', 'r'],
    // Issue #17's target inputs: one and two letters, word prefixes, a full word, two words,
    // typos, short and longer Japanese, accents.
    ['en', 'st'],
    ['en', 'star'],
    ['de', 'nacht'],
    ['en', 'portrait'],
    ['en', 'starry ni'],
    ['en', 'woman with'],
    ['de', 'sternenacht'],
    ['ja', '夜'],
    ['ja', '星月'],
    ['ja', 'ひまわり'],
    ['fr', 'tournesols'],
    ['fr', 'café'],
    ['fr', 'cafe'],
  ];
  for (const [locale, q] of typing) list.push({ group: 'suggestions', label: `${locale} ${q}`, read: (db) => service.searchSuggestions(db, q, locale) });
  return list;
}

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL to a filled database.');
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const plansFile = process.argv.find((a) => a.startsWith('--plans='))?.slice(8);
  // --prepared: the statements the app plans once (planOnce) as it sends them: named, on a
  // connection of its pool of planned statements (src/server/db/client.ts), timed after the
  // first execution made the plan; the others unnamed, as without it.
  const prepared = process.argv.includes('--prepared');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const planned = new pg.Client({ connectionString: url });
  await planned.connect();
  await planned.query(PLANNED_CONNECTION_SETUP);
  const logging = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: 'event', level: 'query' }] });
  let seen: { sql: string; params: unknown[] }[] = [];
  (logging as unknown as { $on(e: 'query', cb: (event: { query: string; params: string }) => void): void }).$on('query', (event) => {
    seen.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] });
  });
  const plans: string[] = [];
  const lines: string[] = [
    `load average at start: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
    '',
    `| read | case | statements | database ms, best of ${RUNS} (each) | best, sum | median, sum |`,
    '|---|---|---|---|---|---|',
  ];
  console.log(lines.join('\n'));
  try {
    for (const c of (await cases(client)).filter((c) => !only || only.some((o) => c.group.startsWith(o)))) {
      seen = [];
      await c.read(logging);
      const statements = seen;
      const times: number[] = [];
      const medians: number[] = [];
      for (const s of statements) {
        const runs: number[] = [];
        // The statement itself, as the app sends it (parse, plan, execute, answer), on a warm
        // connection: EXPLAIN's own figures leave out parsing and serialization and add clock
        // calls per node, and neither is small beside a 2 ms statement.
        const name = prepared ? statementName(s.sql) : undefined;
        const send = () => (name ? planned.query({ name, text: s.sql, values: s.params }) : client.query({ text: s.sql, values: s.params }));
        // Untimed first: the connection's caches, and a named statement's preparation.
        for (let k = 0; k < 2; k++) await send();
        for (let k = 0; k < RUNS; k++) {
          const start = performance.now();
          await send();
          runs.push(performance.now() - start);
        }
        // A named statement's plan is the one it keeps (EXECUTE on its connection).
        const { text } = await explainAsSent(client, planned, { ...s, name });
        runs.sort((a, b) => a - b);
        times.push(runs[0]!);
        medians.push(runs[Math.floor(RUNS / 2)]!);
        plans.push(`### ${c.group}: ${c.label}\n\n${s.sql}\n-- ${JSON.stringify(s.params)}\n\n${text}\n`);
      }
      const line = `| ${c.group} | ${c.label} | ${statements.length} | ${times.map((t) => t.toFixed(2)).join(' + ')} | ${times.reduce((a, b) => a + b, 0).toFixed(2)} | ${medians.reduce((a, b) => a + b, 0).toFixed(2)} |`;
      console.log(line);
      lines.push(line);
    }
  } finally {
    await logging.$disconnect();
    await client.end();
    await planned.end();
  }
  console.log(
    `load average at end: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  if (plansFile) writeFileSync(plansFile, plans.join('\n'));
}

await main();
