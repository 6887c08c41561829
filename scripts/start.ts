/**
 * `npm start`: from a fresh clone to a served shop in one command. Validates the configuration,
 * starts the embedded PostgreSQL when no DATABASE_URL is given, migrates and seeds, builds the site
 * when its sources changed, then serves it with `next start` (`--dev`: `next dev`) and stops the
 * database cleanly when the server stops.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { localSecrets } from '@/server/db/local-secrets';
import { ConfigError, parseEnv, publicBaseUrl, serviceModes } from '@/server/env';
import { logger } from '@/server/logger';
import { buildIsCurrent, buildSite, nextBin } from './lib/site-build';

const dev = process.argv.includes('--dev');

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
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? publicBaseUrl(config),
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
  if (buildIsCurrent()) return;
  logger.info('building the site (next build); this happens again only when the sources change');
  await buildSite();
}

main().catch((error: unknown) => {
  // A configuration mistake is one readable line; anything else keeps its message, never a secret.
  logger.error(error instanceof ConfigError ? error.message : `could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
