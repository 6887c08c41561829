import 'server-only';
import { generateOpenApiDocument, normalizePath, type OpenAPIObject, type OpenApiRouter } from 'trpc-to-openapi';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { env, publicBaseUrl } from '@/server/env';
import { pagePath, pageUrl } from '@/shared/paths';
import { errorStatus } from '@/server/errors';
import { requestHandlers } from './handlers';
import { appRouter } from './root';
import type { Method, RequestHandlerRoute } from './route-types';
import type { Meta } from './trpc';

type Operation = Record<string, unknown> & {
  operationId?: string;
  parameters?: unknown[];
  responses: Record<string, Record<string, unknown>>;
  requestBody?: unknown;
  security?: Record<string, string[]>[];
};
type Responses = Operation['responses'];

/** The version of the interface the document describes (interface.md §9). */
export const API_VERSION = '1.0.0';

/**
 * A /v1 operation answered by a tRPC procedure, as trpc-to-openapi's generator saw it: the
 * procedure's dotted path (what `createCaller` is walked by), its metadata, and the operation
 * object it generated (parameters with their JSON schemas, before `adjustDocument`).
 */
export interface DocumentedProcedure {
  method: Method;
  path: `/${string}`;
  procedure: string;
  meta: Meta;
  operation: Readonly<Operation>;
}

/** The document's tags, each with what its operations are for (the generator takes names only). */
const TAGS: Record<string, string> = {
  catalog: 'Published artworks, artists, museums, movements, subjects and genres, and search: public, cached reads.',
  orders: 'Placing, reading and following orders and baskets, the sketch approval and the showcase consent.',
  payments: 'Checkout sessions and the payment provider webhook that marks orders paid, refunded or disputed.',
  uploads: "The customer's photo for a custom painting, and its thumbnails.",
  showcase: 'Finished paintings whose customers allowed them to be shown.',
  account: 'The signed-in account: favorites, its basket and its orders.',
  seo: 'What search engines read: sitemaps and change notifications.',
  staff: 'The studio: the order board, production steps, money and the catalog pipeline. Staff token only.',
  meta: 'The health check and this document.',
};

/**
 * The procedures' OpenAPI document exactly as trpc-to-openapi generates it, and every procedure it
 * describes. tRPC 11 has no public way to list a router's procedures (only `_def`, its internals),
 * so the generator, which knows them, is the one that reads them: its `filter` hook hands over each
 * procedure's metadata (in the router's order), and the operation it writes names the procedure
 * (`operationId` is the procedure path with `-` for `.`, as long as no metadata sets its own id).
 * Built once for the app router, when the module loads: nothing here runs per request.
 */
export function generateDocument(router: OpenApiRouter): { document: OpenAPIObject; procedures: DocumentedProcedure[] } {
  const metas: Meta[] = [];
  const document = generateOpenApiDocument<Meta>(router, {
    title: 'Art print shop API',
    description:
      'Catalog, orders, uploads, payments, accounts and staff operations of the art print shop. Amounts are integer US cents; ' +
      'timestamps are ISO 8601 UTC. Every error has the body { "error": { "code", "message" } }.',
    version: API_VERSION,
    contact: { name: 'Atelier Prints studio' },
    tags: Object.keys(TAGS),
    baseUrl: '/v1',
    securitySchemes: { staffToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <ADMIN_TOKEN>' } },
    filter: ({ metadata }) => {
      metas.push(metadata);
      return true;
    },
  });
  const procedures = metas.map((meta): DocumentedProcedure => {
    const { method, path, operationId: ownId } = meta.openapi!;
    // A procedure's operation id is how the route table finds the procedure again.
    if (ownId) throw new Error(`${method} ${path}: set no openapi.operationId; the generated one names the procedure`);
    const operation = document.paths?.[normalizePath(path)]?.[method.toLowerCase() as 'get'] as Operation | undefined;
    if (!operation?.operationId) throw new Error(`${method} ${path} is missing from the generated document`);
    return { method, path, procedure: operation.operationId.replaceAll('-', '.'), meta, operation };
  });
  return { document, procedures };
}

const generated = generateDocument(appRouter);

/** Every /v1 operation answered by a procedure, in the order the routers define them. */
export const documentedProcedures: readonly DocumentedProcedure[] = generated.procedures;
/** The app router's document as the generator wrote it (`openApiDocument()` is what is served). */
export const generatedDocument: Readonly<OpenAPIObject> = generated.document;

/** The error body of every /v1 failure (decisions.md "Wire format"). */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(errorStatus) as [keyof typeof errorStatus, ...(keyof typeof errorStatus)[]]),
      message: z.string(),
      details: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .describe('Field problems of invalid input'),
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

const sessionCookieScheme = {
  type: 'apiKey',
  in: 'cookie',
  name: 'next-auth.session-token',
  description:
    "The session cookie set by POST /account/auth/google (or the website's sign-in); named __Secure-next-auth.session-token over https. " +
    "httpOnly, SameSite=Lax; writes from another site's Origin are refused.",
} as const;

const partnerKeyScheme = {
  type: 'http',
  scheme: 'bearer',
  description:
    "Authorization: Bearer pk_live_… — a partner key, made by the studio's staff for an outside client's server (the key is shown once). " +
    "Optional: without it a request is anonymous and limited per address (orders 20 an hour). With it the key's own allowances apply " +
    '(per hour: 1000 orders and 100 photo uploads unless staff set others), a request refused with 400 counts against none of them, and orders ' +
    'record the partner. An unknown or revoked key is 401 unauthorized, never served as anonymous. Send it from a server only.',
} as const;

/** The answer to a partner key (or any credential) that names nobody, on operations that take one. */
const unknownKey = 'The Authorization header names no live partner key (revoked or unknown) and no staff token (unauthorized)';

/** Public operations a partner key is taken on, optionally: all but the payment provider's webhook and this document. */
const withoutPartnerKey = new Set(['/payments/stripe-webhook', '/openapi.json']);

let adjusted: OpenAPIObject | undefined;

/** The generated document, adjusted once: what /v1 routes by, read at load and free of settings. */
export function openApiDocument(): OpenAPIObject {
  adjusted ??= adjustDocument(generatedDocument, documentedProcedures, requestHandlers);
  return adjusted;
}

let served: OpenAPIObject | undefined;

/**
 * The machine-readable description served at /v1/openapi.json: the document with who answers for
 * this deployment (its settings). Built on the first request, never at load, so reading the
 * settings waits until the server (or a test) has set them.
 */
export function servedOpenApiDocument(): OpenAPIObject {
  const document = openApiDocument();
  served ??= {
    ...document,
    info: { ...document.info, contact: { ...document.info.contact, email: env().SHOP_EMAIL, url: pageUrl(publicBaseUrl(env()), 'en', pagePath.about()) } },
  };
  return served;
}

/**
 * The one step between trpc-to-openapi's document and ours, for what its generator cannot know:
 * the version, the contract's error body on every error status, 201 for creations, the request
 * bodies behind `jsonBody` (`meta.body`), 429 and 503 where they can happen, who may call each
 * operation (`security`, `[]` for anyone), the hand-written handlers and this document's own path.
 * Works on a copy; `generated` is left as it was.
 */
export function adjustDocument(generated: Readonly<OpenAPIObject>, procedures: readonly DocumentedProcedure[], handlers: readonly RequestHandlerRoute[]): OpenAPIObject {
  const doc = structuredClone(generated) as OpenAPIObject;
  doc.info.version = API_VERSION;
  doc.tags = (doc.tags ?? []).map((tag) => ({ ...tag, description: TAGS[tag.name] }));
  const components = (doc.components ??= {});
  // Added after generation: trpc-to-openapi would put every scheme on every `protect`ed operation.
  const schemes = (components.securitySchemes ??= {});
  schemes.sessionCookie = { ...sessionCookieScheme };
  schemes.partnerKey = { ...partnerKeyScheme };
  const schemas = (components.schemas ??= {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  addSchema(doc, ErrorBody, 'output');
  const paths = (doc.paths ??= {});

  for (const { method, path, meta } of procedures) {
    const openapi = meta.openapi!;
    const operation = paths[normalizePath(path)]![method.toLowerCase() as 'get'] as Operation;
    const body = bodyOf(operation);
    if (meta.body) {
      // The generator writes no body at all when the wrapper's only fields are path parameters.
      if (body && !body.open) throw new Error(`${method} ${path}: meta.body is set but the input is not jsonBody(...)`);
      operation.requestBody = { required: true, content: { 'application/json': { schema: addSchema(doc, meta.body, 'input') } } };
    } else if (body?.open) {
      throw new Error(`${method} ${path}: a jsonBody(...) input needs its contract in meta.body too, for the document`);
    }
    if (meta.successStatus === 201 && operation.responses['200']) {
      operation.responses['201'] = operation.responses['200'];
      delete operation.responses['200'];
    }
    // Every procedure takes a Zod input, so any of them can answer 400.
    rewriteErrors(operation.responses, true);
    if (meta.rateLimit) operation.responses['429'] = rateLimitedResponse(tooManyRequests);
    if (openapi.protect) operation.responses['429'] = rateLimitedResponse(tooManyWrongTokens);
    operation.security = openapi.protect
      ? [{ staffToken: [] }]
      : meta.session === 'required'
        ? [{ sessionCookie: [] }]
        : meta.session === 'optional'
          ? [{ sessionCookie: [] }, {}]
          : forAnyone(operation, path);
    // trpc-to-openapi caches error responses by tRPC code, so one operation's description would
    // show on every other operation with that code: take each operation's own.
    const described = openapi.errorResponses;
    if (described && !Array.isArray(described)) {
      for (const [status, description] of Object.entries(described)) {
        if (operation.responses[status]) operation.responses[status] = errorResponse(String(description));
      }
    }
  }

  for (const handler of handlers) {
    const item = (paths[handler.path] ??= {}) as Record<string, unknown>;
    const operation = structuredClone(handler.openapi) as Operation;
    operation.security = handler.staff ? [{ staffToken: [] }] : forAnyone(operation, handler.path);
    rewriteErrors(operation.responses, false);
    if (handler.rateLimit) operation.responses['429'] = rateLimitedResponse(tooManyRequests);
    if (handler.staff) operation.responses['429'] = rateLimitedResponse(tooManyWrongTokens);
    item[handler.method.toLowerCase()] = operation;
  }

  const health = paths['/health']?.get as Operation | undefined;
  if (health) {
    // It takes no input and has nothing to find: no 400 or 404, whatever the generator assumes.
    delete health.responses['400'];
    delete health.responses['404'];
    health.responses['503'] = errorResponse('The database does not answer within 2 s, or a migration of this version is not applied (unavailable)');
  }

  paths['/openapi.json'] = {
    get: {
      operationId: 'openapi',
      summary: 'This document',
      description: 'OpenAPI 3.1, generated from the same procedures that answer /v1, so it cannot drift from them.',
      tags: ['meta'],
      security: [],
      responses: { '200': { description: 'The OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return doc;
}

/**
 * Who may call an operation that is anyone's: anyone, or a partner with its key (optional, so
 * `{}` first); a key that names nobody is 401. The webhook and the document take no key.
 */
function forAnyone(operation: Operation, path: string): Operation['security'] {
  if (withoutPartnerKey.has(path)) return [];
  operation.responses['401'] ??= errorResponse(unknownKey);
  return [{}, { partnerKey: [] }];
}

/**
 * The JSON request body the generator wrote, and whether it is `jsonBody`'s stand-in: an object
 * open to any field (the contract is validated behind it), which the document must replace.
 */
function bodyOf(operation: Operation): { open: boolean } | undefined {
  const content = (operation.requestBody as { content?: Record<string, { schema?: { additionalProperties?: unknown } }> } | undefined)?.content;
  const schema = content?.['application/json']?.schema;
  if (!schema) return undefined;
  const extra = schema.additionalProperties;
  return { open: extra !== undefined && extra !== false };
}

function addSchema(doc: OpenAPIObject, schema: z.ZodType, io: 'input' | 'output') {
  const result = createSchema(schema, { io, openapiVersion: '3.1.0' });
  if (io === 'input') keepOutputsApart(doc, result.components);
  Object.assign(doc.components!.schemas!, result.components);
  return result.schema;
}

/**
 * A body's component may share its id with one the generator wrote for an answer (`Basket` is
 * PUT /account/basket's body and GET's answer), and the two differ where a field has a default:
 * optional in a request, always there in an answer. The answer's one is renamed `<id>Output`, every
 * reference to it with it, as zod-openapi names them when it sees both; the body keeps the id.
 * Repeated until nothing clashes: renaming a component changes the text of those that refer to it.
 * The document is changed in place: the operations being adjusted are objects inside it.
 */
function keepOutputsApart(doc: OpenAPIObject, inputs: Record<string, unknown>) {
  const schemas = doc.components!.schemas! as Record<string, unknown>;
  for (;;) {
    const clashing = Object.keys(inputs).filter((name) => name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(inputs[name]));
    if (!clashing.length) return;
    for (const name of clashing) {
      if (`${name}Output` in schemas) throw new Error(`components.schemas.${name}Output exists already: the answer's ${name} cannot be renamed to it`);
      schemas[`${name}Output`] = schemas[name];
      delete schemas[name];
    }
    renameRefs({ paths: doc.paths, components: doc.components }, new Set(clashing));
  }
}

const SCHEMA_REF = '#/components/schemas/';

/** Points every `$ref` to a renamed component at its `<id>Output`, in place. */
function renameRefs(value: unknown, renamed: ReadonlySet<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) renameRefs(item, renamed);
  } else if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    for (const [key, inner] of Object.entries(node)) {
      const name = key === '$ref' && typeof inner === 'string' && inner.startsWith(SCHEMA_REF) ? inner.slice(SCHEMA_REF.length) : undefined;
      if (name !== undefined) {
        if (renamed.has(name)) node[key] = `${SCHEMA_REF}${name}Output`;
      } else renameRefs(inner, renamed);
    }
  }
}

/** Every error response gets the contract's body; the ones any operation can give are added. */
function rewriteErrors(responses: Responses, takesInput: boolean) {
  // An operation's own 503 (uploads: storage_full) is said first; any operation may meet the database's.
  const own503 = responses['503'] ? String(responses['503'].description) : undefined;
  for (const [status, response] of Object.entries(responses)) {
    if (Number(status) >= 400) responses[status] = errorResponse(String(response.description ?? 'Error'));
  }
  if (takesInput) responses['400'] ??= errorResponse('Invalid input');
  responses['500'] = errorResponse('Something went wrong on our side');
  const unavailable = 'cannot be reached just now (unavailable); try again after Retry-After';
  responses['503'] = {
    ...errorResponse(own503 ? `${own503}. Or the database ${unavailable}` : `The database ${unavailable}`),
    headers: { 'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } } },
  };
}
