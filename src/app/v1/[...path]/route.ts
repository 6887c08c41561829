import { handleRest } from '@/server/api/rest';

export const dynamic = 'force-dynamic';

const handler = (request: Request) => handleRest(request);
export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
