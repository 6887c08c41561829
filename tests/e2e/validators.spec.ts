import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pa11y from 'pa11y';
import puppeteer from 'puppeteer';
import vnuJar from 'vnu-jar';
import { CHROMIUM_FLAGS } from '../../scripts/lib/chromium';
import { E2E_BASE_URL, E2E_CHROMIUM } from './support/env';

/**
 * Outside validators agree (issue 43, item 4): the Nu HTML Checker (vnu-jar, on the HTML the
 * server sends) and pa11y (HTML_CodeSniffer, WCAG 2 AA, on the page once its script has run) over
 * a sample of the shop's pages in English, German and Japanese. Zero errors allowed; the only
 * message set aside is named below with its reason.
 *
 * Not in the sample: a 404 page, which Next sends as an empty `<html id="__next_error__">` shell
 * without `lang` whatever the route renders (vercel/next.js#62228, docs/upstream.md).
 */
test.skip(!existsSync(E2E_CHROMIUM), `${E2E_CHROMIUM} not found: install it with apt-get install -y chromium`);
const java = spawnSync('java', ['-version']).status === 0;
test.describe.configure({ timeout: 300_000 });

const locales = ['en', 'de', 'ja'] as const;
const paths = [
  '',
  '/artworks',
  '/artworks/the-starry-night',
  '/artists/vincent-van-gogh',
  '/movements/post-impressionism',
  '/custom',
  '/basket',
  '/showcase',
  '/orders',
  '/returns',
];
const sample = locales.flatMap((locale) => paths.map((p) => `/${locale}${p}`));

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/**
 * The Nu HTML Checker's CSS parser predates container query units (`cqw`, CSS Containment Level 3,
 * in every browser since 2023): it calls a valid `--cm: 0.25cqw` (the wall preview's centimetre) an
 * "unknown dimension". Only that is set aside, and only where the value is in such a unit.
 */
const containerUnit = /\d(cqw|cqh|cqi|cqb|cqmin|cqmax)\b/;
const outdatedCss = (m: VnuMessage) =>
  m.message.startsWith('CSS: ') && (containerUnit.test(m.message) || (/Unknown dimension/.test(m.message) && containerUnit.test(m.extract ?? '')));

test('the Nu HTML Checker finds no error in the HTML the shop sends', async ({ request }) => {
  test.skip(!java, 'java not found: install it with apt-get install -y default-jre-headless (.ci/run does)');
  const folder = mkdtempSync(path.join(os.tmpdir(), 'vnu-'));
  try {
    const files: string[] = [];
    for (const page of sample) {
      const response = await request.get(page);
      expect(response.status(), page).toBe(200);
      const file = path.join(folder, `${page.slice(1).replaceAll('/', '_') || 'root'}.html`);
      writeFileSync(file, await response.text());
      files.push(file);
    }
    // A page with one known error, checked with the others: a checker that read nothing would report nothing.
    const canary = path.join(folder, 'canary.html');
    writeFileSync(canary, '<!doctype html><html lang="en"><title>Canary</title><p id="twice">One</p><p id="twice">Two</p></html>');
    files.push(canary);
    const run = spawnSync('java', ['-jar', String(vnuJar), '--format', 'json', '--stdout', '--exit-zero-always', ...files], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(run.status, run.stderr).toBe(0);
    const { messages } = JSON.parse(run.stdout) as { messages: VnuMessage[] };
    const fromCanary = messages.filter((m) => m.url.endsWith('/canary.html'));
    expect(fromCanary.map((m) => m.message)).toContain('Duplicate ID “twice”.');
    const errors = messages
      .filter((m) => m.type !== 'info' && !outdatedCss(m) && !fromCanary.includes(m))
      .map((m) => `${path.basename(m.url)}:${m.lastLine ?? '?'}: ${m.message}${m.extract ? ` [${m.extract.trim().slice(0, 120)}]` : ''}`);
    expect(errors).toEqual([]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('pa11y (HTML_CodeSniffer, WCAG 2 AA) finds no error once the pages have run their script', async () => {
  const browser = await puppeteer.launch({ executablePath: E2E_CHROMIUM, args: ['--headless', ...CHROMIUM_FLAGS] });
  try {
    const errors: string[] = [];
    for (const page of sample) {
      const result = await pa11y(`${E2E_BASE_URL}${page}`, { browser, standard: 'WCAG2AA', runners: ['htmlcs'], timeout: 60_000 });
      // The page was read: HTML_CodeSniffer names its document, so an empty result is a clean page, not an unread one.
      expect(result.documentTitle, page).toBeTruthy();
      for (const issue of result.issues) if (issue.type === 'error') errors.push(`${page}: ${issue.code}: ${issue.message} [${issue.selector}]`);
    }
    expect(errors).toEqual([]);
  } finally {
    await browser.close();
  }
});
