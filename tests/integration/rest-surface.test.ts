import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, test } from 'vitest';
import { appRouter } from '@/server/api/root';
import { createContext } from '@/server/api/context';
import { createCallerFactory } from '@/server/api/trpc';
import { rest } from '../support/rest';
import { specOperations } from '../support/spec-operations';

describe('GET /v1/openapi.json', () => {
  test('is a valid OpenAPI 3 document, version 1.0.0, listing every operation of the specification', async () => {
    const answer = await rest('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const doc = answer.body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe('1.0.0');
    await SwaggerParser.validate(structuredClone(doc));
    const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    for (const operation of specOperations) expect(listed).toContain(operation);
  });

  test('documents the contract: 201 for order creation, the union body, and the error shape on every error', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const create = doc.paths['/orders'].post;
    expect(Object.keys(create.responses)).toContain('201');
    expect(create.responses['200']).toBeUndefined();
    const body = create.requestBody.content['application/json'].schema;
    expect(JSON.stringify(body)).toContain('CreateOrder');
    expect(doc.components.schemas.CreateOrder.oneOf ?? doc.components.schemas.CreateOrder.anyOf).toHaveLength(2);
    for (const item of Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, any> }>>)) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) expect(response.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
    }
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
  });
});

describe('the /v1 error contract outside the procedures', () => {
  test('an unknown path is 404 not_found', async () => {
    const answer = await rest('GET', '/no/such/thing');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  test('a known path with the wrong method is 405 with Allow', async () => {
    const answer = await rest('DELETE', '/orders');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
    expect(answer.body.error.code).toBe('method_not_allowed');
  });
});

describe('query values', () => {
  test('are coerced alike for /v1 and every other caller', async () => {
    const page = await rest('GET', '/artists', { query: { page: '2' } });
    expect(page.status).toBe(200);
    expect(page.body.page).toBe(2);
    const caller = createCallerFactory(appRouter)(createContext());
    expect((await caller.catalog.artists({ page: '2' as unknown as number })).page).toBe(2);
    await expect(caller.catalog.artists({ page: 'two' as unknown as number })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});

describe('staff endpoints', () => {
  test('refuse a missing or wrong token with 401 before anything else', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'test-staff-token-5c1f0e' }] as Record<string, string>[]) {
      const answer = await rest('GET', '/admin/seo/stats', { headers });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
    const staff = await rest('GET', '/admin/seo/stats', { headers: { authorization: 'Bearer test-staff-token-5c1f0e' } });
    expect(staff.status).toBe(200);
  });
});

describe('the document describes the custom-order operations, raw bodies included', () => {
  test('uploads, the Stripe webhook, staff orders and staff photos are built and documented as such', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const upload = doc.paths['/uploads'].post;
    expect(Object.keys(upload.requestBody.content).sort()).toEqual(['image/heic', 'image/heif', 'image/jpeg', 'image/png', 'image/webp']);
    expect(upload.requestBody.content['image/jpeg'].schema).toEqual({ type: 'string', format: 'binary' });
    expect(upload.responses['201'].content['application/json'].schema.required).toEqual(['uploadId', 'contentType', 'size', 'width', 'height']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '413', '415', '500']));

    const webhook = doc.paths['/payments/stripe-webhook'].post;
    expect(webhook.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Stripe-Signature', required: true })]);
    expect(webhook.responses['400']).toBeDefined();

    const photo = doc.paths['/admin/uploads/{id}'].get;
    expect(photo.security).toEqual([{ staffToken: [] }]);
    expect(Object.keys(photo.responses['200'].content)).toContain('image/jpeg');

    const list = doc.paths['/admin/orders'].get;
    expect(list.security).toEqual([{ staffToken: [] }]);
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['page', 'status']);
    const change = doc.paths['/admin/orders/{code}/status'].post;
    expect(change.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'code', required: true })]);
    expect(change.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StatusChange' });
    expect(Object.keys(doc.components.schemas.StatusChange.properties).sort()).toEqual(['carrier', 'note', 'sketchStatus', 'status', 'trackingNumber']);
    expect(change.responses['409'].description).toMatch(/cannot move/);
  });
});
