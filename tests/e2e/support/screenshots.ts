import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

const screenshots = path.join('tests', 'e2e', 'screenshots');

/** Full-page screenshot at a width, once every image has settled. */
export async function screenshotAt(page: Page, name: string, width: number) {
  mkdirSync(screenshots, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => document.fonts.ready);
  // The whole page in the viewport, so lazy images load too, then back to a screen's height.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15_000 });
  await page.screenshot({ path: path.join(screenshots, `${name}-${width}.png`), fullPage: true });
  await page.setViewportSize({ width, height: 900 });
}
