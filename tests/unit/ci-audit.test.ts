import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';

/**
 * `.ci/audit`, which .ci/run calls after `npm install`: the audit of the production dependencies
 * fails the run on a high or critical finding and is skipped, with a line saying so, when the
 * registry's audit service does not answer. Run against an `npm` stand-in first on PATH that prints
 * what npm prints in each case (the 405 is what this project's registry answers) and exits as npm does.
 */
const folder = mkdtempSync(path.join(tmpdir(), 'ci-audit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
writeFileSync(path.join(folder, 'npm'), '#!/bin/sh\necho "$@" > "$NPM_ARGS"\ncat "$NPM_PRINTS"\nexit "$NPM_EXIT"\n');
chmodSync(path.join(folder, 'npm'), 0o755);

const report = (vulnerabilities: Record<string, { severity: string; range: string }>) =>
  JSON.stringify({ auditReportVersion: 2, vulnerabilities, metadata: { vulnerabilities: { total: Object.keys(vulnerabilities).length } } });

function audit(prints: string, exit: number) {
  writeFileSync(path.join(folder, 'prints.json'), prints);
  const run = spawnSync('.ci/audit', {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${folder}:${process.env.PATH}`, NPM_PRINTS: path.join(folder, 'prints.json'), NPM_ARGS: path.join(folder, 'args'), NPM_EXIT: String(exit) },
  });
  return { status: run.status, out: run.stdout, args: readFileSync(path.join(folder, 'args'), 'utf8').trim() };
}

describe('.ci/audit', () => {
  test('a high or critical vulnerability in a production dependency fails the run and is named', () => {
    const run = audit(report({ 'some-lib': { severity: 'high', range: '<2.0.1' }, other: { severity: 'critical', range: '*' } }), 1);
    expect(run.args).toBe('audit --omit=dev --audit-level=high --json');
    expect(run.status).toBe(1);
    expect(run.out).toMatch(/high or critical vulnerabilities/);
    expect(run.out).toContain('some-lib (high) <2.0.1');
    expect(run.out).toContain('other (critical)');
  });

  test('a clean report, or findings below high, pass', () => {
    expect(audit(report({}), 0)).toMatchObject({ status: 0, out: expect.stringMatching(/no high or critical vulnerabilities/) });
    expect(audit(report({ 'dev-ish': { severity: 'moderate', range: '<1' } }), 0).status).toBe(0);
  });

  test('an audit service that does not answer skips the audit with a line saying why', () => {
    const refused = JSON.stringify({
      message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
      statusCode: 405,
      error: { summary: '', detail: '' },
    });
    const run = audit(refused, 1);
    expect(run.status).toBe(0);
    expect(run.out.trim()).toBe(
      "ci: npm audit skipped: the registry's audit service did not answer (405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk)",
    );
    // No network at all: npm prints no report either.
    expect(audit('', 1)).toMatchObject({ status: 0, out: expect.stringMatching(/^ci: npm audit skipped: .*\(no answer\)$/m) });
  });

  test('.ci/run audits right after npm install, before the checks and the tests', () => {
    const ci = readFileSync('.ci/run', 'utf8');
    expect(ci.indexOf('.ci/audit')).toBeGreaterThan(ci.indexOf('npm install --no-audit'));
    expect(ci.indexOf('.ci/audit')).toBeLessThan(ci.indexOf('npm run typecheck'));
  });
});
