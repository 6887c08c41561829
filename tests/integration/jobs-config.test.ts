import { expect, test } from 'vitest';
import { env } from '@/server/env';
import { configuredJobDeps, runJob } from '@/server/jobs/registry';
import { reproduction } from '../support/orders';
import { rest } from '../support/rest';
import { db } from '@/server/db/client';

// Found by the e2e run: the job dependencies built the Wikidata source eagerly, so with the public
// endpoint and no WIKIDATA_CONTACT every outbox job, order e-mails included, failed and was retried forever.
test('order e-mail jobs run without WIKIDATA_CONTACT: only the ingest needs the operator contact', async () => {
  expect(env().WIKIDATA_CONTACT).toBeUndefined();
  expect(env().WIKIDATA_SPARQL_URL).toMatch(/wikidata\.org/);
  const created = await rest('POST', '/orders', { json: reproduction() });
  const order = await db().order.findUniqueOrThrow({ where: { code: created.body.code } });
  // Mail is off in tests, so the job says so instead of sending; it must not throw.
  await expect(runJob('shop/order.received', { orderId: order.id, code: order.code }, configuredJobDeps())).resolves.toBe('mail off');
});
