import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Where the specs' screenshots go (looked at after a run; git-ignored). */
export const screenshots = path.join('tests', 'e2e', 'screenshots');

/** The whole page at 1440 and 390 px, fonts loaded: `<name>-1440.png`, `<name>-390.png`. */
export async function shoot(page: Page, name: string) {
  mkdirSync(screenshots, { recursive: true });
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  }
}
