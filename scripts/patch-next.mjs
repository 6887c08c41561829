/**
 * One expression of Next's own code, mended after every install (package.json's postinstall).
 *
 * Why: Next's IncrementalCache.set measures every entry it stores with `JSON.stringify(data).length`
 * and uses the size only for its fetch cache's 2 MB limit. For a rendered page, `data` holds the
 * page's RSC payload as a Buffer, which JSON writes as an array of numbers: about 3 ms of the
 * server's one thread per never-rendered catalog page, 10 % of the pages served at 8 connections
 * (docs/benchmarks/catalog-2026-11-24.md, "Pages nobody asked for yet"). Measured only when it is
 * used, the size costs pages nothing and the fetch cache keeps its limit.
 *
 * Not patch-package: the code lives in minified bundles of 57–163 KB per line, so a diff would be
 * megabytes nobody can review. This replaces one exact expression and says what it did; a Next whose
 * code no longer has it (an upgrade) is left alone with a warning, to be looked at again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/** The expression as Next 16.4 writes it, and as it is meant (size only for the fetch cache). */
export const MENDS = [
  // the compiled runtimes the production server loads (minified)
  { from: 'let i=JSON.stringify(t).length;if(r.fetchCache', to: 'let i=r.fetchCache?JSON.stringify(t).length:0;if(r.fetchCache' },
  // the same class, unminified (next dev and build-time rendering)
  { from: 'const itemSize = JSON.stringify(data).length;', to: 'const itemSize = ctx.fetchCache ? JSON.stringify(data).length : 0;' },
];

const RUNTIMES = [
  'app-page',
  'app-page-turbo',
  'app-page-experimental',
  'app-page-turbo-experimental',
  'app-route',
  'app-route-turbo',
  'app-route-experimental',
  'app-route-turbo-experimental',
];

/** The files of the installed Next that carry IncrementalCache.set. */
export function nextFiles() {
  const dist = path.join(path.dirname(require.resolve('next/package.json')), 'dist');
  return [path.join(dist, 'server/lib/incremental-cache/index.js'), ...RUNTIMES.map((name) => path.join(dist, 'compiled/next-server', `${name}.runtime.prod.js`))];
}

/** Mends one file's text: 'mended', 'already' (mended before), or 'missing' (this Next has neither form). */
export function mend(text) {
  for (const { from, to } of MENDS) {
    if (text.includes(to)) return { state: 'already', text };
    if (text.includes(from)) return { state: 'mended', text: text.replace(from, to) };
  }
  return { state: 'missing', text };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const missing = [];
  let mended = 0;
  for (const file of nextFiles()) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // a Next without this runtime
    }
    const result = mend(text);
    if (result.state === 'mended') {
      writeFileSync(file, result.text);
      mended++;
    } else if (result.state === 'missing') missing.push(path.relative(process.cwd(), file));
  }
  if (mended) console.log(`patch-next: Next's page cache no longer measures pages it does not limit (${mended} files).`);
  if (missing.length) console.warn(`patch-next: this Next no longer has the expression in ${missing.join(', ')}; see scripts/patch-next.mjs.`);
}
