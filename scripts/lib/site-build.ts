import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { precompressStatic } from './precompress';

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
  return existsSync(path.join('.next', 'BUILD_ID')) && existsSync(LAUNCHER) && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === sourceFingerprint();
}

/**
 * The launcher (dist/start.mjs: scripts/start.ts, which migrates and seeds, then starts the
 * server) and the database commands (dist/db.mjs: scripts/db.ts), as built JavaScript, so the
 * Docker image runs no TypeScript at all. Packages stay imports of node_modules.
 */
export async function buildLauncher(): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { start: 'scripts/start.ts', db: 'scripts/db.ts' },
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

/** What buildLauncher writes: the Docker image's command. */
const LAUNCHER = path.join('dist', 'start.mjs');

/**
 * Builds the launcher, then runs `next build`, compresses the build's client files once for the
 * reverse proxy (precompress.ts), and stamps the result with the sources it was made from.
 */
export async function buildSite(): Promise<void> {
  const fingerprint = sourceFingerprint();
  await buildLauncher();
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' } });
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`))));
  });
  const compressed = await precompressStatic(path.join('.next', 'static'));
  console.log(`compressed ${compressed.files} client files once: ${kb(compressed.bytes)} → brotli ${kb(compressed.br)}, gzip ${kb(compressed.gzip)}`);
  writeFileSync(STAMP, fingerprint);
}
