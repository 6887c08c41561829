import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { NOTIFY_EVENT } from '@/server/pipeline/publish';
import { catalogLocales } from '@/shared/locales';
import { ownDatabase } from '../support/database';
import { startIndexNowServer } from '../support/indexnow';

/**
 * A publish run that dies in the middle (issue 9, item 5): `npm run catalog -- publish` as its own
 * process, killed with SIGKILL while its transaction has already made the works public but not
 * committed. Nothing may be half-published, and the next run publishes them all and tells IndexNow.
 * (tests/integration/pipeline-publish.test.ts covers a failure thrown inside the run; this is the
 * process vanishing.)
 */

let own: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let indexnow: Awaited<ReturnType<typeof startIndexNowServer>>;
let artistId: number;
let ids: number[];

beforeAll(async () => {
  own = await ownDatabase('crash');
  db = own.db;
  indexnow = await startIndexNowServer();
  // A new painter with ten works ready to publish (the block a new artist enters with).
  const artist = await db.artist.create({
    data: { slug: 'crash-painter', name: 'Crash Painter', wikidataId: 'Q99000001', texts: { create: { locale: 'en', name: 'Crash Painter', source: 'wikidata' } } },
  });
  artistId = artist.id;
  ids = [];
  for (let i = 0; i < 10; i++) {
    const work = await db.artwork.create({
      data: {
        slug: `crash-work-${i}`,
        artistId,
        popularity: 100 - i,
        wikidataId: `Q9900010${i}`,
        texts: {
          create: catalogLocales.map((locale) => ({
            locale,
            title: locale === 'en' ? `Crash work ${i}` : null,
            titleSource: locale === 'en' ? ('wikidata' as const) : ('translation' as const),
            story: 'A story.',
            storySource: 'template' as const,
          })),
        },
      },
    });
    ids.push(work.id);
  }
});
afterAll(async () => {
  await indexnow.close();
  await own.drop();
});

function publishCli() {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: own.url,
    PUBLIC_BASE_URL: 'https://shop.example',
    INDEXNOW_KEY: 'crash-test-indexnow-key',
    INDEXNOW_ENDPOINTS: indexnow.url,
    LOG_LEVEL: 'warn',
  };
  for (const name of ['LLM_BASE_URL', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', 'scripts/catalog.ts', 'publish', '--count', '10'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function state() {
  return {
    published: await db.artwork.count({ where: { id: { in: ids }, status: 'published' } }),
    artist: (await db.artist.findUniqueOrThrow({ where: { id: artistId } })).status,
    logs: await db.publishLog.count(),
    notify: await db.outboxEvent.count({ where: { name: NOTIFY_EVENT } }),
  };
}

describe('a publish run killed in the middle', () => {
  test('leaves nothing half-published, and the next run publishes everything and notifies IndexNow', async () => {
    const before = await state();
    expect(before).toMatchObject({ published: 0, artist: 'queued', logs: 0, notify: 0 });

    // Hold the publish log so the run stops at its last writes, works and artist already updated inside its transaction.
    const holder = new pg.Client({ connectionString: own.url });
    holder.on('error', () => undefined); // the database is dropped under it if the test fails
    await holder.connect();
    const run = publishCli();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE publish_log IN EXCLUSIVE MODE');
      let blocked: number | undefined;
      for (let i = 0; i < 600 && blocked === undefined; i++) {
        // pg_stat_activity is a snapshot per transaction: clear it, or the holder sees its first one forever.
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query ILIKE '%publish_log%'`,
        );
        blocked = rows[0]?.pid;
        if (blocked === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (blocked === undefined) {
        const { rows } = await holder.query(`SELECT pid, state, wait_event_type, left(query, 120) AS query FROM pg_stat_activity WHERE datname = current_database()`);
        expect.fail(`the run never reached the publish log:\n${run.output()}\n${JSON.stringify(rows, null, 1)}`);
      }
      // Inside the run's transaction the works are public already: prove the run got that far.
      const { rows: locks } = await holder.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = $1 AND c.relname = 'artworks' AND l.mode = 'RowExclusiveLock'`,
        [blocked],
      );
      expect(locks[0]!.n).toBe(1);

      // The crash: the process dies, and its connection with it.
      run.child.kill('SIGKILL');
      await run.exited;
      // PostgreSQL notices a vanished client only when it next talks to it; a backend waiting on a
      // lock does not, so end it as the server would (its idle connections ended with the process).
      await holder.query('SELECT pg_terminate_backend($1)', [blocked]);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }

    const after = await state();
    expect(after).toEqual(before);
    expect(indexnow.submissions).toHaveLength(0);

    const next = publishCli();
    expect(await next.exited, next.output()).toBe(0);
    const done = await state();
    expect(done).toMatchObject({ published: 10, artist: 'published', logs: 1, notify: 1 });
    expect(await db.outboxEvent.count({ where: { name: NOTIFY_EVENT, sentAt: null } })).toBe(0);
    const submitted = indexnow.submissions.flatMap((s) => s.urlList);
    for (const locale of catalogLocales) expect(submitted).toContain(`https://shop.example/${locale}/artists/crash-painter`);
  }, 180_000);
});
