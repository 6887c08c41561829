import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * What the Docker build context leaves out (.dockerignore), read with Docker's rules: patterns
 * relative to the context's root, `**` for any number of folders, `!` for an exception, the last
 * matching line wins, and a pattern that matches a folder leaves out everything in it.
 */
const lines = readFileSync(new URL('../../.dockerignore', import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'));

function leftOut(file: string): boolean {
  const folders = file.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  let out = false;
  for (const line of lines) {
    const exception = line.startsWith('!');
    const pattern = exception ? line.slice(1) : line;
    if (folders.some((prefix) => path.matchesGlob(prefix, pattern))) out = !exception;
  }
  return out;
}

test('no environment file reaches the image, at any depth: Next would build a developer’s secrets in', () => {
  for (const file of ['.env', '.env.local', '.env.production', '.env.production.local', '.env.example', 'src/.env', 'scripts/.env.local', 'tests/e2e/.env.test']) {
    expect(leftOut(file), file).toBe(true);
  }
});

test('what the build needs stays in the context', () => {
  for (const file of ['package.json', 'package-lock.json', 'src/server/env.ts', 'prisma/schema.prisma', 'scripts/start.ts', 'tests/support/setup.ts', 'next.config.mjs']) {
    expect(leftOut(file), file).toBe(false);
  }
  // The folders the image never needs, as before.
  for (const file of ['node_modules/next/package.json', '.data/secrets.json', '.git/HEAD', 'docs/deploy.md']) expect(leftOut(file), file).toBe(true);
});
