import { db } from '@/server/db/client';
import { env } from '@/server/env';
import { withRequestLog } from '@/server/http/request-log';
import { photoStorage } from '@/server/integrations/storage';
import { showcaseImageResponse } from '@/server/showcase/image';

/** `/images/showcase/<photo id>?w=<width>`: a photo in the public gallery, and nothing else (src/server/showcase/image.ts). */
export const GET = withRequestLog(async function GET(request: Request, { params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const e = env();
  return showcaseImageResponse(request, id, { db: db(), storage: photoStorage(), settings: e, limits: { multiplier: e.RATE_LIMIT_MULTIPLIER } });
});
