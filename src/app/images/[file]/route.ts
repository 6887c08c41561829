import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { imageResponse } from '@/server/images/handler';
import { withRequestLog } from '@/server/http/request-log';

/** `/images/<Commons file>?w=<width>`: catalog artworks' thumbnails from our own origin (src/server/images). */
export const GET = withRequestLog(async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const e = env();
  return imageResponse(request, file, { db: db(), settings: e, limits: { multiplier: e.RATE_LIMIT_MULTIPLIER } });
});
