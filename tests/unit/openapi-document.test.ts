import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { requestHandlers } from '@/server/api/handlers';
import { adjustDocument, documentedProcedures, generateDocument, generatedDocument } from '@/server/api/openapi';
import { operations as routes } from '@/server/api/rest';
import { jsonBody, publicProcedure, router } from '@/server/api/trpc';
import { specOperations } from '../support/spec-operations';

type Operation = { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; requestBody?: unknown };
const operationsOf = (doc: ReturnType<typeof adjustDocument>) =>
  Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ id: `${method.toUpperCase()} ${path}`, operation })),
  );

describe('adjusting the generated document', () => {
  const before = structuredClone(generatedDocument);
  const doc = adjustDocument(generatedDocument, documentedProcedures, requestHandlers);
  const operations = operationsOf(doc);
  const byId = new Map(operations.map(({ id, operation }) => [id, operation]));

  test('leaves the generated document as it was', () => {
    expect(generatedDocument).toEqual(before);
  });

  test('says version 1.0.0 and lists every operation of the contract, and every route /v1 answers', () => {
    expect(doc.info.version).toBe('1.0.0');
    for (const id of specOperations) expect(byId.has(id), id).toBe(true);
    expect(operations.map((o) => o.id).sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  test("says what every operation does, under a tag the document lists, and who answers for it (Spectral's spectral:oas rules)", () => {
    const tags = (doc.tags ?? []).map((tag) => tag.name);
    expect(new Set(tags).size).toBe(tags.length);
    expect(doc.info.contact?.name).toBeTruthy();
    for (const { id, operation } of operations) {
      const { description, summary, tags: own } = operation as Operation & { description?: string; summary?: string; tags?: string[] };
      expect(summary, id).toBeTruthy();
      // A description says more than the summary, not the same again.
      expect(description && description.length > 20 && description !== summary, `${id}: description`).toBe(true);
      expect(own?.length, `${id}: tags`).toBe(1);
      expect(tags, id).toContain(own![0]);
    }
  });

  test('every error status has the contract body, and every operation its 500 and 503', () => {
    for (const { id, operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) >= 400) expect(response.content?.['application/json']?.schema, `${id} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
      if (id !== 'GET /openapi.json') expect(Object.keys(operation.responses), id).toEqual(expect.arrayContaining(['500', '503']));
    }
    expect(Object.keys(doc.components?.schemas ?? {}).filter((name) => name.startsWith('error.'))).toEqual([]);
  });

  test('creations answer 201, counted operations 429, JSON bodies show their contract', () => {
    expect(Object.keys(byId.get('POST /orders')!.responses)).toEqual(expect.arrayContaining(['201', '400', '429']));
    expect(byId.get('POST /orders')!.responses['200']).toBeUndefined();
    expect(byId.get('POST /uploads')!.responses['201']).toBeDefined();
    expect(byId.get('GET /orders/{code}')!.responses['429']).toBeDefined();
    expect(byId.get('GET /admin/orders')!.responses['429']).toBeDefined();
    expect(byId.get('POST /orders')!.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateOrder' } } } });
    expect(byId.get('POST /orders/{code}/sketch-decision')!.requestBody).toBeDefined();
  });

  test('who may call: anyone or a partner with its key, the staff token for staff, the session cookie for accounts', () => {
    const noKey = ['POST /payments/stripe-webhook', 'GET /openapi.json'];
    for (const { id, operation } of operations) {
      const security = JSON.stringify(operation.security);
      if (/ \/admin\//.test(id)) expect(operation.security, id).toEqual([{ staffToken: [] }]);
      else if (id.includes(' /account/')) expect(security, id).toContain('sessionCookie');
      else if (noKey.includes(id)) expect(operation.security, id).toEqual([]);
      else {
        // Optional (`{}` first): without a key the operation is anyone's; a key that names nobody is 401.
        expect(operation.security, id).toEqual([{}, { partnerKey: [] }]);
        expect(operation.responses['401']?.content?.['application/json']?.schema, id).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    for (const id of ['POST /orders', 'POST /uploads', 'GET /orders/{code}', 'GET /artworks', 'GET /pricing'])
      expect(byId.get(id)!.security, id).toEqual([{}, { partnerKey: [] }]);
    expect(byId.get('GET /account/favorites')!.security).toEqual([{ sessionCookie: [] }]);
    expect(byId.get('GET /account/me')!.security).toEqual([{ sessionCookie: [] }, {}]);
    const schemes = doc.components?.securitySchemes ?? {};
    expect(Object.keys(schemes).sort()).toEqual(['partnerKey', 'sessionCookie', 'staffToken']);
    expect(schemes.partnerKey).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringContaining('pk_live_') });
  });
});

describe('a JSON body is documented only from its contract', () => {
  const Contract = z.object({ count: z.int() }).meta({ id: 'Count' });
  const op = (path: `/${string}`) => ({ openapi: { method: 'POST' as const, path, protect: false } });

  test('a jsonBody input without meta.body refuses to build, so the document cannot show an empty body', () => {
    const forgotten = router({
      count: publicProcedure
        .meta(op('/count'))
        .input(jsonBody(Contract))
        .output(z.object({}))
        .mutation(() => ({})),
    });
    const { document, procedures } = generateDocument(forgotten);
    expect(() => adjustDocument(document, procedures, [])).toThrow(/meta\.body/);
  });

  test('with meta.body the body is the contract', () => {
    const declared = router({
      count: publicProcedure
        .meta({ ...op('/count'), body: Contract })
        .input(jsonBody(Contract))
        .output(z.object({}))
        .mutation(() => ({})),
    });
    const { document, procedures } = generateDocument(declared);
    expect(procedures.map((p) => p.procedure)).toEqual(['count']);
    const adjusted = adjustDocument(document, procedures, []);
    expect((adjusted.paths?.['/count']?.post as Operation).requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Count' } } },
    });
  });

  test("a contract that is a body and an answer: the body keeps its id, the answer's (its defaults always there) is <id>Output", () => {
    const Line = z.object({ size: z.string(), note: z.string().nullable().default(null) }).meta({ id: 'Line' });
    const List = z.object({ lines: z.array(Line) }).meta({ id: 'List' });
    const both = router({
      read: publicProcedure
        .meta({ openapi: { method: 'GET', path: '/list', protect: false } })
        .input(z.object({}))
        .output(List)
        .query(() => ({ lines: [] })),
      save: publicProcedure
        .meta({ ...op('/list'), body: List })
        .input(jsonBody(List))
        .output(List)
        .mutation(({ input }) => input),
    });
    const { document, procedures } = generateDocument(both);
    const adjusted = adjustDocument(document, procedures, []);
    const schemas = adjusted.components?.schemas as Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
    const answer = (method: 'get' | 'post') => (adjusted.paths?.['/list']?.[method] as Operation).responses['200']?.content?.['application/json']?.schema;
    expect(answer('get')).toEqual({ $ref: '#/components/schemas/ListOutput' });
    expect(answer('post')).toEqual({ $ref: '#/components/schemas/ListOutput' });
    expect((adjusted.paths?.['/list']?.post as Operation).requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/List' } } } });
    expect(schemas.ListOutput!.properties!.lines).toMatchObject({ items: { $ref: '#/components/schemas/LineOutput' } });
    expect(schemas.List!.properties!.lines).toMatchObject({ items: { $ref: '#/components/schemas/Line' } });
    expect(schemas.LineOutput!.required).toEqual(['size', 'note']);
    expect(schemas.Line!.required).toEqual(['size']);
  });
});
