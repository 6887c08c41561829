/**
 * The SQL that turns one Prisma schema into another (PostgreSQL), written by Prisma's own schema
 * engine: the WebAssembly build of Prisma 7.10's engine (@prisma/schema-engine-wasm, the version
 * the `prisma` package ships), driven through @prisma/adapter-pg. `prisma migrate diff` itself
 * would download a native engine, which these machines cannot. The engine connects to a database
 * before it diffs, though two schemas are compared without reading or writing it.
 * `npm run db:diff` (scripts/db-diff.ts) gives it a throwaway embedded PostgreSQL.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as glue from '@prisma/schema-engine-wasm/schema_engine_bg';

type Engine = typeof glue.SchemaEngine;
let loaded: Promise<Engine> | undefined;

/** Instantiates the engine's WebAssembly once, as its own package would under a bundler. */
function loadEngine(): Promise<Engine> {
  loaded ??= (async () => {
    // The bindings report a Rust panic's message here before throwing.
    const registry = { message: '', get: () => registry.message, set_message: (m: string) => void (registry.message = m) };
    (globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown }).PRISMA_WASM_PANIC_REGISTRY = registry;
    const wasmFile = createRequire(import.meta.url)
      .resolve('@prisma/schema-engine-wasm')
      .replace(/schema_engine\.js$/, 'schema_engine_bg.wasm');
    const compiled = new WebAssembly.Module(new Uint8Array(await readFile(wasmFile)));
    const instance = new WebAssembly.Instance(compiled, { './schema_engine_bg.js': glue as unknown as WebAssembly.ModuleImports });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  return loaded;
}

/**
 * A schema as Prisma 7 reads it: a datasource `url`/`directUrl` (Prisma 6 wrote them there; Prisma 7
 * refuses them, they live in prisma.config.ts) is dropped, so a schema from older history diffs too.
 */
export function asPrisma7Schema(schema: string): string {
  return schema.replace(/(datasource\s+\w+\s*\{)([^}]*)\}/g, (_, head: string, body: string) => `${head}${body.replace(/^\s*(url|directUrl)\s*=.*\n/gm, '')}}`);
}

/**
 * The migration SQL from `from` (a schema's text, or null for an empty database) to `to`, as
 * `prisma migrate diff --from-… --to-schema --script` prints it; '' when they agree. `url`: any
 * PostgreSQL the engine can connect to; nothing is written there.
 */
export async function diffSchemas(from: string | null, to: string, url: string): Promise<string> {
  const SchemaEngine = await loadEngine();
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: url }));
  const target = { tag: 'schemaDatamodel' as const, files: [{ path: 'schema.prisma', content: asPrisma7Schema(to) }] };
  const engine = await SchemaEngine.new({ datamodels: [[target.files[0]!.path, target.files[0]!.content]] }, () => undefined, adapter);
  try {
    const source = from === null ? { tag: 'empty' as const } : { tag: 'schemaDatamodel' as const, files: [{ path: 'from.prisma', content: asPrisma7Schema(from) }] };
    const result = await engine.diff({ from: source, to: target, script: true, exitCode: null, filters: { externalTables: [], externalEnums: [] } });
    const sql = result.stdout ?? '';
    // An empty diff is Prisma's comment line alone.
    return /^\s*(-- This is an empty migration\.\s*)?$/.test(sql) ? '' : sql;
  } finally {
    engine.free();
  }
}
