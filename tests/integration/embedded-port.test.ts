import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { embeddedPorts, startEmbeddedPostgres } from '@/server/db/embedded';

/**
 * The embedded PostgreSQL chooses its own port (no probe of a "free port" in production code): the
 * one its data folder names, the next when that one is taken.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'art-prints-port-'));
chmodSync(folder, 0o755); // as root, the server runs as user postgres and must enter it
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const portOf = (url: string) => Number(new URL(url).port);

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one === 1;
  } finally {
    await client.end();
  }
}

describe('the embedded PostgreSQL port', () => {
  test('is derived from the data folder: the same folder always, different folders apart, below the ephemeral range', () => {
    const a = embeddedPorts('/srv/shop/.data/postgres');
    expect(embeddedPorts('/srv/shop/.data/postgres')).toEqual(a);
    expect(embeddedPorts('/srv/other-shop/.data/postgres')[0]).not.toBe(a[0]);
    expect(a).toHaveLength(20);
    expect(new Set(a).size).toBe(20);
    for (const port of a) expect(port).toBeGreaterThanOrEqual(20_000);
    for (const port of a) expect(port).toBeLessThan(30_000);
  });

  test("starts on its folder's port, on that port again after a restart, and on the next one when another program holds it", async () => {
    const dir = path.join(folder, 'pg');
    const [first, second] = embeddedPorts(dir);
    const started = await startEmbeddedPostgres({ dir, password: 'port-test' });
    try {
      expect(portOf(started.url)).toBe(first);
      expect(await answers(started.url)).toBe(true);
    } finally {
      await started.stop();
    }

    const squatter: Server = createServer();
    await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(first, '127.0.0.1', resolve));
    const lines: string[] = [];
    try {
      const moved = await startEmbeddedPostgres({ dir, password: 'port-test', log: (line) => lines.push(line) });
      try {
        expect(portOf(moved.url)).toBe(second);
        expect(await answers(moved.url)).toBe(true);
        expect(lines).toContain(`Port ${first} is taken; the embedded PostgreSQL tries ${second}`);
      } finally {
        await moved.stop();
      }
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }

    const back = await startEmbeddedPostgres({ dir, password: 'port-test' });
    try {
      expect(portOf(back.url)).toBe(first);
    } finally {
      await back.stop();
    }
  }, 120_000);

  test('a port asked for is the only one tried: taken, the start fails saying so', async () => {
    const dir = path.join(folder, 'asked');
    const squatter: Server = createServer();
    await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    try {
      await expect(startEmbeddedPostgres({ dir, password: 'port-test', port })).rejects.toThrow(
        /could not start .*\n[\s\S]*(Address already in use|could not create any TCP\/IP sockets)/,
      );
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 120_000);
});
