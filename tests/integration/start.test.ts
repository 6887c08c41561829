import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { startEmbeddedPostgres } from '@/server/db/embedded';

/** The suite's own switch (tests/support/setup.ts), which a production start refuses: not for these starts. */
const suiteOnly = { STAFF_LOCKOUT_OFF: undefined };

/** `npm start`'s script with these settings (and no database): its exit code and the lines it printed on stderr. */
function startWith(env: Record<string, string | undefined>) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', 'scripts/start.ts'], {
    env: { ...process.env, ...suiteOnly, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    status: run.status,
    lines: run.stderr
      .trim()
      .split('\n')
      .filter((line) => line.trim()),
  };
}

describe('npm start', () => {
  test('a malformed setting stops it at once with one line naming the variable', () => {
    const { status, lines } = startWith({ PORT: 'eighty' });
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/PORT/);
    expect(lines[0]).toContain('eighty');
  });

  test('a production start with an ADMIN_TOKEN shorter than 32 characters stops at once with one line naming it', () => {
    const { status, lines } = startWith({ ADMIN_TOKEN: 'short-staff-token' });
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ADMIN_TOKEN must be at least 32 characters in production/);
    expect(lines[0]).not.toContain('short-staff-token');
  });

  test('a production start with a test identity provider and nothing allowing it stops at once with one line naming it', () => {
    const { status, lines } = startWith({ ADMIN_TOKEN: undefined, GOOGLE_ISSUER: 'http://127.0.0.1:3108', ALLOW_TEST_IDENTITY_PROVIDER: undefined });
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/GOOGLE_ISSUER must not be set in production.*ALLOW_TEST_IDENTITY_PROVIDER=1/);
  });

  test('--prebuilt with no build in .next stops at once with one line saying what to do', () => {
    // A checkout with everything but a build: the same sources, linked into a fresh folder.
    const checkout = mkdtempSync(path.join(tmpdir(), 'prebuilt-'));
    try {
      for (const entry of ['scripts', 'src', 'node_modules', 'package.json', 'tsconfig.json']) symlinkSync(path.resolve(entry), path.join(checkout, entry));
      mkdirSync(path.join(checkout, '.next'));
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--import', './scripts/server-process.mjs', 'scripts/start.ts', '--prebuilt'], {
        cwd: checkout,
        env: { ...process.env, ...suiteOnly, DATABASE_URL: '', ADMIN_TOKEN: 'a-production-length-staff-token-0123456789' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      const lines = run.stderr
        .trim()
        .split('\n')
        .filter((line) => line.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/--prebuilt.*\.next\/BUILD_ID.*npm run build/);
    } finally {
      rmSync(checkout, { recursive: true, force: true });
    }
  });
});

describe('the embedded PostgreSQL as root', () => {
  test.runIf(process.getuid?.() === 0)('inside a folder user postgres cannot enter, it refuses with a message saying what to do', async () => {
    const privateHome = mkdtempSync(path.join(tmpdir(), 'private-home-'));
    chmodSync(privateHome, 0o700);
    try {
      await expect(startEmbeddedPostgres({ dir: path.join(privateHome, 'shop', '.data', 'postgres'), password: 'x' })).rejects.toThrow(
        /user "postgres", which cannot enter .*private-home-.*mode 700.*DATABASE_URL/,
      );
    } finally {
      rmSync(privateHome, { recursive: true, force: true });
    }
  });
});
