import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as prismaEnums from '@/generated/prisma/enums';
import { fits, frames, orientations, sizes } from '@/shared/canvas';
import { datePrecisions, pluralOf, publishTriggers } from '@/shared/catalog';
import { carriers } from '@/shared/carriers';
import { catalogLocales, locales } from '@/shared/locales';
import { eventActors, orderKinds, orderStatuses, photoKinds, sketchStatuses, styles, subjectLimits } from '@/shared/orders';
import { refundMethods } from '@/shared/payment';

/**
 * The database refuses what the shop would never write: its enums and CHECK constraints list the
 * same values as the shared lists (src/shared). A value added to a list without a migration (an
 * eighth locale, a new size or status) would pass every form and contract and then fail as a 500 on
 * its first write; a migration without the list leaves a value nothing can reach. This test reads
 * the migrated schema of the run's database (pg_enum, pg_constraint) and says which migration to
 * write. docs/architecture.md "How to add a locale, an order status, or an artwork field".
 */

/** A shared list, and where it lives (for the messages). */
interface List {
  name: string;
  file: string;
  values: readonly string[];
}
const list = (name: string, file: string, values: readonly string[]): List => ({ name, file, values });

/** Each PostgreSQL enum (its type name, as prisma/schema.prisma names it) and the shared list it holds. */
const enumLists: Record<string, List> = {
  OrderKind: list('orderKinds', 'src/shared/orders.ts', orderKinds),
  OrderStatus: list('orderStatuses', 'src/shared/orders.ts', orderStatuses),
  SketchStatus: list('sketchStatuses', 'src/shared/orders.ts', sketchStatuses),
  EventActor: list('eventActors', 'src/shared/orders.ts', eventActors),
  PhotoKind: list('photoKinds', 'src/shared/orders.ts', photoKinds),
  Orientation: list('orientations', 'src/shared/canvas.ts', orientations),
  Fit: list('fits', 'src/shared/canvas.ts', fits),
  TaxonKind: list('pluralOf (its keys)', 'src/shared/catalog.ts', Object.keys(pluralOf)),
  PublishTrigger: list('publishTriggers', 'src/shared/catalog.ts', publishTriggers),
  DatePrecision: list('datePrecisions', 'src/shared/catalog.ts', datePrecisions),
  RefundMethod: list('refundMethods', 'src/shared/payment.ts', refundMethods),
};
/**
 * Enums no browser or contract lists: only server code writes them, with Prisma's own types. They are
 * held to prisma/schema.prisma alone (below); a new enum must be named here or in `enumLists`.
 */
const serverOnlyEnums = ['PublicationStatus', 'TextSource', 'PaymentSessionState', 'RefundState', 'DisputeState'];

/** Each `<table>.<column>` whose CHECK constraint lists its values, and the shared list it holds. */
const checkLists: Record<string, List> = {
  'orders.size': list('sizes', 'src/shared/canvas.ts', sizes),
  'orders.frame': list('frames', 'src/shared/canvas.ts', frames),
  'orders.locale': list('locales', 'src/shared/locales.ts', locales),
  'orders.style': list('styles', 'src/shared/orders.ts', styles),
  'orders.carrier': list('carriers', 'src/shared/carriers.ts', carriers),
  'artwork_texts.locale': list('catalogLocales', 'src/shared/locales.ts', catalogLocales),
  'artist_texts.locale': list('catalogLocales', 'src/shared/locales.ts', catalogLocales),
  'taxon_texts.locale': list('catalogLocales', 'src/shared/locales.ts', catalogLocales),
};
/** Each `<table>.<column>` whose CHECK constraint bounds it, and the shared bounds. */
const checkRanges: Record<string, { name: string; file: string; min: number; max: number }> = {
  'orders.subjects': { name: 'subjectLimits', file: 'src/shared/orders.ts', ...subjectLimits },
};

const HOW = 'docs/database.md "Writing a migration": npm run db:diff -- --from-git HEAD writes the SQL Prisma would';

interface Check {
  constraint: string;
  table: string;
  definition: string;
}

let client: pg.Client;
let enums: Map<string, string[]>;
let enumColumns: Map<string, string[]>;
let checks: Check[];

beforeAll(async () => {
  client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const enumRows = await client.query<{ name: string; labels: string[] }>(`
    SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = current_schema() GROUP BY t.typname`);
  enums = new Map(enumRows.rows.map((r) => [r.name, r.labels]));
  const columnRows = await client.query<{ name: string; columns: string[] }>(`
    SELECT t.typname AS name, array_agg(c.relname || '.' || a.attname ORDER BY c.relname, a.attname) AS columns
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE t.typtype = 'e' AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND n.nspname = current_schema()
     GROUP BY t.typname`);
  enumColumns = new Map(columnRows.rows.map((r) => [r.name, r.columns]));
  const checkRows = await client.query<Check>(`
    SELECT con.conname AS constraint, cl.relname AS table, pg_get_constraintdef(con.oid) AS definition
      FROM pg_constraint con JOIN pg_class cl ON cl.oid = con.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
     WHERE con.contype = 'c' AND n.nspname = current_schema()
     ORDER BY cl.relname, con.conname`);
  checks = checkRows.rows;
});
afterAll(() => client.end());

/**
 * The value lists a CHECK constraint holds, by column. PostgreSQL prints `"size" IN ('30x40', …)` on
 * a varchar column back as `((size)::text = ANY ((ARRAY['30x40'::character varying, …])::text[]))`.
 */
function listedValues(definition: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const m of definition.matchAll(/\(?"?(\w+)"?\)?(?:::[\w ]+)? = ANY \(\(?ARRAY\[([^\]]*)\]/g)) {
    found.set(
      m[1]!,
      [...m[2]!.matchAll(/'((?:[^']|'')*)'/g)].map((v) => v[1]!.replace(/''/g, "'")),
    );
  }
  return found;
}

/** The bounds a CHECK constraint puts on a column: `((subjects >= 1) AND (subjects <= 8))`. */
function bounds(definition: string): Map<string, { min: number; max: number }> {
  const found = new Map<string, { min: number; max: number }>();
  for (const m of definition.matchAll(/\("?(\w+)"? >= (-?\d+)\) AND \("?\1"? <= (-?\d+)\)/g)) found.set(m[1]!, { min: Number(m[2]), max: Number(m[3]) });
  return found;
}

const missingFrom = (values: readonly string[], other: readonly string[]) => values.filter((v) => !other.includes(v));
const quoted = (values: readonly string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

/** What differs between a shared list and what PostgreSQL allows, in words; null when they agree. */
function difference(shared: List, allowed: readonly string[]): string | null {
  const unknown = missingFrom(shared.values, allowed);
  const unreachable = missingFrom(allowed, shared.values);
  if (!unknown.length && !unreachable.length) return null;
  return [
    unknown.length ? `the shared list \`${shared.name}\` (${shared.file}) has ${unknown.join(', ')}, which PostgreSQL refuses` : '',
    unreachable.length ? `PostgreSQL allows ${unreachable.join(', ')}, which \`${shared.name}\` (${shared.file}) lacks` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

describe('the database and the shared lists', () => {
  test('every enum holds exactly the values of its shared list', () => {
    const problems: string[] = [];
    for (const [type, shared] of Object.entries(enumLists)) {
      const allowed = enums.get(type);
      if (!allowed) {
        problems.push(`enum "${type}" is not in the database, yet ${shared.file} lists its values: did a migration drop it?`);
        continue;
      }
      const wrong = difference(shared, allowed);
      if (wrong) {
        problems.push(
          `enum "${type}" (${(enumColumns.get(type) ?? []).join(', ')}): ${wrong}.\n` +
            `  Make \`enum ${type}\` in prisma/schema.prisma list exactly ${shared.values.join(', ')}, write the migration ` +
            `(${HOW}, here ALTER TYPE "${type}" ADD VALUE …), then npm run db:generate.`,
        );
      }
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  test('every enum in the database is tied to a shared list, or named as the server’s own', () => {
    const untied = [...enums.keys()].filter((type) => !(type in enumLists) && !serverOnlyEnums.includes(type));
    expect(
      untied,
      `enums no shared list holds: give each a list in src/shared and a line in enumLists (tests/integration/shared-lists.test.ts), or name it in serverOnlyEnums`,
    ).toEqual([]);
    expect(serverOnlyEnums.filter((type) => !enums.has(type))).toEqual([]);
  });

  test('every enum in the database is the one prisma/schema.prisma declares', () => {
    const declared = prismaEnums as unknown as Record<string, Record<string, string>>;
    const problems = [...enums].flatMap(([type, allowed]) => {
      const schema = declared[type] ? Object.values(declared[type]) : null;
      if (!schema) return [`enum "${type}" is in the database but not in prisma/schema.prisma (or npm run db:generate was not run)`];
      const wrong = difference(list(`enum ${type}`, 'prisma/schema.prisma', schema), allowed);
      return wrong ? [`enum "${type}": ${wrong}. Write the migration: ${HOW}.`] : [];
    });
    expect(problems, problems.join('\n\n')).toEqual([]);
  });

  test('every CHECK constraint that lists values holds exactly those of its shared list', () => {
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const check of checks) {
      for (const [column, allowed] of listedValues(check.definition)) {
        const key = `${check.table}.${column}`;
        seen.add(key);
        const shared = checkLists[key];
        if (!shared) {
          problems.push(
            `CHECK ${check.constraint} lists the values of ${key} (${allowed.join(', ')}), but no shared list is tied to it: put the list in src/shared and a line in checkLists.`,
          );
          continue;
        }
        const wrong = difference(shared, allowed);
        if (!wrong) continue;
        // A constraint that says only this is restated whole; one that says more keeps the rest as it is.
        const alone = listedValues(check.definition).size === 1 && /^CHECK \(\(\(?"?\w+"?\)?(::[\w ]+)? = ANY/.test(check.definition);
        problems.push(
          `${key} (CHECK ${check.constraint}): ${wrong}.\n` +
            `  Write a migration (${HOW}; a CHECK constraint is hand-written below the generated part, Prisma cannot express it):\n` +
            `    ALTER TABLE "${check.table}" DROP CONSTRAINT "${check.constraint}";\n` +
            (alone
              ? `    ALTER TABLE "${check.table}" ADD CONSTRAINT "${check.constraint}" CHECK ("${column}" IN (${quoted(shared.values)}));`
              : `    ALTER TABLE "${check.table}" ADD CONSTRAINT "${check.constraint}" <its definition, now ${check.definition}, with "${column}" IN (${quoted(shared.values)})>;`),
        );
      }
      for (const [column, range] of bounds(check.definition)) {
        const key = `${check.table}.${column}`;
        seen.add(key);
        const shared = checkRanges[key];
        if (!shared) problems.push(`CHECK ${check.constraint} bounds ${key} (${range.min} to ${range.max}), but no shared bounds are tied to it: add them to checkRanges.`);
        else if (shared.min !== range.min || shared.max !== range.max) {
          problems.push(
            `${key} (CHECK ${check.constraint}): PostgreSQL allows ${range.min} to ${range.max}, \`${shared.name}\` (${shared.file}) says ${shared.min} to ${shared.max}. Write a migration that restates the constraint (${HOW}).`,
          );
        }
      }
    }
    for (const key of [...Object.keys(checkLists), ...Object.keys(checkRanges)]) {
      if (!seen.has(key)) problems.push(`no CHECK constraint holds ${key} to its shared list any more: did a migration drop it? Restore it, or drop the line in this test.`);
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });
});
