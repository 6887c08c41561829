import 'server-only';
import path from 'node:path';
import { errorResponse } from '@/server/api/contract-errors';
import type { Db } from '@/server/db/client';
import type { Env } from '@/server/env';
import { DomainError, RateLimited } from '@/server/errors';
import { clientOf } from '@/server/http/client';
import { userAgent } from '@/server/integrations/http';
import { enforceLimit, type LimitSettings } from '@/server/limits/service';
import { catalogImageFiles } from './catalog';
import { artworkImage, checkFileName, checkWidth } from './service';

/** Next hands the segment over still percent-encoded in some versions and decoded in others. */
function decoded(segment: string): string {
  try {
    return /%[0-9a-f]{2}/i.test(segment) ? decodeURIComponent(segment) : segment;
  } catch {
    return segment;
  }
}

export interface ImageRouteDeps {
  db: Db;
  settings: Pick<Env, 'IMAGE_SOURCE_URL' | 'DATA_DIR' | 'IMAGE_CACHE_MB' | 'WIKIDATA_CONTACT'>;
  limits: LimitSettings;
  /** Tests: a shorter wait for the stand-in. */
  timeoutMs?: number;
}

/** `/images/<file>?w=<width>` (answered at the next standard width up): a catalog artwork's thumbnail from our own origin (src/server/images/service.ts). */
export async function imageResponse(request: Request, file: string, deps: ImageRouteDeps): Promise<Response> {
  try {
    const name = checkFileName(decoded(file));
    const width = checkWidth(new URL(request.url).searchParams.get('w'));
    const client = clientOf(request.headers);
    const image = await artworkImage(
      {
        sourceUrl: deps.settings.IMAGE_SOURCE_URL,
        // The operator's contact, as the SPARQL client sends it (Wikimedia's User-Agent policy).
        userAgent: userAgent(deps.settings.WIKIDATA_CONTACT),
        cacheDir: path.join(deps.settings.DATA_DIR, 'image-cache'),
        maxCacheBytes: deps.settings.IMAGE_CACHE_MB * 1024 * 1024,
        timeoutMs: deps.timeoutMs,
        isCatalogImage: catalogImageFiles(deps.db),
        countMiss: async () => void (await enforceLimit(deps.db, 'imageMiss', client, deps.limits)),
      },
      name,
      width,
    );
    return new Response(new Uint8Array(image.body), {
      headers: {
        'Content-Type': image.contentType,
        'Cache-Control': image.cacheControl,
        'X-Content-Type-Options': 'nosniff',
        // A drawn SVG is ours, but nothing in an image should ever run.
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      },
    });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const headers: Record<string, string> = { 'Cache-Control': 'private, no-store' };
    if (error instanceof RateLimited) headers['Retry-After'] = String(error.retryAfterSeconds);
    return errorResponse(error.code, error.message, error.details, headers);
  }
}
