import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { MAX_TRPC_BODY_BYTES, withBodyAtMost } from '@/server/api/body';
import { appRouter } from '@/server/api/root';
import { createContext, logTrpcFailure, trpcAnswerHeaders } from '@/server/api/trpc';
import { withRequestLog } from '@/server/http/request-log';

export const dynamic = 'force-dynamic';

/** The website's door to the same procedures /v1 serves (same body limit, same rate limits). */
const handler = withRequestLog(async (request: Request) => {
  const req = await withBodyAtMost(request, MAX_TRPC_BODY_BYTES);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    createContext: ({ resHeaders }) => createContext({ req, resHeaders }),
    responseMeta: ({ errors }) => ({ headers: trpcAnswerHeaders(errors) }),
    onError: ({ error, path }) => logTrpcFailure('website tRPC', error, path),
  });
});
export { handler as GET, handler as POST };
