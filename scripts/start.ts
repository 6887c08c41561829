/**
 * `npm start`: from a fresh clone to a served shop in one command. Validates the configuration,
 * starts the embedded PostgreSQL when no DATABASE_URL is given, migrates and seeds, builds the site
 * when its sources changed, then serves it (server.mjs: Next's custom server, in SERVER_PROCESSES
 * processes) and stops the database cleanly when the server stops.
 *
 *   --dev       Next's development server (`next dev`'s, from source) in the same server.mjs
 *   --prebuilt  serve the build in .next as it is, without checking or rebuilding it (the Docker
 *               image builds once, when the image is built)
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { sessionSecret } from '@/server/db/local-secrets';
import { ConfigError, parseEnv, publicBaseUrl, serviceModes, startWarnings } from '@/server/env';
import { logger } from '@/server/logger';
import { buildIsCurrent, buildSite } from './lib/site-build';
import { serveInProcesses } from './lib/serving-processes';

const dev = process.argv.includes('--dev');
const prebuilt = process.argv.includes('--prebuilt');
// Run from the checkout (npm start, the Docker image's WORKDIR), as source or built (dist/start.mjs).
const root = process.cwd();

async function main() {
  // Without --dev the server runs with NODE_ENV=production (below): check the settings as it will,
  // so a short ADMIN_TOKEN, INNGEST_DEV or a test hook stops the start here, before the database is touched.
  const config = parseEnv(dev ? process.env : { ...process.env, NODE_ENV: 'production' });
  if (prebuilt && !dev && !existsSync(path.join(root, '.next', 'BUILD_ID'))) {
    throw new ConfigError('--prebuilt, but there is no build (no .next/BUILD_ID): run `npm run build` first.');
  }
  for (const line of serviceModes(config)) logger.info(line);
  for (const line of startWarnings(config)) logger.warn(line);
  const database = await openDatabase(config);
  let stopping = false;
  const stopDatabase = async () => {
    if (stopping) return;
    stopping = true;
    await database.stop();
  };
  try {
    await prepareDatabase(database.url);
    if (!dev && !prebuilt) await buildIfChanged();
  } catch (error) {
    await stopDatabase();
    throw error;
  }

  const server = serveInProcesses({
    file: path.join(root, 'server.mjs'),
    args: dev ? ['--dev'] : [],
    count: dev ? 1 : config.SERVER_PROCESSES,
    env: {
      ...(dev ? {} : { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' }),
      PORT: String(config.PORT),
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: sessionSecret(config),
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? publicBaseUrl(config),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.stop(signal));
  const code = await server.ended;
  await stopDatabase();
  process.exit(code);
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
