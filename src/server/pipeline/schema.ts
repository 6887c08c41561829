import 'server-only';
import { z } from 'zod';
import { publishTriggers } from '@/shared/catalog';

export const BrowsePageCounts = z.object({ museums: z.int(), movements: z.int(), subjects: z.int(), genres: z.int() }).meta({ id: 'BrowsePageCounts' });

export const PublishRun = z
  .object({
    id: z.int(),
    trigger: z.enum(publishTriggers),
    requested: z.int(),
    published: z.int(),
    artistsIntroduced: z.array(z.string()).describe('Slugs of the artists whose first works this run published'),
    urlsNotified: z.int().describe('Page addresses the search engines took (IndexNow)'),
    errors: z.array(z.string()),
    startedAt: z.string().describe('ISO 8601, UTC'),
    finishedAt: z.string().describe('ISO 8601, UTC'),
  })
  .meta({ id: 'PublishRun' });

export const IngestRun = z
  .object({
    id: z.int(),
    kind: z.enum(['ingest', 'painter_list']).describe("ingest: a night's painters; painter_list: the weekly refresh of the stored painter list"),
    trigger: z.enum(publishTriggers),
    outcome: z.string().describe('running, done, queue_full, failed, rate_limited, or (a painter list refresh) partial'),
    painters: z.array(z.string()).describe('Painters whose works this run took, as "<Q-id> <slug>"'),
    worksQueued: z.int(),
    skipped: z
      .record(z.string(), z.int())
      .describe('Paintings (or painters) left out, by reason: no_image, no_label, in_catalog, painter_without_name, painter_taken_meanwhile'),
    queries: z.object({
      count: z.int(),
      totalMs: z.int(),
      mostRows: z.int().describe('Rows of the largest answer: the bound every query is held to (docs/pipeline.md)'),
      slowest: z.object({ kind: z.string(), ms: z.int() }).nullable(),
      failed: z.int(),
    }),
    errors: z.array(z.string()),
    startedAt: z.string().describe('ISO 8601, UTC'),
    finishedAt: z.string().nullable().describe('ISO 8601, UTC; null while running'),
  })
  .meta({ id: 'IngestRun' });

/** A painter left out of the nightly ingest after failing on three nights (docs/pipeline.md). */
export const SetAsidePainter = z
  .object({
    qid: z.string(),
    nights: z.int().describe('UTC nights on which its queries still failed after the retries'),
    lastError: z.string(),
    lastFailedAt: z.string().describe('ISO 8601, UTC'),
    setAsideAt: z.string().describe('ISO 8601, UTC'),
  })
  .meta({ id: 'SetAsidePainter' });

export const SeoStats = z
  .object({
    queued: z.int().describe('Artworks ingested and not public'),
    ready: z.int().describe('Queued artworks that have a story and their titles in the six catalog languages (what a publish run can take)'),
    published: z.int(),
    publishedToday: z.int().describe('Published in the current UTC day by every path (curated seed excluded)'),
    perDay: z.int().describe('PUBLISH_PER_DAY'),
    capLeft: z.int(),
    publishedArtists: z.int(),
    browsePages: BrowsePageCounts.describe('Indexable browse pages (at least 3 published works) per kind'),
    runs: z.array(PublishRun).describe('The last 30 publish runs, newest first'),
    ingestRuns: z.array(IngestRun).describe('The last 10 ingest runs, newest first'),
    setAsidePainters: z.array(SetAsidePainter).describe('Painters the ingest leaves out until staff try again, most recently set aside first'),
  })
  .meta({ id: 'SeoStats' });

export const PublishRequest = z.strictObject({ count: z.int().min(1).max(100_000) }).meta({ id: 'PublishRequest' });

export const PublishAnswer = z
  .object({
    publishLogId: z.int().nullable().describe('The publish-log row of this run; null when nothing was published'),
    published: z.int(),
    capLeft: z.int().describe("What is left of today's cap after this run"),
    artworks: z.array(z.string()).describe('Slugs of the published artworks'),
    artistsIntroduced: z.array(z.string()),
    browsePagesAdded: z.array(z.string()).describe('`<kind>/<slug>` of browse pages that reached 3 works'),
    urls: z.int().describe('Page addresses (six languages) handed to the search-engine notification'),
    errors: z.array(z.string()),
  })
  .meta({ id: 'PublishAnswer' });

export const RecountAnswer = z
  .object({
    changed: z.object({ artists: z.int(), browsePages: z.int() }).describe('Rows whose count changed'),
    published: z.int(),
    publishedArtists: z.int(),
    browsePages: BrowsePageCounts,
  })
  .meta({ id: 'RecountAnswer' });
