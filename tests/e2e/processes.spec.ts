import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { E2E_PAYING_SHOP_PORT, E2E_PAYING_SHOP_URL } from '../support/e2e-stripe';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * SERVER_PROCESSES: the paying shop of the run (tests/e2e/support/shops.ts) serves from two
 * processes on one port. A process that ends is replaced while the other keeps answering.
 */

/** The shop's serving processes: the one that started them (the parent of the others) and those serving. */
function servingProcesses(): { supervisor: number; serving: number[] } {
  // Every shop of the run serves server.mjs; this one's processes have its PORT.
  const servers = execFileSync('pgrep', ['-f', 'server\\.mjs'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map(Number)
    .filter((pid) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`PORT=${E2E_PAYING_SHOP_PORT}`));
  const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  // The launcher (scripts/start.ts) starts them and replaces one that ends.
  const supervisor = parentOf(servers[0]!);
  return { supervisor, serving: servers.filter((pid) => parentOf(pid) === supervisor) };
}

test('two processes serve the port, and one that ends is replaced while the other answers', async ({ request }) => {
  const before = servingProcesses();
  expect(before.serving).toHaveLength(2);

  // Both answer: pages, /v1 and the health check go through whichever process takes the connection.
  for (let i = 0; i < 6; i++) {
    expect((await request.get(`${E2E_PAYING_SHOP_URL}/v1/health`)).status()).toBe(200);
    expect((await request.get(`${E2E_PAYING_SHOP_URL}/en/artworks/the-starry-night`)).status()).toBe(200);
  }

  const [ended] = before.serving;
  process.kill(ended!, 'SIGKILL');
  // The other process answers at once, while the replacement starts. A kept-alive connection the
  // ended process held is reset (ECONNRESET), as any client of a process that dies sees it: asked
  // again, on a new connection, the other process answers.
  const health = () =>
    request.get(`${E2E_PAYING_SHOP_URL}/v1/health`).then(
      (response) => response.status(),
      (error: Error) => error.message,
    );
  await expect.poll(health, { timeout: 5_000 }).toBe(200);
  await expect.poll(() => servingProcesses().serving.filter((pid) => pid !== ended).length, { timeout: 60_000, message: 'a replacement process is serving' }).toBe(2);
  expect(servingProcesses().supervisor).toBe(before.supervisor);
  // The replacement has started Next and answers pages too.
  for (let i = 0; i < 6; i++) expect((await request.get(`${E2E_PAYING_SHOP_URL}/de/artworks`)).status()).toBe(200);
});
