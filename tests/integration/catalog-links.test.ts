import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { ownDatabase } from '../support/database';
import { rest as restOn } from '../support/rest';

/**
 * No dead ends (#17 item 1): a detail answer tells, for each browse page it names, whether that page
 * exists (`hasPage`, from the same stored count that decides the page: at least 3 published works),
 * so the website links only pages that answer 200.
 */
let db: Db;
let drop: () => Promise<void>;
const rest = (path: string, query?: Record<string, string>) => restOn('GET', path, { query, db });

interface Ref {
  kind: string;
  slug: string;
  name: string;
  hasPage: boolean;
}

beforeAll(async () => {
  ({ db, drop } = await ownDatabase('links'));
});
afterAll(() => drop());

describe('taxon references say whether their browse page exists', () => {
  test('The Starry Night: a museum and subject with fewer than 3 published works have no page; a movement with 5 has one', async () => {
    const { status, body } = await rest('/artworks/the-starry-night', { locale: 'ja' });
    expect(status).toBe(200);
    const taxa = body.artwork.taxa as Ref[];
    const bySlug = Object.fromEntries(taxa.map((t) => [`${t.kind}/${t.slug}`, t.hasPage]));
    expect(bySlug).toMatchObject({
      'museums/museum-of-modern-art': false, // 1 published work
      'subjects/night-sky': false, // 1
      'movements/post-impressionism': true, // 5
      'genres/landscape': true, // 4
      'subjects/trees': true, // 3: exactly the threshold
    });
    for (const taxon of taxa) expect(typeof taxon.hasPage).toBe('boolean');
  });

  test('hasPage agrees with the browse page answering 200 or 404, for every taxon of every published work', async () => {
    const list = await rest('/artworks', { page: '1' });
    expect(list.body.items.length).toBeGreaterThan(0);
    const seen = new Map<string, boolean>();
    for (const card of list.body.items as { slug: string }[]) {
      const detail = await rest(`/artworks/${card.slug}`);
      for (const taxon of detail.body.artwork.taxa as Ref[]) seen.set(`${taxon.kind}/${taxon.slug}`, taxon.hasPage);
    }
    expect([...seen.values()].filter((has) => !has).length).toBeGreaterThan(0);
    for (const [path, hasPage] of seen) {
      const page = await rest(`/taxa/${path}`);
      expect({ path, status: page.status }).toEqual({ path, status: hasPage ? 200 : 404 });
    }
  });

  test("an artist's movements: Renoir's Impressionism (1 work) has no page, Van Gogh's Post-Impressionism has one", async () => {
    const renoir = await rest('/artists/pierre-auguste-renoir');
    expect(renoir.body.movements).toEqual([expect.objectContaining({ kind: 'movements', slug: 'impressionism', hasPage: false })]);
    const vanGogh = await rest('/artists/vincent-van-gogh', { locale: 'de' });
    expect(vanGogh.body.movements).toEqual([expect.objectContaining({ slug: 'post-impressionism', hasPage: true, artworkCount: 5 })]);
  });

  test('a taxon gets its page once it reaches 3 published works, and the references follow', async () => {
    const moma = await db.taxon.findFirstOrThrow({ where: { kind: 'museum', slug: 'museum-of-modern-art' } });
    const others = await db.artwork.findMany({ where: { slug: { in: ['irises', 'the-kiss'] } }, select: { id: true } });
    expect(others).toHaveLength(2);
    await db.artworkTaxon.createMany({ data: others.map((w) => ({ artworkId: w.id, taxonId: moma.id })), skipDuplicates: true });
    const { recountCatalog } = await import('@/server/catalog/counts');
    await recountCatalog(db);
    try {
      const detail = await rest('/artworks/the-starry-night');
      expect((detail.body.artwork.taxa as Ref[]).find((t) => t.slug === 'museum-of-modern-art')?.hasPage).toBe(true);
      expect((await rest('/taxa/museums/museum-of-modern-art')).status).toBe(200);
    } finally {
      await db.artworkTaxon.deleteMany({ where: { taxonId: moma.id, artworkId: { in: others.map((w) => w.id) } } });
      await recountCatalog(db);
    }
  });

  test('every published work names an artist whose page exists', async () => {
    const list = await rest('/artworks');
    const artists = new Set((list.body.items as { artist: { slug: string } }[]).map((w) => w.artist.slug));
    for (const slug of artists) expect({ slug, status: (await rest(`/artists/${slug}`)).status }).toEqual({ slug, status: 200 });
  });

  test('the OpenAPI document describes hasPage', async () => {
    const doc = await rest('/openapi.json');
    expect(doc.status).toBe(200);
    expect(JSON.stringify(doc.body)).toContain('hasPage');
  });
});
