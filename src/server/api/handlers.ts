import 'server-only';
import type { LimitName } from '@/server/limits/policy';
import type { Method } from './routes';
import type { Context } from './trpc';
import { stripeWebhookRoute } from '@/server/payments/handler';
import { orderPhotoRoute, studioPhotoRoute } from '@/server/orders/photo-routes';
import { adminPhotoRoute, uploadRoute } from '@/server/uploads/handler';

/**
 * A /v1 operation tRPC cannot carry (raw upload bytes, a signed webhook body, a photo streamed to
 * staff): a plain handler on a Request. It sits in the same route table as the procedures, gets the
 * same 404/405/401 treatment and error contract from rest.ts, and documents itself in the same
 * OpenAPI document. Throw a DomainError for a client's mistake; anything else becomes a 500.
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

/** Every hand-written /v1 handler; an issue that adds one registers it here. */
export const requestHandlers: RequestHandlerRoute[] = [uploadRoute(), adminPhotoRoute(), stripeWebhookRoute(), studioPhotoRoute(), orderPhotoRoute()];
