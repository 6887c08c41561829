import 'server-only';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { errorStatus } from '@/server/errors';
import { requestHandlers } from './handlers';
import { appRouter } from './root';
import { procedureDefinitions } from './routes';
import { bodyContracts } from './trpc';

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>>; requestBody?: unknown };
type Responses = Operation['responses'];

/** The error body of every /v1 failure (decisions.md "Wire format"). */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]]),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), message: z.string() })).optional().describe('Field problems of invalid input'),
    }),
  })
  .meta({ id: 'Error' });

const errorRef = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: errorRef } } });
/** 429 of an operation counted against a per-client limit (docs/security.md). */
const rateLimitedResponse = (description: string) => ({
  ...errorResponse(description),
  headers: { 'Retry-After': { description: 'Seconds until the client may try again', schema: { type: 'integer', minimum: 1 } } },
});
const tooManyRequests = 'Too many requests from this client (rate_limited); see Retry-After';
const tooManyWrongTokens = 'Too many wrong staff tokens from this client (rate_limited); see Retry-After';

let cached: OpenAPIObject | undefined;

/**
 * The machine-readable description served at /v1/openapi.json. Generated from the procedures, then
 * mended where the generator cannot know our contract: the error body, 201 for creations, request
 * bodies given by `jsonBody` contracts, and the hand-written handlers.
 */
export function openApiDocument(): OpenAPIObject {
  if (cached) return cached;
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Art print shop API',
    description:
      'Catalog, orders, uploads, payments, accounts and staff operations of the art print shop. Amounts are integer US cents; ' +
      'timestamps are ISO 8601 UTC. Every error has the body { "error": { "code", "message" } }.',
    version: '1.0.0',
    baseUrl: '/v1',
    securitySchemes: { staffToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <ADMIN_TOKEN>' } },
  });
  const components = (doc.components ??= {});
  // Added after generation: trpc-to-openapi would put every scheme on every `protect`ed operation.
  (components.securitySchemes ??= {}).sessionCookie = {
    type: 'apiKey',
    in: 'cookie',
    name: 'next-auth.session-token',
    description:
      'The session cookie set by POST /account/auth/google (or the website\'s sign-in); named __Secure-next-auth.session-token over https. ' +
      'httpOnly, SameSite=Lax; writes from another site\'s Origin are refused.',
  };
  const schemas = (components.schemas ??= {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  addSchema(schemas, ErrorBody, 'output');

  for (const def of procedureDefinitions()) {
    const openapi = def.meta?.openapi;
    if (!openapi) continue;
    const operation = doc.paths?.[openapi.path]?.[openapi.method.toLowerCase() as 'get'] as Operation | undefined;
    if (!operation) continue;
    const contract = def.inputs[0] && bodyContracts.get(def.inputs[0]);
    if (contract) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: addSchema(schemas, contract, 'input') } } };
    }
    if (def.meta?.successStatus === 201 && operation.responses['200']) {
      operation.responses['201'] = operation.responses['200'];
      delete operation.responses['200'];
    }
    rewriteErrors(operation.responses, Boolean(def.inputs.length));
    if (def.meta?.rateLimit) operation.responses['429'] = rateLimitedResponse(tooManyRequests);
    if (openapi.protect) operation.responses['429'] = rateLimitedResponse(tooManyWrongTokens);
    if (def.meta?.session) operation.security = def.meta.session === 'required' ? [{ sessionCookie: [] }] : [{ sessionCookie: [] }, {}];
    // trpc-to-openapi caches error responses by tRPC code, so one operation's description would
    // show on every other operation with that code: take each operation's own.
    const described = openapi.errorResponses;
    if (described && !Array.isArray(described)) {
      for (const [status, description] of Object.entries(described)) {
        if (operation.responses[status]) operation.responses[status] = errorResponse(String(description));
      }
    }
  }

  for (const handler of requestHandlers) {
    const item = ((doc.paths ??= {})[handler.path] ??= {}) as Record<string, unknown>;
    const operation = structuredClone(handler.openapi) as Operation;
    if (handler.staff) operation.security = [{ staffToken: [] }];
    rewriteErrors(operation.responses, false);
    if (handler.rateLimit) operation.responses['429'] = rateLimitedResponse(tooManyRequests);
    if (handler.staff) operation.responses['429'] = rateLimitedResponse(tooManyWrongTokens);
    item[handler.method.toLowerCase()] = operation;
  }

  const health = doc.paths?.['/health']?.get as Operation | undefined;
  if (health) {
    // It takes no input and has nothing to find: no 400 or 404, whatever the generator assumes.
    delete health.responses['400'];
    delete health.responses['404'];
  }
  if (health) health.responses['503'] = errorResponse('The database does not answer within 2 s, or a migration of this version is not applied (unavailable)');

  (doc.paths ??= {})['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      tags: ['meta'],
      responses: { '200': { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  cached = doc;
  return doc;
}

function addSchema(schemas: Record<string, unknown>, schema: z.ZodType, io: 'input' | 'output') {
  const result = createSchema(schema, { io, openapiVersion: '3.1.0' });
  Object.assign(schemas, result.components);
  return result.schema;
}

/** Every error response gets the contract's body; the ones any operation can give are added. */
function rewriteErrors(responses: Responses, takesInput: boolean) {
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400) responses[status] = errorResponse(String(response.description ?? 'Error'));
  }
  if (takesInput) responses['400'] ??= errorResponse('Invalid input');
  responses['500'] = errorResponse('Something went wrong on our side');
  responses['503'] = {
    ...errorResponse('The database cannot be reached just now (unavailable); try again after Retry-After'),
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } },
  };
}
