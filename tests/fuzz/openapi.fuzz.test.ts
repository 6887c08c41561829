/**
 * Interface fuzzing from the OpenAPI document (issue 9, item 1): for every operation /v1 describes,
 * property-based requests — shaped like the document says (valid) and hostile (wrong types,
 * boundary lengths, huge numbers, unicode and broken percent-encoding, empty and duplicate query
 * values, malformed JSON, wrong Content-Type, oversized bodies) — are sent through the real /v1
 * surface (`handleRest`, as Next's route handler calls it) on a real PostgreSQL of this file's own.
 *
 * What must hold for every answer: no 5xx; every error body is exactly the contract's
 * `{ error: { code, message, details? } }` with the status its code names; every 2xx body
 * validates against the response schema the document gives for that status.
 *
 * Fixed seed in CI (FUZZ_SEED, default below); a longer run: `FUZZ_RUNS=500 npm run test:fuzz`.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '@/server/api/openapi';
import { handleRest } from '@/server/api/rest';
import { createContext } from '@/server/api/context';
import type { Db } from '@/server/db/client';
import { errorStatus } from '@/server/errors';
import { taxonKinds } from '@/shared/catalog';
import { ownDatabase } from '../support/database';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
const STAFF = `Bearer ${process.env.ADMIN_TOKEN}`;

type Schema = Record<string, unknown> & { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema };
interface Param {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  id: string;
  params: Param[];
  body?: { type: string; schema?: Schema };
  staff: boolean;
  responses: Record<string, Schema | undefined>;
}

let database: { db: Db; drop(): Promise<void> };
/** Real values per operation and parameter (slugs, kinds, chunks), so generated requests also reach found rows. */
const known = new Map<string, string[]>();
const operations: Operation[] = [];
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
const validators = new Map<Schema, ReturnType<typeof ajv.compile>>();

beforeAll(async () => {
  database = await ownDatabase('fuzz');
  const doc = (await SwaggerParser.dereference(structuredClone(openApiDocument()) as never)) as OpenAPIV3_1.Document;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = item?.[method];
      if (!op) continue;
      const content = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content ?? {};
      const [bodyType, media] = Object.entries(content)[0] ?? [];
      operations.push({
        method: method.toUpperCase(),
        path,
        id: `${method.toUpperCase()} ${path}`,
        params: ((op.parameters ?? []) as Param[]).filter((p) => p.in !== 'cookie'),
        body: bodyType ? { type: bodyType, schema: media?.schema as Schema | undefined } : undefined,
        staff: JSON.stringify(op.security ?? []).includes('staffToken'),
        responses: Object.fromEntries(
          Object.entries(op.responses ?? {}).map(([status, r]) => [status, (r as OpenAPIV3_1.ResponseObject).content?.['application/json']?.schema as Schema | undefined]),
        ),
      });
    }
  }

  const read = async (path: string) =>
    (await send({ method: 'GET', path, id: path, params: [], staff: false, responses: {} }, { path: {}, query: [], headers: [], staff: false })).body as Record<
      string,
      unknown
    >;
  const artworks = (await read('/artworks')).items as { slug: string; artist: { slug: string } }[];
  const movements = (await read('/taxa/movements')).items as { slug: string }[];
  const sitemaps = (await read('/seo/sitemaps')).sitemaps as { type: string; chunk: number }[] | undefined;
  known.set(
    '/artworks/{slug} slug',
    artworks.map((a) => a.slug),
  );
  known.set(
    '/artists/{slug} slug',
    artworks.map((a) => a.artist.slug),
  );
  known.set('/taxa/{kind} kind', [...taxonKinds]);
  known.set('/taxa/{kind}/{slug} kind', ['movements']);
  known.set(
    '/taxa/{kind}/{slug} slug',
    movements.map((m) => m.slug),
  );
  known.set(
    '/account/favorites/{slug} slug',
    artworks.map((a) => a.slug),
  );
  known.set('/seo/sitemaps/{type}/{chunk} type', [...new Set((sitemaps ?? []).map((c) => c.type))]);
  known.set('/seo/sitemaps/{type}/{chunk} chunk', [...new Set((sitemaps ?? []).map((c) => String(c.chunk)))]);
  known.set(
    'body artworkSlug',
    artworks.map((a) => a.slug),
  );
  known.set('/artworks/by-slugs slugs', [
    artworks
      .slice(0, 5)
      .map((a) => a.slug)
      .join(','),
  ]);
}, 120_000);
afterAll(() => database?.drop());

/** A parameter's generator: schema-shaped values, and half the time a real one when there are any. */
function param(op: Operation, p: Param): fc.Arbitrary<string> {
  const real = known.get(`${op.path} ${p.name}`)?.filter(Boolean) ?? [];
  const shaped = valid(p.schema).map((v) => encodeURIComponent(toText(v)));
  return real.length ? fc.oneof(shaped, fc.constantFrom(...real.map(encodeURIComponent))) : shaped;
}

/** A JSON body shaped by the schema, with real artwork slugs where the body names one. */
function jsonBody(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const slugs = known.get('body artworkSlug') ?? [];
  return fc
    .tuple(valid(schema), fc.boolean(), slugs.length ? fc.constantFrom(...slugs) : fc.constant('x'))
    .map(([value, useReal, slug]) => (useReal && value && typeof value === 'object' && 'artworkSlug' in value ? { ...value, artworkSlug: slug } : value));
}

// ───────────────────────────── arbitraries ─────────────────────────────

/** A value the schema accepts (within reason: strings and arrays kept short). */
function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.constant('x');
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const union = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (union?.length) return fc.oneof(...union.map((s) => valid(s, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) return valid(schema.allOf[0] as Schema, depth + 1);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'integer':
        case 'number': {
          const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : -1_000;
          const max = typeof schema.maximum === 'number' ? schema.maximum : typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : 1_000_000;
          return type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.min(Math.floor(max), Number.MAX_SAFE_INTEGER) }) : fc.double({ min, max, noNaN: true });
        }
        case 'array':
          return fc.array(valid(schema.items, depth + 1), { minLength: Number(schema.minItems ?? 0), maxLength: Math.min(Number(schema.maxItems ?? 3), 3) });
        case 'object': {
          const props = schema.properties ?? {};
          const record = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valid(s, depth + 1)]));
          return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
        }
        default: {
          // The server's e-mail check is stricter than RFC 5322 (as it may be); ordinary addresses reach past it.
          if (schema.format === 'email')
            return fc
              .tuple(fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,15}$/), fc.constantFrom('example.com', 'mail.example.org', 'shop.test'))
              .map(([user, domain]) => `${user}@${domain}`);
          if (typeof schema.pattern === 'string') {
            try {
              return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= Number(schema.maxLength ?? 200));
            } catch {
              // a pattern JavaScript cannot read: fall back to plain text
            }
          }
          const minLength = Number(schema.minLength ?? 0);
          return fc.string({ minLength, maxLength: Math.max(minLength, Math.min(Number(schema.maxLength ?? 40), 40)) });
        }
      }
    }),
  );
}

/** Raw query or path text a client might send, already percent-encoded where it matters. */
const hostileText = fc.oneof(
  fc.constantFrom('', '0', '-1', '1.5', '1e308', '-1e308', '99999999999999999999999', 'NaN', 'Infinity', 'null', 'true', '[]', '{}'),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE orders; --', '.*+?^${}()|[]\\', '%_', '\\x00', '<script>alert(1)</script>'),
  // Broken percent-encoding and encoded lone surrogates / NUL / invalid UTF-8.
  fc.constantFrom('%', '%%', '%zz', '%ED%A0%80', '%FF%FE', '%00', 'a%00b', '%C0%AF', '..%2F..%2Fetc%2Fpasswd'),
  fc.constantFrom('x'.repeat(161), 'x'.repeat(10_000), '1'.repeat(400)),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.string({ unit: 'binary-ascii', maxLength: 30 }).map(encodeURIComponent),
);

const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.5, '', '7', 'x'.repeat(5_000), '\u0000', '\uD800', [], {}, [[[[[]]]]]),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A body that is not the JSON the endpoint wants: broken text, wrong types, too big, wrong media type. */
const hostileBody = fc.oneof(
  fc.constantFrom('{', '{"a":', 'nul', '[1,2', '\u0000', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', ' ').map((text) => ({ text, type: 'application/json' })),
  fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'image/png').map((type) => ({ text: '{}', type })),
  fc.constant({ text: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), type: 'application/json' }),
  hostileJson.map((value) => ({ text: JSON.stringify(value) ?? 'null', type: 'application/json' })),
);

// ───────────────────────────── requests and checks ─────────────────────────────

interface Wire {
  path: Record<string, string>;
  query: [string, string][];
  /** Header parameters the document declares (Idempotency-Key), valid or hostile. */
  headers: [string, string][];
  body?: { text?: string; bytes?: Uint8Array; type: string };
  staff: boolean;
}

function toText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function urlOf(op: Operation, wire: Wire): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => wire.path[name] ?? 'x');
  const query = wire.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
  return `http://shop.test/v1${path}${query ? `?${query}` : ''}`;
}

async function send(op: Operation, wire: Wire): Promise<{ status: number; body: unknown; text: string }> {
  const headers = new Headers({ origin: 'http://shop.test' });
  if (wire.staff) headers.set('authorization', STAFF);
  try {
    for (const [name, value] of wire.headers) headers.append(name, value);
  } catch {
    return { status: 0, body: null, text: '' }; // a value no HTTP client can send (a newline, a NUL)
  }
  // A GET or DELETE never carries a body here (fetch's Request refuses one on GET).
  const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : wire.body;
  if (body) headers.set('content-type', body.type);
  let url: string;
  try {
    url = urlOf(op, wire);
    new URL(url);
  } catch {
    return { status: 0, body: null, text: '' };
  }
  const request = new Request(url, { method: op.method, headers, body: body ? (body.bytes ? new Blob([new Uint8Array(body.bytes)]) : body.text) : undefined });
  const response = await handleRest(request, (options) => createContext({ ...options, db: database.db }));
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: checked below
  }
  return { status: response.status, body: parsed, text };
}

/** Statuses seen per operation, so the suite can show it reached past the validation layer. */
const seen = new Map<string, Set<number>>();

function check(op: Operation, wire: Wire, answer: { status: number; body: unknown; text: string }): void {
  if (answer.status === 0) return; // the URL could not even be formed: nothing was sent
  seen.set(op.id, (seen.get(op.id) ?? new Set()).add(answer.status));
  if (process.env.FUZZ_TRACE === op.id) console.log(answer.status, wire.body?.text?.slice(0, 400), answer.text.slice(0, 300));
  const where = `${op.id} → ${answer.status} for ${urlOf(op, wire).slice(0, 300)} ${wire.body ? `(${wire.body.type}, ${String(wire.body.text ?? '').slice(0, 120)})` : ''}`;
  expect(answer.status, `${where}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    const body = answer.body as { error?: Record<string, unknown> };
    expect(Object.keys(body ?? {}), where).toEqual(['error']);
    const error = body.error!;
    expect(
      Object.keys(error).filter((k) => !['code', 'message', 'details'].includes(k)),
      where,
    ).toEqual([]);
    expect(typeof error.message, where).toBe('string');
    expect(error.code, where).toBeTypeOf('string');
    expect(errorStatus[error.code as keyof typeof errorStatus], `${where}: code ${String(error.code)}`).toBe(answer.status);
    // No stack, no internals, no secret in an answer.
    expect(answer.text, where).not.toMatch(/\n\s+at |node_modules|prisma\.|PrismaClient/);
    expect(answer.text, where).not.toContain(process.env.ADMIN_TOKEN);
    return;
  }
  if (answer.status === 304 || answer.status === 204) return;
  expect(String(answer.status) in op.responses, `${where}: status not in the document`).toBe(true);
  const schema = op.responses[String(answer.status)];
  if (!schema) return;
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
  const ok = validate(answer.body);
  expect(ok ? 'valid' : ajv.errorsText(validate.errors), where).toBe('valid');
}

/** Requests shaped the way the document describes the operation. */
function validWire(op: Operation): fc.Arbitrary<Wire> {
  const path = fc.record(Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, param(op, p)])));
  const query = fc
    .tuple(
      ...op.params
        .filter((p) => p.in === 'query')
        .map((p) => {
          const pair = param(op, p).map((v) => [[p.name, v]] as [string, string][]);
          return p.required ? pair : fc.option(pair, { nil: [] as [string, string][] });
        }),
    )
    .map((parts) => parts.flat());
  const body = op.body
    ? op.body.type === 'application/json'
      ? jsonBody(op.body.schema).map((value) => ({ text: JSON.stringify(value), type: 'application/json' }))
      : fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ bytes, type: op.body!.type }))
    : fc.constant(undefined);
  const headers = fc
    .tuple(
      ...op.params
        .filter((p) => p.in === 'header')
        .map((p) =>
          fc.option(
            valid(p.schema).map((v) => [[p.name, toText(v)]] as [string, string][]),
            { nil: [] as [string, string][] },
          ),
        ),
    )
    .map((parts) => parts.flat());
  return fc.record({ path, query, headers, body, staff: op.staff ? fc.boolean() : fc.constant(false) });
}

/** Requests that break the description: each parameter hostile or duplicated, bodies broken. */
function hostileWire(op: Operation): fc.Arbitrary<Wire> {
  const path = fc.record(Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, fc.oneof(hostileText, param(op, p))])));
  const names = [...op.params.filter((p) => p.in === 'query').map((p) => p.name), 'unknown', 'page'];
  const query = fc.array(fc.tuple(fc.constantFrom(...names), hostileText), { maxLength: 4 });
  const body = op.body
    ? op.body.type === 'application/json'
      ? hostileBody
      : fc.oneof(
          hostileBody,
          fc.uint8Array({ maxLength: 256 }).map((bytes) => ({ bytes, type: op.body!.type })),
        )
    : fc.option(hostileBody, { nil: undefined });
  const declared = op.params.filter((p) => p.in === 'header').map((p) => p.name);
  const headers: fc.Arbitrary<[string, string][]> = declared.length
    ? fc.array(fc.tuple(fc.constantFrom(...declared), fc.oneof(hostileText, fc.string({ maxLength: 300 }))), { maxLength: 3 })
    : fc.constant([]);
  return fc.record({ path, query, headers, body, staff: op.staff ? fc.boolean() : fc.constant(false) });
}

describe('the /v1 surface under generated requests', () => {
  it('describes operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  for (const kind of ['valid', 'hostile'] as const) {
    it(`answers ${kind} requests to every operation within the contract`, async () => {
      for (const op of operations) {
        await fc.assert(
          fc.asyncProperty(kind === 'valid' ? validWire(op) : hostileWire(op), async (wire) => check(op, wire, await send(op, wire))),
          { seed: SEED, numRuns: RUNS, endOnFailure: true },
        );
      }
    }, 600_000);
  }

  it('reached success answers, not only refusals', () => {
    const succeeded = [...seen].filter(([, statuses]) => [...statuses].some((s) => s < 300)).map(([id]) => id);
    if (process.env.FUZZ_REPORT) for (const [id, statuses] of seen) console.log(id, [...statuses].sort().join(' '));
    // Reads of lists and the price table succeed for any valid query; a creation succeeds for a valid body.
    for (const id of [
      'GET /artworks',
      'GET /artists',
      'GET /artworks/by-slugs',
      'GET /artworks/{slug}',
      'GET /artists/{slug}',
      'GET /taxa/{kind}',
      'GET /taxa/{kind}/{slug}',
      'GET /seo/sitemaps/{type}/{chunk}',
      'POST /orders',
      'GET /pricing',
      'GET /seo/sitemaps',
      'GET /admin/orders',
      'GET /admin/seo/stats',
    ]) {
      expect(succeeded, id).toContain(id);
    }
  });
});
