import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from './support/database';
import { E2E_ADMIN_TOKEN, E2E_LOG_FILE } from './support/env';

// The shops (npm start) run only where Chromium exists; see playwright.config.ts.
test.skip(!existsSync('/usr/bin/chromium'), 'no Chromium: the shop server was not started');

/**
 * The last spec (Playwright runs the files in name order, one worker): everything the shop logged
 * while the other specs ordered, looked up, uploaded, signed in and ran the dashboard must hold no
 * staff token, no session or database secret, nothing shaped like a Stripe secret and no e-mail
 * address. A failure lists the offending lines, with what was found masked.
 */
const emailish = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const stripeSecretish = /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]+|\bwhsec_[A-Za-z0-9_]+/g;

/** Every e-mail address written in the specs (some are made per run; the generic pattern finds those). */
function specEmails(): string[] {
  const folder = path.dirname(new URL(import.meta.url).pathname);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.ts'))
    .map((name) => path.join(folder, name));
  files.push(path.join(folder, '..', 'support', 'e2e-oidc.ts'));
  const found = files.flatMap((file) => readFileSync(file, 'utf8').match(emailish) ?? []);
  return [...new Set(found.flatMap((email) => [email, email.toLowerCase()]))];
}

function mask(line: string, values: string[]): string {
  let out = line.replace(emailish, '<E-MAIL>').replace(stripeSecretish, '<STRIPE SECRET>');
  for (const value of values) out = out.split(value).join('<SECRET>');
  return out.length > 400 ? `${out.slice(0, 400)}…` : out;
}

test('the run logged no secret and no personal data', () => {
  expect(existsSync(E2E_LOG_FILE), `the server wrote no log file at ${E2E_LOG_FILE} (LOG_FILE in playwright.config.ts)`).toBe(true);
  const lines = readFileSync(E2E_LOG_FILE, 'utf8').split('\n').filter(Boolean);
  // The file holds the run: the server's start and the requests of the specs before this one.
  expect(lines.length).toBeGreaterThan(5);
  expect(lines.some((line) => line.includes('"requestId"'))).toBe(true);

  const { sessionSecret, postgresPassword } = JSON.parse(readFileSync(path.join(E2E_DATA_DIR, 'secrets.json'), 'utf8')) as Record<string, string>;
  const secrets = [E2E_ADMIN_TOKEN, sessionSecret!, postgresPassword!].filter(Boolean);
  const emails = specEmails();
  expect(emails).toContain('ada@example.com');

  const offending = lines
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(
      ({ line }) =>
        secrets.some((s) => line.includes(s)) ||
        emails.some((e) => line.includes(e)) ||
        new RegExp(emailish.source).test(line) ||
        new RegExp(stripeSecretish.source).test(line),
    );
  expect(
    offending.map(({ line, number }) => `${E2E_LOG_FILE}:${number}: ${mask(line, secrets)}`),
    'log lines holding a secret or an e-mail address',
  ).toEqual([]);
});
