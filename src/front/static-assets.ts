import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { compressBuffer, type Encoding } from '@/server/http/compress';

/**
 * Next's built client files (`/_next/static/…`: scripts and styles, named by their content, so
 * never changed in place), compressed once when the site is built instead of on every request.
 *
 * Next gzips each of them per request at level 6, and only gzip. A first visit fetches about
 * twenty of them; compressed once at brotli's best quality they are 13 % smaller than Next's gzip
 * (1.4 MB of scripts and styles: 424 KB gzip, 365 KB brotli), which a phone on a slow network
 * feels, and the server does no compression work for them at all.
 */

/** The URL prefix Next serves the build's `static` folder under. */
export const STATIC_PREFIX = '/_next/static/';

/** The files worth compressing, by extension, with the type Next gives them. */
const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=UTF-8',
  '.css': 'text/css; charset=UTF-8',
  '.json': 'application/json; charset=UTF-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=UTF-8',
};

/** What Next answers for these files: a year, never revalidated (their names change with their content). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** The files under `dir` worth compressing (by extension), as paths relative to it; none when there is no such folder. */
function compressibleFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names.filter((name) => path.extname(name) in TYPES && statSync(path.join(dir, name)).isFile());
}

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside each script, style and text file
 * under `dir` (the build's `.next/static`). Run once per build (scripts/lib/site-build.ts): the
 * best qualities cost seconds a build, which no request could afford.
 */
export async function precompressStatic(dir: string): Promise<{ files: number; bytes: number; br: number; gzip: number }> {
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  for (const name of compressibleFiles(dir)) {
    const file = path.join(dir, name);
    const body = readFileSync(file);
    const [br, gz] = await Promise.all([compressBuffer(body, 'br', 'build'), compressBuffer(body, 'gzip', 'build')]);
    writeFileSync(file + SUFFIX.br, br);
    writeFileSync(file + SUFFIX.gzip, gz);
    totals.files++;
    totals.bytes += body.length;
    totals.br += br.length;
    totals.gzip += gz.length;
  }
  return totals;
}

interface Asset {
  type: string;
  bodies: Partial<Record<Encoding, Buffer>>;
}

/** The precompressed files of a build, by URL path. */
export type StaticAssets = Map<string, Asset>;

/**
 * The precompressed files under `dir`, held in memory (a few hundred KB) by their URL path. A build
 * without them (`npm run dev`, or Next's own build alone) gives an empty set: Next serves everything.
 */
export function loadStaticAssets(dir: string): StaticAssets {
  const assets: StaticAssets = new Map();
  for (const name of compressibleFiles(dir)) {
    const file = path.join(dir, name);
    const bodies: Asset['bodies'] = {};
    for (const encoding of Object.keys(SUFFIX) as Encoding[]) {
      try {
        bodies[encoding] = readFileSync(file + SUFFIX[encoding]);
      } catch {
        // not precompressed: Next serves it
      }
    }
    if (Object.keys(bodies).length) assets.set(STATIC_PREFIX + name.split(path.sep).join('/'), { type: TYPES[path.extname(name)]!, bodies });
  }
  return assets;
}

/**
 * Answers a GET or HEAD of a precompressed static file in the encoding the client accepts; false
 * (nothing written) when there is none, and Next answers as before (a client that takes no
 * compression, a file that was not precompressed, an address that is no file of the build).
 */
export function answerStatic(assets: StaticAssets, req: IncomingMessage, res: ServerResponse, pathname: string, encoding: Encoding | undefined): boolean {
  if (!encoding || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const asset = assets.get(pathname);
  const body = asset?.bodies[encoding];
  if (!asset || !body) return false;
  res.statusCode = 200;
  res.setHeader('Content-Type', asset.type);
  res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.setHeader('Cache-Control', IMMUTABLE);
  res.setHeader('Vary', 'Accept-Encoding');
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
