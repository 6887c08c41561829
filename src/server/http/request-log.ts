import 'server-only';
import { logger, runInRequest, type RequestContext } from '@/server/logger';
import { internalErrorBody } from './answers';
import { REQUEST_ID_HEADER, requestIdFrom } from './identity';
import { clientOf } from './client';

/** The request's id (the server's or a load balancer's, else a new one) and client. */
export function requestContextOf(request: Pick<Request, 'headers'>): RequestContext {
  return { requestId: requestIdFrom(request.headers.get(REQUEST_ID_HEADER)), client: clientOf(request.headers) };
}

/**
 * Wraps a Next route handler (src/app/api/**, src/app/staff/api/**, /images, sitemaps): it runs in
 * the request's log context, its answer carries X-Request-Id, and an error it throws becomes the
 * contract's 500 naming the request id instead of Next's page (the cause goes to the log).
 */
export function withRequestLog<R extends Request, A extends unknown[]>(handler: (request: R, ...rest: A) => Response | Promise<Response>) {
  return (request: R, ...rest: A): Promise<Response> => {
    const context = requestContextOf(request);
    return runInRequest(context, async () => {
      let response: Response;
      try {
        response = await handler(request, ...rest);
      } catch (error) {
        // Next's own control flow (redirect(), notFound()) travels as errors with a digest.
        if (typeof (error as { digest?: unknown } | null)?.digest === 'string') throw error;
        logger.error({ err: error, path: new URL(request.url).pathname }, 'unexpected error in a route handler');
        return Response.json(internalErrorBody(context.requestId), { status: 500, headers: { 'cache-control': 'private, no-store', 'x-request-id': context.requestId } });
      }
      return withRequestId(response, context.requestId);
    });
  };
}

function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set('x-request-id', requestId);
    return response;
  } catch {
    // Immutable headers (Response.redirect): copy the answer.
    const copy = new Response(response.body, response);
    copy.headers.set('x-request-id', requestId);
    return copy;
  }
}
