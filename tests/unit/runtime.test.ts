import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

/**
 * Which Node the shop runs on (issue #19): production on a supported LTS line (Node 20 reached its
 * end of life in April 2026), while this suite keeps passing on the Node 20 these machines have.
 */
const root = new URL('../../', import.meta.url);
const dockerfile = readFileSync(new URL('Dockerfile', root), 'utf8');
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };

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
  test('the production image runs a supported LTS line (22 or 24), not Node 20', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1];
    expect(['22', '24']).toContain(image);
    expect(satisfies(`${image}.12.0`, pkg.engines.node)).toBe(true);
  });

  test('engines names the supported lines, and the Node running this suite is among them', () => {
    for (const version of ['22.12.0', '24.0.0', '20.19.0']) expect(satisfies(version, pkg.engines.node), version).toBe(true);
    for (const version of ['18.20.0', '20.18.0', '21.7.0', '23.1.0']) expect(satisfies(version, pkg.engines.node), version).toBe(false);
    expect(satisfies(process.version, pkg.engines.node)).toBe(true);
  });
});
