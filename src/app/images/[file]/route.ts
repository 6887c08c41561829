import path from 'node:path';
import { DomainError } from '@/server/errors';
import { env } from '@/server/env';
import { artworkImage, checkFileName, checkWidth } from '@/server/images/service';
import { errorResponse } from '@/server/api/rest';
import { withRequestLog } from '@/server/http/request-log';

/** Next hands the segment over still percent-encoded in some versions and decoded in others. */
function decoded(segment: string): string {
  try {
    return /%[0-9a-f]{2}/i.test(segment) ? decodeURIComponent(segment) : segment;
  } catch {
    return segment;
  }
}

/** `/images/<Commons file>?w=<width>`: artwork thumbnails from our own origin (src/server/images). */
export const GET = withRequestLog(async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  try {
    const e = env();
    const image = await artworkImage(
      { sourceUrl: e.IMAGE_SOURCE_URL, cacheDir: path.join(e.DATA_DIR, 'image-cache') },
      checkFileName(decoded(file)),
      checkWidth(new URL(request.url).searchParams.get('w')),
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
    if (error instanceof DomainError) return errorResponse(error.code, error.message);
    throw error;
  }
});
