import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { documentedProcedures } from '@/server/api/openapi';
import { appRouter } from '@/server/api/root';

// In a file of its own, where no /v1 request is answered: the library's step (below) would hide
// what this looks for.
describe('query values', () => {
  /**
   * trpc-to-openapi coerces a query's numbers and booleans by setting `coerce` on the procedure's
   * own schemas, in place, the first time it answers one (docs/upstream.md): a boolean would read
   * "false" as true, and a schema would accept text for every other caller only after the first
   * /v1 call. So every number a GET takes coerces itself, for every caller alike, and there is no
   * boolean: the library's step then changes nothing.
   */
  test('every number a GET takes coerces itself, and none is a boolean, so the library changes no schema', () => {
    const problems: string[] = [];
    for (const { method, path, procedure } of documentedProcedures) {
      if (method !== 'GET') continue;
      const segments = procedure.split('.');
      const found = segments.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], appRouter) as { _def: { inputs: z.ZodType[] } };
      for (const input of found._def.inputs) {
        const shape = (input as z.ZodObject).shape ?? {};
        for (const [name, field] of Object.entries(shape)) {
          let inner = field as z.ZodType;
          while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
          if (inner instanceof z.ZodBoolean) problems.push(`${path} ${name}: a boolean (read "1", or an enum of words)`);
          if (inner instanceof z.ZodNumber && !(inner._zod.def as { coerce?: boolean }).coerce) problems.push(`${path} ${name}: a number that does not coerce itself`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
