/**
 * The two outside validators tests/e2e/validators.spec.ts runs ship no types: what it uses of them.
 */
declare module 'vnu-jar' {
  /** The path of the Nu HTML Checker's jar (a String object: `String(jar)` is the path). */
  const jar: { toString(): string };
  export default jar;
}

declare module 'pa11y' {
  import type { Browser } from 'puppeteer';

  interface Issue {
    code: string;
    type: 'error' | 'warning' | 'notice';
    message: string;
    selector: string;
    context: string;
  }
  interface Results {
    documentTitle: string;
    pageUrl: string;
    issues: Issue[];
  }
  interface Options {
    browser?: Browser;
    standard?: 'WCAG2A' | 'WCAG2AA' | 'WCAG2AAA';
    runners?: ('htmlcs' | 'axe')[];
    timeout?: number;
  }
  export default function pa11y(url: string, options?: Options): Promise<Results>;
}
