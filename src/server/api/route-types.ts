import 'server-only';
import type { OpenApiMethod } from 'trpc-to-openapi';
import type { LimitName } from '@/server/limits/policy';
import type { Context } from './trpc';

// The shapes of /v1's operations, in a leaf: rest.ts, the document (openapi.ts), the handler
// registry (handlers.ts) and each hand-written handler (payments, uploads, orders' photos) all name
// them, and none of those needs to import another for its types.

export type Method = OpenApiMethod;

/**
 * A /v1 operation tRPC cannot carry (raw upload bytes, a signed webhook body, a photo streamed to
 * staff): a plain handler on a Request. It sits in the same route table as the procedures, gets the
 * same 404/405/401 treatment and error contract from rest.ts, and documents itself in the same
 * OpenAPI document. Throw a DomainError for a client's mistake; anything else becomes a 500.
 * Each is registered in handlers.ts.
 */
export interface RequestHandlerRoute {
  method: Method;
  path: `/${string}`;
  /** Needs `Authorization: Bearer <ADMIN_TOKEN>`; checked by rest.ts before `handle` runs. */
  staff?: boolean;
  /** The per-client limit each call counts against (checked by rest.ts before `handle` runs). */
  rateLimit?: LimitName;
  /** `context`: the request's own (its database, its actor), as a procedure's; rest.ts always passes it. */
  handle(request: Request, params: Record<string, string>, context?: Context): Promise<Response>;
  /** The OpenAPI operation object (error responses are rewritten to the contract's body). */
  openapi: Record<string, unknown> & { operationId: string; responses: Record<string, unknown> };
}
