import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/api/root';
import { createContext } from '@/server/api/trpc';

export const dynamic = 'force-dynamic';

/** The website's door to the same procedures /v1 serves. */
const handler = (req: Request) => fetchRequestHandler({ endpoint: '/api/trpc', req, router: appRouter, createContext: ({ resHeaders }) => createContext({ req, resHeaders }) });
export { handler as GET, handler as POST };
