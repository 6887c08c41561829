import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '@/server/api/context';
import { handleRest } from '@/server/api/rest';
import { createDb, db, type Db } from '@/server/db/client';
import { isDatabaseUnavailable } from '@/server/db/unavailable';
import { checkHealth, shippedMigrations } from '@/server/health/service';
import { reproduction } from '../support/orders';
import { rest } from '../support/rest';

describe('GET /v1/health', () => {
  test('200 with the database answering and every shipped migration applied; never cached; nothing else told', async () => {
    const answer = await rest('GET', '/health');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(shippedMigrations()).toContain('20261122180000_rate_limits');
  });

  describe('503 unavailable', () => {
    let down: Db;
    beforeAll(() => {
      down = createDb('postgresql://nobody:nothing@127.0.0.1:9/none');
    });
    afterAll(() => down.$disconnect());

    test('when the database does not answer: the contract body, no host, port or driver message', async () => {
      const response = await handleRest(new Request('http://shop.test/v1/health'), () => createContext({ db: down }));
      expect(response.status).toBe(503);
      expect(response.headers.get('cache-control')).toBe('private, no-store');
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'unavailable', message: 'The database is not reachable.' } });
      expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|nobody|:9\b/);
    });

    test('when the database is slower than the timeout', async () => {
      // Made slow for real: another session holds the migrations table, so the check's read waits
      // for it. (A timeout of 0 ms raced a read of well under a millisecond, and lost now and then.)
      const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('LOCK TABLE "_prisma_migrations" IN ACCESS EXCLUSIVE MODE');
        await expect(checkHealth(db(), { timeoutMs: 100 })).rejects.toMatchObject({ code: 'unavailable', message: 'The database is not reachable.' });
      } finally {
        await holder.query('ROLLBACK');
        await holder.end();
      }
      expect(await checkHealth(db())).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });
    });

    test('when a migration this version ships is not applied', async () => {
      await expect(checkHealth(db(), { migrations: [...shippedMigrations(), '29990101000000_from_the_future'] })).rejects.toMatchObject({
        code: 'unavailable',
        message: 'The database schema is not current.',
      });
      expect(await checkHealth(db())).toEqual({ status: 'ok', database: 'ok', migrations: 'current' });
    });

    test('any /v1 request that meets an unreachable database answers 503 unavailable with Retry-After, not 500', async () => {
      const sample = await rest('GET', '/artworks');
      const slug = sample.body.items[0].slug;
      const requests = [
        new Request('http://shop.test/v1/artworks?q=river'),
        new Request(`http://shop.test/v1/artworks/${slug}`),
        new Request('http://shop.test/v1/orders/ABCDEFGHJK?email=a%40example.com'),
        new Request('http://shop.test/v1/orders', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(reproduction({ artworkSlug: slug })),
        }),
      ];
      for (const request of requests) {
        const response = await handleRest(request, () => createContext({ db: down }));
        const where = `${request.method} ${new URL(request.url).pathname}`;
        expect(response.status, where).toBe(503);
        expect(response.headers.get('retry-after'), where).toBe('5');
        const text = await response.text();
        expect(JSON.parse(text), where).toEqual({ error: { code: 'unavailable', message: expect.stringMatching(/cannot reach its database/) } });
        expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|P1001|nobody/);
      }
    });

    test('a request fault stays what it is: a unique violation or a plain bug is not "unavailable"', () => {
      expect(isDatabaseUnavailable({ code: 'P2002', meta: { driverAdapterError: { cause: { kind: 'UniqueConstraintViolation' } } } })).toBe(false);
      expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
      expect(isDatabaseUnavailable({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } } })).toBe(true);
      expect(isDatabaseUnavailable(new Error('wrapped', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }))).toBe(true);
      // What a transaction meets when PostgreSQL is restarted under it (seen in the restart fault test).
      expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
      expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
      expect(isDatabaseUnavailable(new Error('Unique constraint failed on the fields: (`code`)'))).toBe(false);
    });
  });

  test('is documented, with its 503', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    const operation = doc.paths['/health'].get;
    // 401: an unknown or revoked partner key is refused on every public operation, this one too.
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '401', '500', '503']);
    expect(operation.responses['503'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('unavailable');
  });
});

describe('the OpenAPI document names the limits', () => {
  test('rate-limited operations and staff operations may answer 429 with Retry-After', async () => {
    const doc = (await rest('GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/orders', 'post'],
      ['/orders/{code}', 'get'],
      ['/uploads', 'post'],
      ['/account/auth/google', 'post'],
      ['/admin/orders', 'get'],
      ['/admin/uploads/{id}', 'get'],
    ] as const) {
      const response = doc.paths[path][method].responses['429'];
      expect(response, `${method} ${path}`).toBeDefined();
      expect(response.headers['Retry-After'].schema.type).toBe('integer');
    }
    expect(doc.paths['/artworks'].get.responses['429']).toBeUndefined();
    expect(doc.paths['/health'].get.responses['429']).toBeUndefined();
  });
});
