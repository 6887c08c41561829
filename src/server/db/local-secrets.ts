import 'server-only';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets the shop needs even when nobody configured any (the embedded database's password, the
 * session secret): made once on first start and kept in the git-ignored data folder, so sessions
 * and the database survive restarts. A data folder is one instance's, so the generated session
 * secret serves one instance only: production refuses DATABASE_URL (the way to run several)
 * without NEXTAUTH_SECRET (src/server/env.ts), so instances never sign with secrets of their own.
 */
export interface LocalSecrets {
  postgresPassword: string;
  sessionSecret: string;
}

export function localSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<LocalSecrets> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
  } catch {
    // first start, or an unreadable file: make what is missing below
  }
  const secrets: LocalSecrets = {
    postgresPassword: stored.postgresPassword ?? randomBytes(18).toString('base64url'),
    sessionSecret: stored.sessionSecret ?? randomBytes(32).toString('base64url'),
  };
  if (secrets.postgresPassword !== stored.postgresPassword || secrets.sessionSecret !== stored.sessionSecret) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets;
}

/** The server's session secret: NEXTAUTH_SECRET, or the one generated into the data folder. */
export function sessionSecret(e: { NEXTAUTH_SECRET?: string; DATA_DIR: string }): string {
  return e.NEXTAUTH_SECRET ?? localSecrets(path.resolve(e.DATA_DIR)).sessionSecret;
}
