import { withRequestLog } from '@/server/http/request-log';
import { staffAddPhoto } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export const POST = withRequestLog(async (request: Request, { params }: { params: Promise<{ code: string }> }) => staffAddPhoto(request, (await params).code));
