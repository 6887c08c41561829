/**
 * `npm start`: from a fresh clone to a served shop in one command. Validates the configuration,
 * starts the embedded PostgreSQL when no DATABASE_URL is given, migrates and seeds, builds the site
 * when its sources changed, then serves it with `next start` (`--dev`: `next dev`) and stops the
 * database cleanly when the server stops.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { localSecrets } from '@/server/db/local-secrets';
import { ConfigError, parseEnv, serviceModes } from '@/server/env';
import { logger } from '@/server/logger';

const dev = process.argv.includes('--dev');
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

async function main() {
  const config = parseEnv(process.env);
  for (const line of serviceModes(config)) logger.info(line);
  const database = await openDatabase(config);
  let stopping = false;
  const stopDatabase = async () => {
    if (stopping) return;
    stopping = true;
    await database.stop();
  };
  try {
    await prepareDatabase(database.url);
    if (!dev) await buildIfChanged();
  } catch (error) {
    await stopDatabase();
    throw error;
  }

  const server = spawn(process.execPath, [nextBin, dev ? 'dev' : 'start', '--port', String(config.PORT)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: config.NEXTAUTH_SECRET ?? localSecrets(path.resolve(config.DATA_DIR)).sessionSecret,
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`,
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', async (code, signal) => {
    await stopDatabase();
    process.exit(code ?? (signal ? 0 : 1));
  });
}

/** Builds the production site unless the last build was made from exactly these sources. */
async function buildIfChanged() {
  const stamp = path.join('.next', 'source-fingerprint');
  const fingerprint = sourceFingerprint(['src', 'messages', 'public', 'prisma/schema.prisma', 'next.config.mjs', 'package-lock.json', 'tsconfig.json']);
  if (existsSync(path.join('.next', 'BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) return;
  logger.info('building the site (next build); this happens again only when the sources change');
  await new Promise<void>((resolve, reject) => {
    const build = spawn(process.execPath, [nextBin, 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
    build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next build failed with exit code ${code}`))));
  });
  writeFileSync(stamp, fingerprint);
}

function sourceFingerprint(roots: string[]): string {
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
  roots.forEach(visit);
  return hash.digest('hex');
}

main().catch((error: unknown) => {
  // A configuration mistake is one readable line; anything else keeps its message, never a secret.
  logger.error(error instanceof ConfigError ? error.message : `could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
