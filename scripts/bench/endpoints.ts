// What is measured: the /v1 catalog reads, each with its addresses and group.
import pg from 'pg';
import { typedSuggestions } from '../lib/typing';
import { pluralOf, taxonKinds, type TaxonKind } from '@/shared/catalog';
import { ONLY } from './common';

// ───────────────────────────── endpoints ─────────────────────────────

/** `ceiling`: no catalog read, so no response cache and no target; it shows what the host allows any /v1 answer. */
type Group = 'core' | 'search' | 'sitemap-chunk' | 'info' | 'ceiling';
export interface Endpoint {
  name: string;
  label: string;
  group: Group;
  paths: string[];
}
/** Searches the synthetic titles and names hold in realistic shares (see fill-catalog's vocabulary). */
const SEARCHES: Record<string, { one: string[]; two: string[] }> = {
  en: { one: ['river', 'garden', 'portrait', 'bridge', 'horses', 'moreau'], two: ['river sunset', 'woman flowers', 'blue river', 'church winter', 'garden paris'] },
  fr: { one: ['rivière', 'jardin', 'eglise', 'fleurs', 'chevaux', 'nuit'], two: ['femme fleurs', 'pont hiver', 'jardin paris', 'riviere soleil', 'bateaux venise'] },
  ja: { one: ['庭園', 'ひまわり', '睡蓮', '教会', '踊り子', '川'], two: ['女性 花', '庭園 夕暮れ', '睡蓮 パリ', '青い 川', '教会 冬'] },
};

export async function endpoints(url: string): Promise<Endpoint[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const works = (await client.query<{ slug: string }>(`SELECT slug FROM artworks WHERE status = 'published' AND id % 997 = 7 ORDER BY id LIMIT 100`)).rows.map((r) => r.slug);
    const curated = (await client.query<{ slug: string }>(`SELECT slug FROM artworks WHERE status = 'published' AND curated ORDER BY id LIMIT 20`)).rows.map((r) => r.slug);
    const artists = (
      await client.query<{ slug: string }>(`SELECT slug FROM artists WHERE status = 'published' AND artwork_count > 0 ORDER BY (id * 7919) % 10007 LIMIT 100`)
    ).rows.map((r) => r.slug);
    const taxa = (
      await client.query<{ kind: string; slug: string }>(`SELECT kind::text AS kind, slug FROM taxa WHERE artwork_count >= 3 ORDER BY (id * 7919) % 10007 LIMIT 100`)
    ).rows;
    const sitemapChunks = Math.ceil(Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM artworks WHERE status = 'published'`)).rows[0]!.n) / 5000);
    const locales = ['en', 'fr', 'ja', 'de', 'es', 'it'];
    const loc = (i: number) => locales[i % locales.length]!;
    const allWorks = [...curated, ...works];
    const bySlugs = Array.from({ length: 50 }, (_, k) => Array.from({ length: 20 }, (_, j) => allWorks[(k * 37 + j * 13) % allWorks.length]!).join(','));
    const q = (text: string) => encodeURIComponent(text);
    const list: Endpoint[] = [
      {
        name: 'artworks-page-1',
        label: 'GET /v1/artworks?page=1 (en, fr, ja)',
        group: 'core',
        paths: ['en', 'fr', 'ja'].map((l) => `/v1/artworks?page=1&locale=${l}`),
      },
      {
        name: 'artworks-deep',
        label: 'GET /v1/artworks?page=1000…2000',
        group: 'core',
        paths: [1000, 1250, 1500, 1750, 2000].map((p, i) => `/v1/artworks?page=${p}&locale=${loc(i)}`),
      },
      {
        name: 'artwork-detail',
        label: `GET /v1/artworks/{slug} (${allWorks.length} slugs)`,
        group: 'core',
        paths: allWorks.map((s, i) => `/v1/artworks/${s}?locale=${loc(i)}`),
      },
      { name: 'artists', label: 'GET /v1/artists?page=1…5', group: 'core', paths: [1, 2, 3, 4, 5].map((p, i) => `/v1/artists?page=${p}&locale=${loc(i)}`) },
      {
        name: 'artist-detail',
        label: `GET /v1/artists/{slug} (${artists.length} artists)`,
        group: 'core',
        paths: artists.map((s, i) => `/v1/artists/${s}?locale=${loc(i)}`),
      },
      {
        name: 'by-slugs',
        label: 'GET /v1/artworks/by-slugs (20 slugs, 50 sets)',
        group: 'core',
        paths: bySlugs.map((s, i) => `/v1/artworks/by-slugs?slugs=${s}&locale=${loc(i)}`),
      },
      { name: 'taxa', label: 'GET /v1/taxa/{kind} (4 kinds)', group: 'core', paths: taxonKinds.map((k, i) => `/v1/taxa/${k}?locale=${loc(i)}`) },
      {
        name: 'taxon-detail',
        label: `GET /v1/taxa/{kind}/{slug} (${taxa.length} pages)`,
        group: 'core',
        paths: taxa.map((t, i) => `/v1/taxa/${pluralOf[t.kind as TaxonKind]}/${t.slug}?locale=${loc(i)}`),
      },
    ];
    for (const lang of ['en', 'fr', 'ja']) {
      for (const kind of ['one', 'two'] as const) {
        const words = SEARCHES[lang]![kind];
        list.push({
          name: `search-${lang}-${kind}`,
          label: `GET /v1/artworks?q= ${lang}, ${kind === 'one' ? 'one word' : 'two words'} (${words.join(' | ')})`,
          group: 'search',
          paths: words.map((w) => `/v1/artworks?q=${q(w)}&locale=${lang}`),
        });
      }
    }
    // Search that forgives: suggestions while typing (prefixes and typos, as a shopper types them)
    // and searches with a typo, which run the exact search, the closest-text query and the
    // suggestion's search (docs/decisions.md "Search that forgives").
    const typing = typedSuggestions;
    list.push({
      name: 'search-suggestions',
      label: `GET /v1/search/suggestions?q= (${typing.map(([, w]) => w).join(' | ')})`,
      group: 'search',
      paths: typing.map(([lang, w]) => `/v1/search/suggestions?q=${q(w)}&locale=${lang}`),
    });
    const typos = ['rivre sunset', 'gardn', 'portriat', 'jardim paris', 'moreu'];
    list.push({
      name: 'search-typo',
      label: `GET /v1/artworks?q= with a typo, did-you-mean (${typos.join(' | ')})`,
      group: 'search',
      paths: typos.map((w, i) => `/v1/artworks?q=${q(w)}&locale=${loc(i)}`),
    });
    list.push(
      { name: 'sitemap-index', label: 'GET /v1/seo/sitemaps', group: 'info', paths: ['/v1/seo/sitemaps'] },
      {
        name: 'sitemap-chunk',
        label: 'GET /v1/seo/sitemaps/artworks/{chunk} (5,000 entries)',
        group: 'sitemap-chunk',
        paths: Array.from({ length: Math.min(sitemapChunks - 1, 10) }, (_, i) => `/v1/seo/sitemaps/artworks/${i + 1}`),
      },
    );
    // The host's own ceiling: the cheapest /v1 answer there is (one trivial statement, no
    // catalog data, a 54-byte body): what any /v1 answer can get at 32 connections on this host.
    list.push({ name: 'health', label: 'GET /v1/health (the applied migrations, one statement: the cheapest /v1 answer)', group: 'ceiling', paths: ['/v1/health'] });
    const only = ONLY;
    return only ? list.filter((e) => only.some((o) => e.name.startsWith(o))) : list;
  } finally {
    await client.end();
  }
}
