import 'server-only';
import type { TRPCError } from '@trpc/server';
import { createOpenApiNodeHttpHandler } from 'trpc-to-openapi';
import { appRouter } from './root';
import { documentedProcedures } from './openapi';
import type { Context, Meta } from './trpc';

/**
 * trpc-to-openapi's own handler, the one that answers /v1: it finds the procedure of a method and
 * path, builds its input (query or JSON body, path parameters, the coercion of query values) and
 * calls it. Made once, as its node-http form: the library's fetch form makes a new one for every
 * request, which outside production also generates and validates the whole OpenAPI document each
 * time (22 ms a request here; docs/upstream.md). A fetch Request is handed to it the way that fetch
 * form hands it (a Request whose `url` is under the mount point and whose `body` is the parsed
 * JSON), and what it writes is collected as it is: no fetch Response built and read back (rest.ts
 * hands it on as a PlainAnswer).
 */

/** What one call hands the handler and gets back beside the answer: its context, and the failure it ended in. */
interface Call {
  context: Context;
  failure?: TRPCError;
}
const calls = new WeakMap<object, Call>();

const metaOf = new Map<string, Meta>(documentedProcedures.map(({ procedure, meta }) => [procedure, meta]));

const handler = createOpenApiNodeHttpHandler({
  router: appRouter,
  createContext: ({ req }) => calls.get(req)!.context,
  // 201 for the operations that create (meta.successStatus); the headers a procedure set for its
  // answer (the session cookie of a sign-in, X-Catalog-Cache of a public read).
  responseMeta: ({ paths, errors, ctx }) => {
    if (errors.length) return {};
    const meta = paths?.[0] ? metaOf.get(paths[0]) : undefined;
    const own = (ctx as Context | undefined)?.resHeaders;
    const headers: Record<string, string | string[]> = {};
    own?.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = own?.getSetCookie() ?? [];
    if (cookies.length) headers['set-cookie'] = cookies;
    return { status: meta?.successStatus ?? 200, headers };
  },
  onError: ({ error, req }) => {
    const call = calls.get(req);
    if (call) call.failure = error;
  },
});

/** The handler's answer as it wrote it: status, headers (lower-case; Set-Cookie apart) and its JSON text. */
export interface OpenApiAnswer {
  status: number;
  headers: Record<string, string>;
  cookies: string[];
  body: string;
  /** The procedure's failure, when the answer is one (its cause: a DomainError, a ZodError, ours). */
  failure?: TRPCError;
  /** Whether a procedure answered (false: the method and path name none). */
  found: boolean;
}

/**
 * Hands `request` to the library's handler as `method` (HEAD goes as the GET it is) at `path` (its
 * address under `/v1`), with `json` its body already read and parsed (a JSON type said for it:
 * the body was taken as JSON whatever it was labelled, see rest.ts), and collects what it writes.
 */
export async function callOpenApi(request: Request, method: string, path: string, json: unknown, context: Context): Promise<OpenApiAnswer> {
  const url = new URL(request.url);
  const own: Record<PropertyKey, unknown> = { url: `${url.origin}${path}${url.search}`, method, body: json };
  if (json !== undefined) {
    const headers = new Headers(request.headers);
    headers.set('content-type', 'application/json');
    own.headers = headers;
  }
  const req = new Proxy(request, {
    get: (target, key) => (key in own ? own[key] : (target as unknown as Record<PropertyKey, unknown>)[key]),
    has: (target, key) => key in own || key in target,
  });
  const call: Call = { context };
  calls.set(req, call);
  const answer: OpenApiAnswer = { status: 200, headers: {}, cookies: [], body: '', found: true };
  await new Promise<void>((resolve, reject) => {
    // What the handler uses of a node-http response: a status, headers, one end with the JSON text.
    const res = {
      set statusCode(status: number) {
        answer.status = status;
      },
      setHeader(name: string, value: string | string[]) {
        const lower = name.toLowerCase();
        if (lower === 'set-cookie') answer.cookies.push(...(Array.isArray(value) ? value : [value]));
        else answer.headers[lower] = Array.isArray(value) ? value.join(', ') : value;
      },
      end(body?: string) {
        answer.body = body ?? '';
        resolve();
      },
    };
    handler(req as never, res as never, () => {
      answer.found = false;
      resolve();
    }).catch(reject);
  });
  answer.failure = call.failure;
  return answer;
}
