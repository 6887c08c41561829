import { z } from 'zod';

/**
 * Zod for code that also runs in the browser: every schema the pages build comes through here, so
 * the setting below is made before the first schema exists (Zod decides at construction).
 *
 * Pages run under a Content-Security-Policy without 'unsafe-eval' (src/page-cache/page-policy.mjs). Zod 4
 * probes `new Function` once to decide whether to compile fast object parsers; the browser blocks
 * the probe and, although Zod catches it, reports a CSP violation. In the browser, where forms check
 * a handful of fields, Zod parses without compiling. The server keeps the compiled parsers.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };
