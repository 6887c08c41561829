import { withRequestLog } from '@/server/http/request-log';
import { staffTrpc } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

const handler = withRequestLog((request: Request) => staffTrpc(request));
export { handler as GET, handler as POST };
