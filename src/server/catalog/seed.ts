import 'server-only';
import { createHash } from 'node:crypto';
import { curatedArtists, curatedTaxa, curatedWorks, type Texts } from '../../../prisma/seed/curated';
import type { Db, Tx } from '@/server/db/client';
import { lockForTransaction } from '@/server/db/locks';
import { catalogLocales } from '@/shared/locales';
import { recountCatalog } from './counts';

/** Wikidata often names a museum's painting department as a work's collection; these mean the museum. */
const museumAliases: Record<string, string> = {
  Q3044768: 'Q19675', // Louvre, département des Peintures → Louvre Museum
};

/** Raise it when what seedCatalog writes changes while the curated files stay the same. */
const SEED_FORMAT = 1;

/**
 * What the seed would write, as a hash: the curated files (prisma/seed/curated) as loaded, the
 * museum aliases and SEED_FORMAT. Stored in `catalog_seed` when the seed has written it.
 */
const curatedFingerprint = createHash('sha256')
  .update(JSON.stringify({ format: SEED_FORMAT, taxa: curatedTaxa, artists: curatedArtists, works: curatedWorks, museumAliases }))
  .digest('hex');

const present = (texts: Texts) => catalogLocales.flatMap((locale) => (texts[locale] ? [[locale, texts[locale]] as const] : []));

/**
 * Puts the 31 hand-curated works, their artists and browse pages in the catalog, published. Keyed
 * on Wikidata identifiers and slugs, so the ingest pipeline later recognises these works instead of
 * copying them. Every start of the shop calls it; it writes only when the curated files changed
 * since the database was last seeded (`catalog_seed` holds their fingerprint). Writing them again
 * on every start rewrote 31 works, their texts and search entries and recounted every browse page,
 * and each write bumped the catalog version, so every deploy emptied every instance's response
 * cache. `written` says whether it wrote.
 */
export async function seedCatalog(db: Db): Promise<{ artworks: number; artists: number; taxa: number; written: boolean }> {
  const written = await db.$transaction(
    async (tx) => {
      await lockForTransaction(tx, 'seed');
      const seeded = await tx.catalogSeed.findUnique({ where: { id: 1 }, select: { fingerprint: true } });
      if (seeded?.fingerprint === curatedFingerprint) return false;
      const now = new Date();
      const taxonIds = new Map<string, number>();
      for (const taxon of curatedTaxa) {
        const row = await tx.taxon.upsert({
          where: { kind_slug: { kind: taxon.kind, slug: taxon.slug } },
          create: { kind: taxon.kind, slug: taxon.slug, wikidataId: taxon.wikidataId },
          update: { wikidataId: taxon.wikidataId },
        });
        taxonIds.set(`${taxon.kind}:${taxon.slug}`, row.id);
        for (const [locale, name] of present(taxon.names as Texts)) {
          await tx.taxonText.upsert({
            where: { taxonId_locale: { taxonId: row.id, locale } },
            create: { taxonId: row.id, locale, name },
            update: { name },
          });
        }
      }
      for (const [alias, museum] of Object.entries(museumAliases)) {
        const taxon = curatedTaxa.find((t) => t.kind === 'museum' && t.wikidataId === museum);
        const taxonId = taxon && taxonIds.get(`museum:${taxon.slug}`);
        if (taxonId) await tx.taxonAlias.upsert({ where: { wikidataId: alias }, create: { wikidataId: alias, taxonId }, update: { taxonId } });
      }

      const artistIds = new Map<string, number>();
      for (const artist of curatedArtists) {
        const row = await tx.artist.upsert({
          where: { wikidataId: artist.wikidataId },
          create: {
            wikidataId: artist.wikidataId,
            slug: artist.slug,
            name: artist.names.en,
            birthYear: artist.birthYear,
            deathYear: artist.deathYear,
            status: 'published',
            publishedAt: now,
          },
          update: { slug: artist.slug, name: artist.names.en, birthYear: artist.birthYear, deathYear: artist.deathYear, status: 'published' },
        });
        artistIds.set(artist.wikidataId, row.id);
        for (const locale of catalogLocales) {
          const name = artist.names[locale] ?? artist.names.en;
          const bio = artist.bios[locale];
          await tx.artistText.upsert({
            where: { artistId_locale: { artistId: row.id, locale } },
            create: { artistId: row.id, locale, name, bio },
            update: { name, bio },
          });
        }
      }

      for (const work of curatedWorks) {
        const artistId = artistIds.get(work.artist);
        if (!artistId) throw new Error(`Curated work ${work.slug} names an unknown artist ${work.artist}`);
        const facts = {
          slug: work.slug,
          artistId,
          year: work.year,
          heightCm: work.heightCm,
          widthCm: work.widthCm,
          imageFile: work.imageFile,
          popularity: work.popularity,
          featured: work.featured,
          curated: true,
          status: 'published' as const,
        };
        const row = await tx.artwork.upsert({
          where: { wikidataId: work.wikidataId },
          create: { wikidataId: work.wikidataId, ...facts, publishedAt: now },
          update: facts,
        });
        for (const locale of catalogLocales) {
          const title = work.titles[locale] ?? null;
          const text = { title, titleSource: 'curated' as const, story: work.stories[locale], storySource: 'curated' as const };
          await tx.artworkText.upsert({
            where: { artworkId_locale: { artworkId: row.id, locale } },
            create: { artworkId: row.id, locale, ...text },
            update: text,
          });
        }
        const links = [`museum:${work.museum}`, `movement:${work.movement}`, `genre:${work.genre}`, ...work.subjects.map((s) => `subject:${s}`)];
        const wanted = links.map((key) => {
          const id = taxonIds.get(key);
          if (!id) throw new Error(`Curated work ${work.slug} names an unknown browse page ${key}`);
          return id;
        });
        await tx.artworkTaxon.deleteMany({ where: { artworkId: row.id, taxonId: { notIn: wanted } } });
        await tx.artworkTaxon.createMany({ data: wanted.map((taxonId) => ({ artworkId: row.id, taxonId })), skipDuplicates: true });
      }
      await recountCatalog(tx as Tx);
      await tx.catalogSeed.upsert({
        where: { id: 1 },
        create: { id: 1, fingerprint: curatedFingerprint, seededAt: now },
        update: { fingerprint: curatedFingerprint, seededAt: now },
      });
      return true;
    },
    { timeout: 60_000 },
  );
  return { artworks: curatedWorks.length, artists: curatedArtists.length, taxa: curatedTaxa.length, written };
}
