import { withRequestLog } from '@/server/http/request-log';
import { staffPhoto } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

export const GET = withRequestLog(async (request: Request, { params }: { params: Promise<{ id: string }> }) => staffPhoto(request, (await params).id));
