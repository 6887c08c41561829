import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { CLIENT_MESSAGES, clientMessages, clientNamespaces, coveredBy, type ClientMessagesPage } from '@/i18n/client-messages';

/**
 * What reaches the browser (docs/architecture.md "One-way layers"): a client component
 * ('use client') and everything it imports is bundled for the browser, so none of it may load a
 * server module. What browser and server share lives in src/shared, which imports nothing of the
 * server or of Node. Next's build refuses a client bundle that reaches `server-only`; these scans
 * say the same earlier, with the chain of imports that got there.
 */

const root = path.resolve(__dirname, '../..');
const src = path.join(root, 'src');
const rel = (file: string) => path.relative(root, file);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return name === 'generated' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

interface Import {
  specifier: string;
  /** Erased when compiled (`import type`, or only `type` names): nothing of it reaches a bundle. */
  typeOnly: boolean;
  /** The names it takes, for the messages. */
  names: string[];
  /** `import(…)`: loaded when the code runs it, not with the page. */
  dynamic?: boolean;
}

const parsed = new Map<string, { clientEntry: boolean; imports: Import[] }>();

function parse(file: string) {
  const known = parsed.get(file);
  if (known) return known;
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const first = source.statements[0];
  const clientEntry = Boolean(first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) && first.expression.text === 'use client');
  const imports: Import[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : [];
      const typeOnly = Boolean(clause && (clause.isTypeOnly || (!clause.name && named.length > 0 && named.every((n) => n.isTypeOnly))));
      imports.push({ specifier: node.moduleSpecifier.text, typeOnly, names: [...(clause?.name ? [clause.name.text] : []), ...named.map((n) => n.name.text)] });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : [];
      imports.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: node.isTypeOnly || (named.length > 0 && named.every((n) => n.isTypeOnly)),
        names: named.map((n) => n.name.text),
      });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      imports.push({ specifier: node.arguments[0].text, typeOnly: false, names: [], dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const result = { clientEntry, imports };
  parsed.set(file, result);
  return result;
}

/** The project file an import names, or null for a package (or a stylesheet, JSON, …). */
function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(src, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(from), specifier) : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return /\.tsx?$/.test(candidate) ? candidate : null;
  }
  throw new Error(`${rel(from)} imports ${specifier}, which names no file`);
}

const isServer = (file: string) => file.startsWith(path.join(src, 'server') + path.sep);
const files = sourceFiles(src);
const clientEntries = files.filter((file) => parse(file).clientEntry);

/** Every module a browser bundle holds, each with the module that brought it in. */
function clientGraph(): Map<string, string | null> {
  const reachedFrom = new Map<string, string | null>();
  const queue: [string, string | null][] = clientEntries.map((file) => [file, null]);
  while (queue.length) {
    const [file, from] = queue.shift()!;
    if (reachedFrom.has(file)) continue;
    reachedFrom.set(file, from);
    // One server module on the way is the fault to report; what it loads in turn is not.
    if (isServer(file)) continue;
    for (const i of parse(file).imports) {
      if (i.typeOnly) continue;
      const target = resolve(file, i.specifier);
      if (target) queue.push([target, file]);
    }
  }
  return reachedFrom;
}

function chain(graph: Map<string, string | null>, file: string): string {
  const steps = [rel(file)];
  for (let at = graph.get(file); at; at = graph.get(at)) steps.unshift(rel(at));
  return steps.join(' → ');
}

/** The tRPC clients need their router's type; a type import is erased and brings no server code along. */
const routerTypes = new Set(['@/server/api/root:AppRouter', '@/server/staff/router:StaffDashboardRouter']);

describe('the browser bundle', () => {
  test('finds the client components (the scan itself works)', () => {
    expect(clientEntries.length).toBeGreaterThan(20);
    expect(clientEntries.map(rel)).toContain('src/components/order/size-frame-picker.tsx');
  });

  test('client components import nothing from src/server but the tRPC routers’ types', () => {
    const problems = clientEntries.flatMap((file) =>
      parse(file)
        .imports.filter((i) => {
          const target = resolve(file, i.specifier);
          if (!target || !isServer(target)) return false;
          return !(i.typeOnly && i.names.every((name) => routerTypes.has(`${i.specifier}:${name}`)));
        })
        .map((i) => `${rel(file)} imports { ${i.names.join(', ')} } from '${i.specifier}': take it from src/shared (move it there if it is pure)`),
    );
    expect(problems).toEqual([]);
  });

  test('no module a client component reaches loads a server module', () => {
    const graph = clientGraph();
    expect(graph.size).toBeGreaterThan(clientEntries.length);
    const problems = [...graph.keys()].filter(isServer).map((file) => `${chain(graph, file)}: a browser bundle would hold this server module`);
    expect(problems).toEqual([]);
  });
});

describe('the messages the browser gets (src/i18n/client-messages.ts)', () => {
  /**
   * The modules a page's browser bundle holds: its client components (`'use client'`) and all
   * they import. A module imported by a server component is rendered on the server there, with
   * every message (artwork-card is both: on the grid and inside the favorites list).
   */
  const inBrowser = (entry: string, { firstLoad = false } = {}): string[] => {
    const seen = new Set<string>();
    const client = new Set<string>();
    const queue: [string, boolean][] = [[entry, false]];
    while (queue.length) {
      const [file, below] = queue.shift()!;
      const inClient = below || parse(file).clientEntry;
      const key = `${file}:${inClient}`;
      if (seen.has(key) || isServer(file)) continue;
      seen.add(key);
      if (inClient) client.add(file);
      for (const i of parse(file).imports) {
        const target = i.typeOnly || (firstLoad && i.dynamic) ? null : resolve(file, i.specifier);
        if (target) queue.push([target, inClient]);
      }
    }
    return [...client];
  };
  /** The `useTranslations(…)` (and `useMessages()`) of `files`. */
  const translations = (files: string[]) =>
    files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\b(useTranslations|useMessages)\(\s*(?:'([^']*)'|"([^"]*)")?\s*\)/g)].map((m) => ({
        file: rel(file),
        hook: m[1]!,
        namespace: m[2] ?? m[3] ?? '',
      })),
    );
  const shop = path.join(src, 'app', '[locale]');
  const layout = path.join(shop, 'layout.tsx');
  const pages = files.filter((file) => file.startsWith(shop + path.sep) && /(page|not-found|error)\.tsx$/.test(file));
  /** The part a page asks for with `<ClientMessages page="…">`, if any. */
  const partOf = (file: string) => /<ClientMessages page="(\w+)"/.exec(readFileSync(file, 'utf8'))?.[1] as ClientMessagesPage | undefined;
  const uncovered = (found: ReturnType<typeof translations>, paths: readonly string[]) =>
    found.filter((u) => u.hook !== 'useTranslations' || !u.namespace || !coveredBy(u.namespace, paths)).map((u) => `${u.file}: ${u.hook}('${u.namespace}')`);

  test('the scan finds the pages and their client components', () => {
    expect(pages.map(rel)).toContain('src/app/[locale]/artworks/[slug]/page.tsx');
    expect(translations(inBrowser(path.join(shop, 'artworks', '[slug]', 'page.tsx'))).map((u) => u.namespace)).toContain('Legal.orderNotice');
    expect(partOf(path.join(shop, 'orders', '[code]', 'page.tsx'))).toBe('order');
  });

  test("every page's first load holds no schema library: the layout's islands import no Zod (the basket's check loads when there is a basket)", () => {
    const zod = (file: string) => parse(file).imports.some((i) => !i.typeOnly && !i.dynamic && /^(zod(\/.*)?|@\/shared\/zod)$/.test(i.specifier));
    const firstLoad = inBrowser(layout, { firstLoad: true });
    expect(firstLoad.map(rel)).toContain('src/components/basket/local-basket.ts');
    expect(firstLoad.filter(zod).map(rel)).toEqual([]);
    // The check itself holds it: loaded on use, through import().
    expect(inBrowser(layout).filter(zod).map(rel)).toContain('src/shared/basket-schema.ts');
  });

  test("the layout's client components find their words among every page's messages", () => {
    expect(uncovered(translations(inBrowser(layout)), CLIENT_MESSAGES.everyPage)).toEqual([]);
  });

  test.each(pages.map((file) => [rel(file), file] as const))("%s: its client components find their words among every page's and its own", (_name, file) => {
    expect(uncovered(translations(inBrowser(file)), clientNamespaces(partOf(file))), 'add the namespace to CLIENT_MESSAGES (or pass the text as a prop)').toEqual([]);
  });

  test('the staff dashboard reads only the Staff namespace its layout sends', () => {
    const staffPages = files.filter((file) => file.startsWith(path.join(src, 'app', 'staff') + path.sep));
    expect(staffPages.length).toBeGreaterThan(5);
    expect(uncovered(translations(staffPages.flatMap((file) => inBrowser(file))), ['Staff'])).toEqual([]);
  });

  test('nothing is sent that no client component of its pages reads', () => {
    // Every page's part serves the layout and the pages that add nothing (the hearts of the grid's cards).
    const everywhere = [layout, ...pages].flatMap((file) => translations(inBrowser(file)).map((u) => u.namespace));
    const byPart = new Map<string, string[]>();
    for (const file of pages) {
      const part = partOf(file);
      if (part) byPart.set(part, [...(byPart.get(part) ?? []), ...translations(inBrowser(file)).map((u) => u.namespace)]);
    }
    const used = (path: string, namespaces: string[]) => namespaces.some((n) => n === path || n.startsWith(`${path}.`) || path.startsWith(`${n}.`));
    const unused = [
      ...CLIENT_MESSAGES.everyPage.filter((p) => !used(p, everywhere)).map((p) => `everyPage: ${p}`),
      ...Object.entries(CLIENT_MESSAGES.pages).flatMap(([part, paths]) => paths.filter((p) => !used(p, byPart.get(part) ?? [])).map((p) => `${part}: ${p}`)),
    ];
    expect(unused).toEqual([]);
  });

  test('picks whole namespaces and parts of one, nesting kept', () => {
    const messages = { A: { x: '1' }, B: { y: '2' }, Legal: { orderNotice: { order: 'o' }, terms: { long: 't' } } };
    expect(clientMessages(messages, ['A', 'Legal.orderNotice', 'Missing', 'Legal.none'])).toEqual({ A: { x: '1' }, Legal: { orderNotice: { order: 'o' } } });
  });
});

describe('server and shared modules', () => {
  test('every server module is marked server-only, as its first import', () => {
    const server = files.filter(isServer);
    expect(server.length).toBeGreaterThan(50);
    const unmarked = server.filter((file) => parse(file).imports[0]?.specifier !== 'server-only').map(rel);
    expect(unmarked, "add `import 'server-only';` as the first line").toEqual([]);
  });

  test('src/shared imports only src/shared and zod, so the browser can load all of it', () => {
    const shared = files.filter((file) => file.startsWith(path.join(src, 'shared') + path.sep));
    expect(shared.length).toBeGreaterThan(5);
    const problems = shared.flatMap((file) =>
      parse(file)
        .imports.filter((i) => {
          if (i.specifier === 'zod') return false;
          const target = resolve(file, i.specifier);
          return !target || !target.startsWith(path.join(src, 'shared') + path.sep);
        })
        .map((i) => `${rel(file)} imports '${i.specifier}'`),
    );
    expect(problems).toEqual([]);
  });
});
