/**
 * `npm run db:diff -- FROM|empty [TO]`: the SQL that turns the Prisma schema FROM into TO (default
 * prisma/schema.prisma), written by Prisma's own schema engine offline (scripts/lib/schema-diff.ts)
 * against a throwaway embedded PostgreSQL.
 *   npm run db:diff -- empty prisma/schema.prisma          the whole schema, from an empty database
 *   npm run db:diff -- --from-git HEAD                     what changed since the last commit
 *   npm run db:diff -- --from-git HEAD --name add_frames   … written to prisma/migrations/<UTC time>_add_frames/migration.sql
 * docs/database.md "Writing a migration".
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { diffSchemas } from './lib/schema-diff';

const USAGE = 'usage: npm run db:diff -- (FROM_SCHEMA | empty | --from-git REV) [TO_SCHEMA] [--name NAME]';
const SCHEMA = 'prisma/schema.prisma';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'from-git': { type: 'string' }, name: { type: 'string' } } });
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
const rev = values['from-git'];
const [fromArg, toArg] = rev === undefined ? positionals : [undefined, positionals[0]];
if ((rev === undefined && !fromArg) || positionals.length > (rev === undefined ? 2 : 1)) fail(USAGE);
if (values.name !== undefined && !/^[a-z0-9_]+$/.test(values.name)) fail('--name: lower-case letters, digits and _ only');

const from = rev !== undefined ? execFileSync('git', ['show', `${rev}:${SCHEMA}`], { encoding: 'utf8' }) : fromArg === 'empty' ? null : readFileSync(fromArg!, 'utf8');
const to = readFileSync(toArg ?? SCHEMA, 'utf8');

// As root the server runs as user postgres, which must enter the folder.
const folder = mkdtempSync(path.join(tmpdir(), 'db-diff-'));
chmodSync(folder, 0o755);
let sql: string;
try {
  const server = await startEmbeddedPostgres({ dir: path.join(folder, 'pg'), password: 'db-diff' });
  try {
    sql = await diffSchemas(from, to, server.url);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

if (values.name === undefined) {
  process.stdout.write(sql && !sql.endsWith('\n') ? `${sql}\n` : sql);
} else if (!sql) {
  fail('The two schemas agree: no migration written.');
} else {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = path.join('prisma', 'migrations', `${stamp}_${values.name}`);
  if (existsSync(dir)) fail(`${dir} exists`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'migration.sql'), sql.endsWith('\n') ? sql : `${sql}\n`);
  console.error(`Wrote ${path.join(dir, 'migration.sql')}`);
}
process.exit(0);
