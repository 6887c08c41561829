import 'server-only';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { MAX_TRPC_BATCH } from '@/shared/trpc-batch';
import { MAX_TRPC_BODY_BYTES, withBodyAtMost } from './body';
import { appRouter } from './root';
import { documentedProcedures } from './openapi';
import { createContext } from './context';
import { logTrpcFailure, trpcAnswerHeaders, type Context } from './trpc';

/**
 * Procedures whose answer is the same for everyone (the public catalog reads, `publicCache`).
 * Every other answer of /api/trpc (an order lookup with a name and address, the account, favorites)
 * is personal and must never be kept by a browser's or a proxy's cache.
 */
const publicProcedures = new Set(documentedProcedures.flatMap(({ procedure, meta }) => (meta.publicCache ? [procedure] : [])));

/**
 * `/api/trpc/*`: the website's door to the same procedures /v1 serves (same body limit, same rate
 * limits). `makeContext` lets tests hand in another database.
 */
export async function websiteTrpc(request: Request, makeContext: (options: { req: Request; resHeaders: Headers }) => Context = createContext): Promise<Response> {
  const req = await withBodyAtMost(request, MAX_TRPC_BODY_BYTES);
  if (req instanceof Response) return req;
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req,
    router: appRouter,
    maxBatchSize: MAX_TRPC_BATCH,
    createContext: ({ resHeaders }) => makeContext({ req, resHeaders }),
    responseMeta: ({ errors, paths }) => {
      const everyonesAnswer = errors.length === 0 && paths !== undefined && paths.length > 0 && paths.every((path) => publicProcedures.has(path));
      return { headers: trpcAnswerHeaders(errors, everyonesAnswer ? undefined : { 'cache-control': 'private, no-store' }) };
    },
    onError: ({ error, path }) => logTrpcFailure('website tRPC', error, path),
  });
}
