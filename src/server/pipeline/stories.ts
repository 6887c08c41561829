import 'server-only';
import type { Db } from '@/server/db/client';
import { parseJsonAnswer, type LanguageModel } from '@/server/integrations/llm';
import { centuryOf, romanNumeral } from '@/lib/work-date';
import type { DatePrecision } from '@/shared/catalog';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';

/** The facts a story may state: exactly what the catalog row holds, nothing else. */
export interface StoryFacts {
  title: Partial<Record<CatalogLocale, string>>;
  artist: Partial<Record<CatalogLocale, string>>;
  year: number | null;
  /** How exactly `year` is known: circa, the decade or the century it begins (docs/pipeline.md). */
  yearPrecision: DatePrecision;
  heightCm: number | null;
  widthCm: number | null;
  museum: Partial<Record<CatalogLocale, string>> | null;
  movement: Partial<Record<CatalogLocale, string>> | null;
  genre: Partial<Record<CatalogLocale, string>> | null;
  /** Only for a work labelled in another language alone (its titles not translated yet): that label. */
  originalTitle?: { language: string; title: string };
}

const pick = (texts: Partial<Record<CatalogLocale, string>> | null, locale: CatalogLocale) => (texts ? (texts[locale] ?? texts.en ?? Object.values(texts)[0]) : undefined);
const size = (f: StoryFacts, locale: CatalogLocale) => {
  if (!f.heightCm || !f.widthCm) return undefined;
  const fmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  return `${fmt.format(f.heightCm)} × ${fmt.format(f.widthCm)} cm`;
};

type Sentence = (v: string) => string;
/** When a work was made, as exactly as it is known: `year` is the year, circa, or the first of the decade or century. */
type DateSentence = (year: number, precision: DatePrecision) => string;
const englishOrdinal = new Intl.PluralRules('en', { type: 'ordinal' });
const englishSuffix: Record<string, string> = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
const ordinal = (n: number) => `${n}${englishSuffix[englishOrdinal.select(n)]}`;
interface StoryTemplate {
  intro: (t: string, a: string) => string;
  year: DateSentence;
  size: Sentence;
  museum: Sentence;
  movement: Sentence;
  genre: Sentence;
}
const templates: Record<CatalogLocale, StoryTemplate> = {
  en: {
    intro: (t, a) => `${t} is a painting by ${a}.`,
    year: (y, p) =>
      ({
        year: `It dates from ${y}.`,
        circa: `It dates from about ${y}.`,
        decade: `It dates from the ${y}s.`,
        century: `It dates from the ${ordinal(centuryOf(y))} century.`,
      })[p],
    size: (v) => `It measures ${v}.`,
    museum: (v) => `It is held by ${v}.`,
    movement: (v) => `It belongs to ${v}.`,
    genre: (v) => `Genre: ${v}.`,
  },
  es: {
    intro: (t, a) => `${t} es una pintura de ${a}.`,
    year: (y, p) =>
      ({
        year: `Data de ${y}.`,
        circa: `Data de hacia ${y}.`,
        decade: `Data de la década de ${y}.`,
        century: `Data del siglo ${romanNumeral(centuryOf(y))}.`,
      })[p],
    size: (v) => `Mide ${v}.`,
    museum: (v) => `Se conserva en ${v}.`,
    movement: (v) => `Movimiento: ${v}.`,
    genre: (v) => `Género: ${v}.`,
  },
  fr: {
    intro: (t, a) => `${t} est un tableau de ${a}.`,
    year: (y, p) =>
      ({
        year: `Il date de ${y}.`,
        circa: `Il date des environs de ${y}.`,
        decade: `Il date des années ${y}.`,
        century: `Il date du ${centuryOf(y) === 1 ? 'Ier' : `${romanNumeral(centuryOf(y))}e`} siècle.`,
      })[p],
    size: (v) => `Il mesure ${v}.`,
    museum: (v) => `Il est conservé par ${v}.`,
    movement: (v) => `Mouvement : ${v}.`,
    genre: (v) => `Genre : ${v}.`,
  },
  de: {
    intro: (t, a) => `${t} ist ein Gemälde von ${a}.`,
    year: (y, p) =>
      ({
        year: `Es entstand ${y}.`,
        circa: `Es entstand um ${y}.`,
        decade: `Es entstand in den ${y}er Jahren.`,
        century: `Es entstand im ${centuryOf(y)}. Jahrhundert.`,
      })[p],
    size: (v) => `Es misst ${v}.`,
    museum: (v) => `Es befindet sich in: ${v}.`,
    movement: (v) => `Stilrichtung: ${v}.`,
    genre: (v) => `Gattung: ${v}.`,
  },
  it: {
    intro: (t, a) => `${t} è un dipinto di ${a}.`,
    year: (y, p) =>
      ({
        year: `Risale al ${y}.`,
        circa: `Risale al ${y} circa.`,
        decade: `Risale agli anni ${y}.`,
        century: `Risale al ${romanNumeral(centuryOf(y))} secolo.`,
      })[p],
    size: (v) => `Misura ${v}.`,
    museum: (v) => `È conservato presso: ${v}.`,
    movement: (v) => `Movimento: ${v}.`,
    genre: (v) => `Genere: ${v}.`,
  },
  ja: {
    intro: (t, a) => `『${t}』は${a}による絵画です。`,
    year: (y, p) =>
      ({
        year: `制作年は${y}年です。`,
        circa: `制作年は${y}年頃です。`,
        decade: `${y}年代の作品です。`,
        century: `${centuryOf(y)}世紀の作品です。`,
      })[p],
    size: (v) => `サイズは${v}です。`,
    museum: (v) => `所蔵：${v}。`,
    movement: (v) => `様式：${v}。`,
    genre: (v) => `ジャンル：${v}。`,
  },
};

/** A factual story from the row's facts alone, in one of the six languages; a missing fact is left out. */
export function templateStory(f: StoryFacts, locale: CatalogLocale): string {
  const t = templates[locale];
  const parts = [t.intro(pick(f.title, locale) ?? f.originalTitle?.title ?? '?', pick(f.artist, locale) ?? '?')];
  if (f.year !== null) parts.push(t.year(f.year, f.yearPrecision ?? 'year'));
  const measured = size(f, locale);
  if (measured) parts.push(t.size(measured));
  const museum = pick(f.museum, locale);
  if (museum) parts.push(t.museum(museum));
  const movement = pick(f.movement, locale);
  if (movement) parts.push(t.movement(movement));
  const genre = pick(f.genre, locale);
  if (genre) parts.push(t.genre(genre));
  return parts.join(locale === 'ja' ? '' : ' ');
}

export const STORY_SYSTEM_PROMPT =
  'You write short descriptions of paintings for an art-print shop. Use ONLY the facts given in the JSON; ' +
  'never add dates, places, people, techniques, history or interpretation that the facts do not state. ' +
  'Leave out any fact that is null. yearPrecision says how exactly year is known: year (that year), circa (about that year), ' +
  'decade (the decade beginning with year), century (the century beginning with year); never state it more exactly. Answer with one JSON object whose keys are the language codes ' +
  `${catalogLocales.join(', ')} and whose values are the description in that language (2 to 4 sentences).`;

/** Reads the story facts of some artworks (titles, artist names and browse-page names per language). */
export async function storyFacts(db: Db, ids: number[]): Promise<Map<number, StoryFacts>> {
  const rows = await db.artwork.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      year: true,
      yearPrecision: true,
      heightCm: true,
      widthCm: true,
      originalTitle: true,
      originalLanguage: true,
      texts: { select: { locale: true, title: true } },
      artist: { select: { name: true, texts: { select: { locale: true, name: true } } } },
      taxa: { select: { taxon: { select: { kind: true, texts: { select: { locale: true, name: true } } } } } },
    },
  });
  const byLocale = (texts: { locale: string; name?: string | null; title?: string | null }[]) =>
    Object.fromEntries(texts.flatMap((t) => ((t.title ?? t.name) ? [[t.locale, (t.title ?? t.name)!]] : []))) as Partial<Record<CatalogLocale, string>>;
  const taxon = (row: (typeof rows)[number], kind: string) => {
    const found = row.taxa.find((l) => l.taxon.kind === kind);
    return found ? byLocale(found.taxon.texts) : null;
  };
  return new Map(
    rows.map((row) => {
      const artist = byLocale(row.artist.texts);
      artist.en ??= row.artist.name;
      const title = byLocale(row.texts);
      // A story may be written before the title pass has translated an original-language title.
      const original = !Object.keys(title).length && row.originalTitle ? { originalTitle: { language: row.originalLanguage ?? 'und', title: row.originalTitle } } : {};
      return [
        row.id,
        {
          title,
          ...original,
          artist,
          year: row.year,
          yearPrecision: row.yearPrecision,
          heightCm: row.heightCm ? Number(row.heightCm) : null,
          widthCm: row.widthCm ? Number(row.widthCm) : null,
          museum: taxon(row, 'museum'),
          movement: taxon(row, 'movement'),
          genre: taxon(row, 'genre'),
        },
      ];
    }),
  );
}

export interface StoriesSettings {
  /** How many artworks at most in this call (the Inngest function works in batches). */
  limit?: number;
  concurrency?: number;
  progress?: (line: string) => void;
}

/**
 * Gives every queued artwork without a story one per catalog language: from the language model
 * when one is configured, else from the factual templates. A model failure leaves that artwork
 * without a story (a later run tries again) and is counted, not thrown.
 */
export async function writeStories(
  db: Db,
  model: LanguageModel | null,
  settings: StoriesSettings = {},
): Promise<{ written: number; failed: number; remaining: number; errors: string[] }> {
  const limit = settings.limit ?? 500;
  const pending = await db.$queryRaw<{ id: number }[]>`
    SELECT w.id FROM artworks w
     WHERE w.status = 'queued'
       AND NOT EXISTS (SELECT 1 FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = 'en' AND t.story IS NOT NULL)
     ORDER BY w.popularity DESC, w.id LIMIT ${limit}`;
  const facts = await storyFacts(
    db,
    pending.map((p) => p.id),
  );
  const errors: string[] = [];
  const done: { id: number; source: 'translation' | 'template'; stories: Record<CatalogLocale, string> }[] = [];
  const queue = [...facts.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [id, f] = next;
      try {
        if (model) {
          const answer = parseJsonAnswer(await model.complete(STORY_SYSTEM_PROMPT, JSON.stringify(f))) as Record<string, unknown>;
          const stories = Object.fromEntries(
            catalogLocales.map((l) => [l, typeof answer[l] === 'string' && answer[l] ? (answer[l] as string) : templateStory(f, l)]),
          ) as Record<CatalogLocale, string>;
          done.push({ id, source: 'translation', stories });
        } else {
          done.push({ id, source: 'template', stories: Object.fromEntries(catalogLocales.map((l) => [l, templateStory(f, l)])) as Record<CatalogLocale, string> });
        }
      } catch (error) {
        errors.push(`artwork ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, settings.concurrency ?? (model ? 4 : 1)) }, worker));
  // One statement per 200 works: each work's six stories, keeping any title already there.
  for (let i = 0; i < done.length; i += 200) {
    const rows = done.slice(i, i + 200).flatMap((d) => catalogLocales.map((locale) => ({ id: d.id, locale, story: d.stories[locale], source: d.source })));
    await db.$executeRaw`
      INSERT INTO artwork_texts (artwork_id, locale, title_source, story, story_source)
      SELECT v.id, v.locale, 'translation'::"TextSource", v.story, v.source::"TextSource"
        FROM unnest(${rows.map((r) => r.id)}::int[], ${rows.map((r) => r.locale)}::text[], ${rows.map((r) => r.story)}::text[], ${rows.map((r) => r.source)}::text[]) AS v(id, locale, story, source)
      ON CONFLICT (artwork_id, locale) DO UPDATE SET story = EXCLUDED.story, story_source = EXCLUDED.story_source`;
    settings.progress?.(`stories: ${Math.min(i + 200, done.length)} of ${facts.size} written`);
  }
  const written = done.length;
  const [left] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM artworks w WHERE w.status = 'queued'
       AND NOT EXISTS (SELECT 1 FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = 'en' AND t.story IS NOT NULL)`;
  settings.progress?.(
    `stories: ${written} written${model ? ' by the language model' : ' from templates'}, ${errors.length} failed, ${left?.n ?? 0} artworks still without a story`,
  );
  return { written, failed: errors.length, remaining: left?.n ?? 0, errors: errors.slice(0, 20) };
}
