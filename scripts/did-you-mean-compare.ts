/**
 * What a change to "did you mean" does to its answers: typos made from the catalog's own titles
 * and artist names (a letter dropped, doubled or swapped in the longest word; the first two words
 * with one misspelt; two words run together; a misspelt surname), each searched through this
 * checkout's catalog service and through the one of `--against <commit>`, on a filled database.
 * Prints every typo answered differently and how many were (issue #20: the price of making
 * closestText cheaper is paid in suggestions; docs/benchmarks/search-sql.md).
 *
 *   DATABASE_URL=… node --import tsx --import ./scripts/server-process.mjs scripts/did-you-mean-compare.ts --against <commit> [--titles=300] [--names=100]
 *
 * The other service (its whole folder: src/server/catalog/service.ts re-exports the rooms beside
 * it) is written for the run beside this one (src/server/, so that its imports resolve alike) and
 * removed at the end.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Prisma } from '@/generated/prisma/client';
import * as ours from '@/server/catalog/service';
import { createDb, readRows } from '@/server/db/client';
import type { Locale } from '@/shared/locales';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const flag = process.argv.indexOf('--against');
const against = option('against') ?? (flag >= 0 ? process.argv[flag + 1] : undefined);
if (!process.env.DATABASE_URL || !against || against.startsWith('--')) throw new Error('Set DATABASE_URL to a filled database and give --against <commit>.');

/** A deterministic generator (the same typos on every run against the same database). */
let seed = 20261128;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

/** One letter of `word` dropped, doubled or swapped with the next, never the first. */
function misspelt(word: string): string {
  if (word.length < 4) return word;
  const i = 1 + Math.floor(random() * (word.length - 2));
  const how = Math.floor(random() * 3);
  if (how === 0) return word.slice(0, i) + word.slice(i + 1);
  if (how === 1) return word.slice(0, i) + word[i] + word.slice(i);
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
}

async function main() {
  const folder = path.join(ROOT, 'src', 'server', `catalog-${process.pid}`);
  const db = createDb(process.env.DATABASE_URL!);
  try {
    mkdirSync(folder);
    const theirFiles = execFileSync('git', ['ls-tree', '--name-only', `${against}:src/server/catalog/`], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    for (const name of theirFiles) writeFileSync(path.join(folder, name), execFileSync('git', ['show', `${against}:src/server/catalog/${name}`], { cwd: ROOT }));
    const file = path.join(folder, 'service.ts');
    const theirs = (await import(file)) as typeof ours;
    const titles = await readRows<{ text: string; locale: Locale }>(
      db,
      Prisma.sql`SELECT x.title AS text, x.locale FROM artwork_texts x JOIN artworks w ON w.id = x.artwork_id AND w.status = 'published'
                  WHERE x.title IS NOT NULL AND x.locale IN ('en', 'fr', 'de', 'es', 'it')
                  ORDER BY (x.artwork_id * 7919) % 100003, x.artwork_id, x.locale LIMIT ${Number(option('titles') ?? 300)}`,
    );
    const names = await readRows<{ text: string }>(
      db,
      Prisma.sql`SELECT name AS text FROM artists WHERE status = 'published' AND artwork_count > 0 ORDER BY (id * 7919) % 10007, id LIMIT ${Number(option('names') ?? 100)}`,
    );
    const typos: [string, Locale][] = [];
    for (const { text, locale } of titles) {
      const words = text.split(/\s+/).filter(Boolean);
      const longest = [...words].sort((a, b) => b.length - a.length)[0]!;
      const kind = Math.floor(random() * 3);
      const two = words.filter((w) => w.length >= 3).slice(0, 2);
      if (kind === 0) typos.push([words.map((w) => (w === longest ? misspelt(w) : w)).join(' '), locale]);
      else if (kind === 1 && two.length) typos.push([two.map((w, i) => (i === 0 ? misspelt(w) : w)).join(' '), locale]);
      else if (two.length === 2) typos.push([two.join(''), locale]);
    }
    for (const { text } of names) {
      const words = text.split(' ');
      typos.push([words.map((w, i) => (i === words.length - 1 ? misspelt(w) : w)).join(' '), (['en', 'fr', 'de'] as const)[typos.length % 3]!]);
    }
    const count = { same: 0, lost: 0, gained: 0, other: 0, guessedBefore: 0 };
    for (const [q, locale] of typos) {
      const before = await theirs.listArtworks(db, { q, page: 1, locale });
      const after = await ours.listArtworks(db, { q, page: 1, locale });
      if (before.suggestion) count.guessedBefore++;
      if (JSON.stringify(before) === JSON.stringify(after)) {
        count.same++;
        continue;
      }
      if (before.suggestion && !after.suggestion) count.lost++;
      else if (!before.suggestion && after.suggestion) count.gained++;
      else count.other++;
      const said = (answer: typeof after) => `${JSON.stringify(answer.suggestion?.q ?? null)} (${answer.total})`;
      console.log(`${JSON.stringify(q)} ${locale}: ${against} ${said(before)} | this checkout ${said(after)}`);
    }
    console.log(
      `${typos.length} typos (${count.guessedBefore} guessed at by ${against}): ${count.same} answered the same, ` +
        `${count.other} with another text or other works, ${count.lost} lost their suggestion, ${count.gained} gained one.`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await db.$disconnect();
  }
}

await main();
