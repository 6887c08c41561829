/**
 * The website's strings live in messages/<locale>.json, one top-level namespace per part of the
 * site. Several people add namespaces at once, so this writes one namespace into all seven files
 * in a single quick read-modify-write (temp file + rename) and checks that every locale has exactly
 * the same keys.
 *
 *   node --import tsx scripts/messages.ts put <Namespace> <file.json>   # file: { "en": {...}, "de": {...}, ... }
 *   node --import tsx scripts/messages.ts check                         # exit 1 when a key is missing somewhere
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { locales } from '../src/shared/locales';

const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'messages');
type Tree = { [key: string]: string | Tree };

const fileOf = (locale: string) => path.join(folder, `${locale}.json`);
const read = (locale: string): Tree => JSON.parse(readFileSync(fileOf(locale), 'utf8')) as Tree;

/** Every leaf key as a dotted path, sorted. */
export function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree)
    .flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`)))
    .sort();
}

/** Per locale, the keys English has that it lacks and the keys it has that English lacks. */
export function differences(): string[] {
  const english = new Set(keysOf(read('en')));
  const problems: string[] = [];
  for (const locale of locales) {
    const own = new Set(keysOf(read(locale)));
    for (const key of english) if (!own.has(key)) problems.push(`${locale}: missing ${key}`);
    for (const key of own) if (!english.has(key)) problems.push(`${locale}: extra ${key} (not in en)`);
  }
  return problems;
}

function put(namespace: string, file: string): void {
  const byLocale = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Tree>;
  const missing = locales.filter((l) => !byLocale[l]);
  if (missing.length) throw new Error(`${file} has no ${missing.join(', ')} section`);
  const english = keysOf(byLocale.en!).join('\n');
  for (const locale of locales) {
    if (keysOf(byLocale[locale]!).join('\n') !== english) throw new Error(`${locale} keys differ from en in ${file}`);
  }
  for (const locale of locales) {
    const tree = read(locale);
    tree[namespace] = byLocale[locale]!;
    const target = fileOf(locale);
    writeFileSync(`${target}.${process.pid}.tmp`, `${JSON.stringify(tree, null, 2)}\n`);
    renameSync(`${target}.${process.pid}.tmp`, target);
  }
  console.log(`messages: wrote ${namespace} in ${locales.length} locales`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, namespace, file] = process.argv.slice(2);
  if (command === 'put' && namespace && file) put(namespace, file);
  else if (command === 'check') {
    const problems = differences();
    for (const p of problems) console.error(p);
    process.exit(problems.length ? 1 : 0);
  } else {
    console.error('usage: messages.ts put <Namespace> <file.json> | check');
    process.exit(2);
  }
}
