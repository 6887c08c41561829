import { chromium } from '@playwright/test';
const [, , url, out, width = '1440', setup] = process.argv;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const context = await browser.newContext({ viewport: { width: Number(width), height: 900 } });
if (setup) await context.addInitScript(setup);
const page = await context.newPage();
page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
console.log(await page.locator('img').evaluateAll((imgs) => imgs.map((i) => `${i.alt}:${i.complete}:${i.naturalWidth}`).join(' | ')));
await page.screenshot({ path: out, fullPage: true });
await browser.close();
