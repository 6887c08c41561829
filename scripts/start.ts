/**
 * `npm start`: from a fresh clone to a served shop in one command. Validates the configuration,
 * starts the embedded PostgreSQL when no DATABASE_URL is given, migrates and seeds, builds the site
 * when its sources changed, then serves it (dist/front/serve.mjs, built JavaScript: Next as a
 * custom server behind the shop's front, src/front) and stops the database cleanly when the server
 * stops.
 *
 *   --dev       Next's development server behind the same front, from source (src/front/serve.ts)
 *   --prebuilt  serve the build in .next and dist as it is, without checking or rebuilding it (the
 *               Docker image builds once, when the image is built)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { sessionSecret } from '@/server/db/local-secrets';
import { ConfigError, parseEnv, publicBaseUrl, serviceModes, startWarnings } from '@/server/env';
import { logger } from '@/server/logger';
import { buildFront, buildIsCurrent, buildSite, FRONT_DIR } from './lib/site-build';

const dev = process.argv.includes('--dev');
const prebuilt = process.argv.includes('--prebuilt');
// Run from the checkout (npm start, the Docker image's WORKDIR), as source or built (dist/start.mjs).
const root = process.cwd();

async function main() {
  // Without --dev the server runs with NODE_ENV=production (below): check the settings as it will,
  // so a short ADMIN_TOKEN, INNGEST_DEV or a test hook stops the start here, before the database is touched.
  const config = parseEnv(dev ? process.env : { ...process.env, NODE_ENV: 'production' });
  if (prebuilt && !dev && !(existsSync(path.join(root, '.next', 'BUILD_ID')) && existsSync(path.join(root, FRONT_DIR, 'serve.mjs')))) {
    throw new ConfigError('--prebuilt, but there is no build (no .next/BUILD_ID or dist/front/serve.mjs): run `npm run build` first.');
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
    // Next's development server loads the page cache named in next.config.mjs: built JavaScript.
    if (dev) await buildFront();
  } catch (error) {
    await stopDatabase();
    throw error;
  }

  // From source, the front loads the HTTP helpers it shares with the app (src/server/http), which
  // are server modules: their `server-only` marker needs the loader every script on them runs with.
  const command = dev
    ? ['--import', 'tsx', '--import', path.join(root, 'scripts', 'server-process.mjs'), path.join(root, 'src', 'front', 'serve.ts'), '--dev', '--port', String(config.PORT)]
    : [path.join(root, FRONT_DIR, 'serve.mjs'), '--port', String(config.PORT)];
  const server = spawn(process.execPath, command, {
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(dev ? {} : { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' }),
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: sessionSecret(config),
      NEXTAUTH_URL: process.env.NEXTAUTH_URL ?? publicBaseUrl(config),
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => {
    void stopDatabase().finally(() => process.exit(code ?? (signal ? 0 : 1)));
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
