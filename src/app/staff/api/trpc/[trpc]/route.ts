import { staffTrpc } from '@/server/staff/handlers';

export const dynamic = 'force-dynamic';

const handler = (request: Request) => staffTrpc(request);
export { handler as GET, handler as POST };
