import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

/**
 * Which Node the shop runs on (issues #19, #20): production on a supported LTS line (Node 20
 * reached its end of life in April 2026), and the suite, `npm start` and the benchmark on the same
 * line as the production image, through the `node` package among the devDependencies (npm puts its
 * binary first on every script's PATH, whatever Node installed npm).
 */
const root = new URL('../../', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
const imageLine = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1];

/** A minimal reading of the engines range this project writes: `^a.b || ^c.d || >=e.f` alternatives. */
function satisfies(version: string, range: string): boolean {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number) as [number, number];
  return range.split('||').some((part) => {
    const match = /^\s*(\^|>=)(\d+)(?:\.(\d+))?\s*$/.exec(part);
    if (!match) throw new Error(`unexpected engines part ${part}`);
    const [wantMajor, wantMinor] = [Number(match[2]), Number(match[3] ?? 0)];
    if (match[1] === '^') return major === wantMajor && minor >= wantMinor;
    return major > wantMajor || (major === wantMajor && minor >= wantMinor);
  });
}

describe('the Node versions', () => {
  test('the production image runs Node 24 LTS', () => {
    expect(imageLine).toBe('24');
    expect(satisfies(`${imageLine}.0.0`, pkg.engines.node)).toBe(true);
  });

  test('the suite runs on the production image’s Node line, pinned by the `node` devDependency', () => {
    const pinned = pkg.devDependencies.node;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinned!.split('.')[0]).toBe(imageLine);
    expect(process.version).toBe(`v${pinned}`);
  });

  test('engines names the lines that run the shop', () => {
    for (const version of ['24.0.0', '22.12.0', '20.19.0']) expect(satisfies(version, pkg.engines.node), version).toBe(true);
    for (const version of ['18.20.0', '20.18.0', '21.7.0', '23.1.0']) expect(satisfies(version, pkg.engines.node), version).toBe(false);
  });
});
