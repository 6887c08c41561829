import { db } from '@/server/db/client';
import { catalogLocales, defaultLocale, type Locale } from '@/server/shared/locales';

export interface FeaturedArtwork {
  slug: string;
  /** Title in the page's language, else English; null when neither exists. */
  title: string | null;
  artist: string;
  year: number | null;
  /** Wikimedia Commons file name, without `File:`. */
  imageFile: string | null;
}

/**
 * The home page's featured works: published and featured, best known first, with text in `locale`
 * and English where that language has none (`vi` has no catalog text, so it is English throughout).
 */
export async function featuredArtworks(locale: Locale, limit = 24): Promise<FeaturedArtwork[]> {
  const textLocale = (catalogLocales as readonly string[]).includes(locale) ? locale : defaultLocale;
  const wanted = textLocale === defaultLocale ? [defaultLocale] : [textLocale, defaultLocale];

  const rows = await db().artwork.findMany({
    where: { status: 'published', featured: true },
    orderBy: [{ popularity: 'desc' }, { id: 'asc' }],
    take: limit,
    select: {
      slug: true,
      year: true,
      imageFile: true,
      texts: { where: { locale: { in: wanted } }, select: { locale: true, title: true } },
      artist: {
        select: { name: true, texts: { where: { locale: { in: wanted } }, select: { locale: true, name: true } } },
      },
    },
  });

  const pick = <T extends { locale: string }>(texts: T[], value: (t: T) => string | null | undefined) => {
    for (const l of wanted) {
      const found = texts.find((t) => t.locale === l);
      const v = found ? value(found)?.trim() : undefined;
      if (v) return v;
    }
    return null;
  };

  return rows.map((row) => ({
    slug: row.slug,
    title: pick(row.texts, (t) => t.title),
    artist: pick(row.artist.texts, (t) => t.name) ?? row.artist.name,
    year: row.year,
    imageFile: row.imageFile,
  }));
}

/** A Commons image of about `width` pixels, served by Wikimedia's own redirect to its thumbnail. */
export function commonsImageUrl(imageFile: string, width = 600): string {
  return `https://commons.wikimedia.org/wiki/Special:FilePath/${encodeURIComponent(imageFile)}?width=${width}`;
}
