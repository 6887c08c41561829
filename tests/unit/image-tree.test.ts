import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { buildImageTree } from '../../scripts/lib/image-tree';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a Dockerfile instruction the image tree does not follow is refused before anything runs', async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'image-tree-'));
  const ran = path.join(dir, 'ran');
  writeFileSync(path.join(dir, 'Dockerfile'), `FROM node AS runtime\nWORKDIR /app\nRUN touch ${ran}\nVOLUME /app/.data\nCMD ["node", "x.js"]\n`);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  await expect(buildImageTree(dir, path.join(dir, 'out'))).rejects.toThrow(/VOLUME is not followed/);
  expect(existsSync(ran)).toBe(false);
});
