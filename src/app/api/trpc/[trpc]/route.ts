import { websiteTrpc } from '@/server/api/website-trpc';
import { withRequestLog } from '@/server/http/request-log';

export const dynamic = 'force-dynamic';

/** The website's door to the same procedures /v1 serves (src/server/api/website-trpc.ts). */
const handler = withRequestLog((request: Request) => websiteTrpc(request));
export { handler as GET, handler as POST };
