import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressStatic } from '@/front/static-assets';

/** Next's command-line entry, run with this Node. */
export const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

/** Everything a production build is made from; a change to any of it calls for a new build. */
const SOURCES = ['src', 'messages', 'public', 'prisma/schema.prisma', 'next.config.mjs', 'package-lock.json', 'tsconfig.json'];
const STAMP = path.join('.next', 'source-fingerprint');

function sourceFingerprint(): string {
  const hash = createHash('sha256');
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const info = statSync(entry);
    if (info.isDirectory()) {
      for (const child of readdirSync(entry).sort()) if (child !== 'generated') visit(path.join(entry, child));
    } else {
      hash.update(`${entry}\0${info.size}\0${info.mtimeMs}\n`);
    }
  };
  SOURCES.forEach(visit);
  return hash.digest('hex');
}

/** Whether `.next` holds a build made from exactly the current sources. */
export function buildIsCurrent(): boolean {
  return (
    existsSync(path.join('.next', 'BUILD_ID')) && existsSync(path.join(FRONT_DIR, 'serve.mjs')) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourceFingerprint()
  );
}

/**
 * What runs outside Next's bundle, as built JavaScript:
 * - the front (src/front): the server process (dist/front/serve.mjs) and Next's page cache
 *   (dist/front/page-cache.mjs, named in next.config.mjs, so it must exist before `next build` and
 *   `next dev` start). The front bundles only its own few modules and the HTTP helpers it shares
 *   with the app (src/server/http: answers, identity, compress), nothing else of src/server;
 * - the launcher (dist/start.mjs: scripts/start.ts, which migrates and seeds, then starts the
 *   server process) and the database commands (dist/db.mjs: scripts/db.ts), so the Docker image
 *   runs no TypeScript at all.
 * Packages stay imports of node_modules.
 */
export async function buildFront(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { 'front/serve': 'src/front/serve.ts', 'front/page-cache': 'src/front/page-cache.ts', start: 'scripts/start.ts', db: 'scripts/db.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The launcher bundles server modules (migrate, seed); their `server-only` marker is for Next's
    // client bundles and resolves to the empty module here, as it does on Next's server.
    // (A path, so esbuild bundles the empty module: the package exports no `empty.js` subpath.)
    alias: { 'server-only': path.join(path.dirname(createRequire(import.meta.url).resolve('server-only')), 'empty.js') },
    sourcemap: true,
    logLevel: 'warning',
  });
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Where buildFront writes. */
export const FRONT_DIR = path.join('dist', 'front');

/**
 * Builds the front, then runs `next build`, compresses the build's client files once
 * (src/front/static-assets.ts), and stamps the result with the sources it was made from.
 */
export async function buildSite(): Promise<void> {
  const fingerprint = sourceFingerprint();
  await buildFront();
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' } });
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`))));
  });
  const compressed = await precompressStatic(path.join('.next', 'static'));
  console.log(`compressed ${compressed.files} client files once: ${kb(compressed.bytes)} → brotli ${kb(compressed.br)}, gzip ${kb(compressed.gzip)}`);
  writeFileSync(STAMP, fingerprint);
}
