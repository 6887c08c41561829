/**
 * Debian's Chromium as the end-to-end run (playwright.config.ts) and Lighthouse (scripts/lighthouse.ts)
 * start it: headless, no sandbox (root in a container), and none of its calls home, which cannot
 * reach anything here and only add noise to a measurement.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;
