import 'server-only';
import type { Db } from '@/server/db/client';
import { parseJsonAnswer, type LanguageModel } from '@/server/integrations/llm';
import { catalogLocales, type CatalogLocale } from '@/shared/locales';
import { stripDisambiguation } from './titles';

/** Titles asked of the language model in one call (interface.md: 10 titles per call). */
export const TITLES_PER_CALL = 10;
/**
 * Works one pass takes: at 10 a call, 30 model calls, the day's cap of 300 in one pass. The stories
 * job and every publish tick each make one pass, so the calls a tick makes are bounded whatever
 * the queue holds.
 */
export const TITLE_WORKS_PER_PASS = 300;
/** A pass's whole time for its model calls; the calls still out then are aborted and their works wait for the next pass. */
export const TRANSLATION_BUDGET_MS = 60_000;
/** Model calls in flight at once. */
const CONCURRENCY = 4;

/** A title from a person (a Wikidata label, the curated texts): never replaced by a translation. */
const humanSources = new Set(['wikidata', 'curated']);

export const TITLE_SYSTEM_PROMPT =
  'You translate titles of paintings. Each item gives a title and the language it is written in ("from"). ' +
  'For each item, give the title in each requested language as it is commonly known there, or a faithful ' +
  'translation. Answer with one JSON array of objects { "id": <the item id>, "titles": { "<language code>": "<title>" } } ' +
  'and nothing else.';

export interface TranslateSettings {
  /** Works at most in this pass (default TITLE_WORKS_PER_PASS: at most a tenth of it in model calls). */
  limit?: number;
  /** The pass's time for its model calls (default TRANSLATION_BUDGET_MS). */
  budgetMs?: number;
  progress?: (line: string) => void;
}

export interface TranslateResult {
  /** Titles written by the language model. */
  translated: number;
  /** Titles written as a stand-in (no model configured): the English or the original title. */
  fallback: number;
  /** Model calls made (answered or not). */
  calls: number;
  /** Works of this pass whose six titles are now all there. */
  completed: number;
  /** Of those, queued works with a story: ready to publish now. */
  ready: number;
  /** Works still waiting for a title after this pass (the next pass takes them). */
  remaining: number;
  errors: string[];
}

/**
 * A work waits for titles while one of the six catalog languages has none, or, when a language model
 * is configured, holds a `fallback` stand-in. Only works with something to start from (a title in
 * some language, or the original-language one) are waiting: a work with neither cannot be titled.
 * Curated works are the studio's own texts and are left alone.
 */
function waiting(withModel: boolean) {
  return `
    SELECT w.id, w.status, w.popularity,
           count(t.title) FILTER (WHERE t.locale = ANY($1::text[])) AS present,
           count(t.title) FILTER (WHERE t.locale = ANY($1::text[]) AND t.title_source <> 'fallback') AS proper
      FROM artworks w LEFT JOIN artwork_texts t ON t.artwork_id = w.id
     WHERE NOT w.curated
     GROUP BY w.id
    HAVING (count(t.title) FILTER (WHERE t.locale = ANY($1::text[])) < ${catalogLocales.length}
            ${withModel ? `OR count(t.title) FILTER (WHERE t.locale = ANY($1::text[]) AND t.title_source <> 'fallback') < ${catalogLocales.length}` : ''})
       AND (count(t.title) > 0 OR w.original_title IS NOT NULL)`;
}

interface Need {
  id: number;
  /** The title translations start from, its suffix stripped, and its language. */
  source: string;
  from: string;
  /** The languages to write. */
  missing: CatalogLocale[];
  context: { creatorNames: string[]; museumNames: string[] };
}

/**
 * Completes the titles of works in the six catalog languages, one bounded pass: missing titles first
 * (published works before queued ones: a public page showing a title in the wrong language is a
 * visible fault, a queued work only waits), most popular first; then, with a model, the `fallback`
 * stand-ins. With a language model, 10 titles a call, 4 calls at once, all within `budgetMs`; a failed,
 * cut or incomplete answer leaves its works waiting for the next pass (counted in `errors`, never
 * thrown). Without one, the English title (else a title in another catalog language, else the
 * original-language one) stands in, as `fallback`. A title is written only where there is none or a
 * stand-in: a human label always wins, and so does an earlier translation.
 */
export async function translateTitles(db: Db, model: LanguageModel | null, settings: TranslateSettings = {}): Promise<TranslateResult> {
  const limit = settings.limit ?? TITLE_WORKS_PER_PASS;
  const budgetMs = settings.budgetMs ?? TRANSLATION_BUDGET_MS;
  const progress = settings.progress ?? (() => undefined);
  const started = performance.now();
  const picked = await db.$queryRawUnsafe<{ id: number }[]>(
    `SELECT id FROM (${waiting(model !== null)}) AS w
      ORDER BY (present < ${catalogLocales.length}) DESC, (status = 'published') DESC, popularity DESC, id
      LIMIT ${Math.max(0, Math.floor(limit))}`,
    [...catalogLocales],
  );
  const needs = await needsOf(
    db,
    picked.map((p) => p.id),
    model !== null,
  );
  const result: TranslateResult = { translated: 0, fallback: 0, calls: 0, completed: 0, ready: 0, remaining: 0, errors: [] };
  const updates: { id: number; locale: CatalogLocale; title: string }[] = [];
  if (!model) {
    for (const need of needs) for (const locale of need.missing) updates.push({ id: need.id, locale, title: need.source });
    result.fallback = await writeTitles(db, updates, 'fallback');
  } else if (needs.length) {
    const calls: Need[][] = [];
    for (let i = 0; i < needs.length; i += TITLES_PER_CALL) calls.push(needs.slice(i, i + TITLES_PER_CALL));
    const deadline = AbortSignal.timeout(budgetMs);
    const answers = await mapLimit(calls, CONCURRENCY, async (batch) => {
      deadline.throwIfAborted();
      result.calls++;
      const user = JSON.stringify(batch.map((n) => ({ id: n.id, title: n.source, from: n.from, languages: n.missing })));
      return parseJsonAnswer(await model.complete(TITLE_SYSTEM_PROMPT, user, { signal: deadline }));
    });
    let late = 0;
    let unanswered = 0;
    for (const [i, answer] of answers.entries()) {
      if (answer instanceof Error) {
        if (deadline.aborted) late++;
        else result.errors.push(`title translation: ${answer.message}`);
        continue;
      }
      const items = Array.isArray(answer) ? (answer as { id?: unknown; titles?: Record<string, unknown> }[]) : [];
      for (const need of calls[i]!) {
        const item = items.find((it) => Number(it?.id) === need.id);
        for (const locale of need.missing) {
          const title = item?.titles?.[locale];
          const clean = typeof title === 'string' ? stripDisambiguation(title, need.context).slice(0, 500) : '';
          if (clean) updates.push({ id: need.id, locale, title: clean });
          else unanswered++;
        }
      }
    }
    if (late) result.errors.push(`title translation: ${late} of ${calls.length} calls not done within ${Math.round(budgetMs / 1000)} s; their works wait for the next pass`);
    if (unanswered) result.errors.push(`title translation: the model left out ${unanswered} titles; their works wait for the next pass`);
    result.translated = await writeTitles(db, updates, 'translation');
  }
  if (picked.length) {
    const [done] = await db.$queryRawUnsafe<{ completed: number; ready: number }[]>(
      `SELECT count(*)::int AS completed,
              count(*) FILTER (WHERE w.status = 'queued' AND EXISTS (
                SELECT 1 FROM artwork_texts s WHERE s.artwork_id = w.id AND s.locale = 'en' AND s.story IS NOT NULL))::int AS ready
         FROM artworks w
        WHERE w.id = ANY($2::int[]) AND w.id NOT IN (SELECT id FROM (${waiting(model !== null)}) AS waiting WHERE id = ANY($2::int[]))`,
      [...catalogLocales],
      picked.map((p) => p.id),
    );
    result.completed = done?.completed ?? 0;
    result.ready = done?.ready ?? 0;
  }
  const [left] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM (${waiting(model !== null)}) AS w`, [...catalogLocales]);
  result.remaining = left?.n ?? 0;
  result.errors = result.errors.slice(0, 20);
  progress(
    `titles: ${model ? `${result.translated} translated in ${result.calls} calls` : `${result.fallback} stand-ins (no language model)`}, ${result.completed} works complete (${result.ready} ready to publish), ${result.remaining} still waiting, ${Math.round(performance.now() - started)} ms${result.errors.length ? `; ${result.errors.join('; ')}` : ''}`,
  );
  return result;
}

/** What each work lacks and what its titles start from. */
async function needsOf(db: Db, ids: number[], withModel: boolean): Promise<Need[]> {
  if (!ids.length) return [];
  const rows = await db.artwork.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      popularity: true,
      originalTitle: true,
      originalLanguage: true,
      texts: { select: { locale: true, title: true, titleSource: true } },
      artist: { select: { name: true, texts: { select: { name: true } } } },
      taxa: { where: { taxon: { kind: 'museum' } }, select: { taxon: { select: { texts: { select: { name: true } } } } } },
    },
  });
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return rows.flatMap((row) => {
    const context = { creatorNames: [row.artist.name, ...row.artist.texts.map((t) => t.name)], museumNames: row.taxa.flatMap((l) => l.taxon.texts.map((t) => t.name)) };
    const titles = new Map(row.texts.filter((t) => t.title && (catalogLocales as readonly string[]).includes(t.locale)).map((t) => [t.locale as CatalogLocale, t]));
    // What a translation starts from: a human label (English first), else the original-language
    // title, else an earlier translation, else a stand-in.
    const byRank = (keep: (source: string) => boolean) => catalogLocales.map((l) => titles.get(l)).find((t) => t && keep(t.titleSource));
    const human = byRank((s) => humanSources.has(s));
    const start = human
      ? { title: human.title!, from: human.locale }
      : row.originalTitle
        ? { title: row.originalTitle, from: row.originalLanguage ?? 'und' }
        : ((t) => (t ? { title: t.title!, from: t.locale } : null))(byRank((s) => s !== 'fallback') ?? byRank(() => true));
    if (!start) return [];
    const source = stripDisambiguation(start.title, context) || start.title;
    const missing = catalogLocales.filter((l) => {
      const t = titles.get(l);
      return !t || (withModel && t.titleSource === 'fallback');
    });
    return missing.length ? [{ id: row.id, source: source.slice(0, 500), from: start.from, missing, context }] : [];
  });
}

/**
 * Writes titles where a language has none or only a stand-in (`fallback`): a human label or a
 * translation already there is never replaced (a label that arrived meanwhile wins). Answers how
 * many were written.
 */
async function writeTitles(db: Db, updates: { id: number; locale: CatalogLocale; title: string }[], source: 'translation' | 'fallback'): Promise<number> {
  let written = 0;
  for (let i = 0; i < updates.length; i += 1_000) {
    const part = updates.slice(i, i + 1_000);
    written += await db.$executeRaw`
      INSERT INTO artwork_texts (artwork_id, locale, title, title_source)
      SELECT v.id, v.locale, v.title, ${source}::"TextSource"
        FROM unnest(${part.map((u) => u.id)}::int[], ${part.map((u) => u.locale)}::text[], ${part.map((u) => u.title)}::text[]) AS v(id, locale, title)
      ON CONFLICT (artwork_id, locale) DO UPDATE SET title = EXCLUDED.title, title_source = EXCLUDED.title_source
      WHERE artwork_texts.title IS NULL OR artwork_texts.title_source = 'fallback'`;
  }
  return written;
}

/**
 * How many published works lack a title in one of the six languages: the figure a publish run
 * reports (0 once the passes have caught up). Curated works are the studio's texts (the seed
 * writes them as they are) and are not counted, as the passes leave them alone.
 */
export async function publishedWithoutTitles(db: Db): Promise<number> {
  const [row] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM artworks w
     WHERE w.status = 'published' AND NOT w.curated
       AND (SELECT count(t.title) FROM artwork_texts t WHERE t.artwork_id = w.id AND t.locale = ANY(${[...catalogLocales]}::text[])) < ${catalogLocales.length}`;
  return row?.n ?? 0;
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<(R | Error)[]> {
  const results = new Array<R | Error>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        try {
          results[i] = await fn(items[i]!);
        } catch (error) {
          results[i] = error instanceof Error ? error : new Error(String(error));
        }
      }
    }),
  );
  return results;
}
