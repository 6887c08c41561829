import { afterEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { createCallerFactory, isCheckedSynchronously, publicProcedure, router, type Context } from '@/server/api/trpc';
import { ArtworkPage } from '@/server/catalog/schema';
import { appRouter } from '@/server/api/root';

// The procedures' schemas answer parseAsync with Zod's synchronous walk (checkedSynchronously in
// src/server/api/trpc.ts): the same answers, without the asynchronous walk's cost.

/** Zod's own parseAsync, on the prototype of its object schemas (each kind of schema has its own): watched for calls. */
function asynchronousWalk() {
  let owner: object | null = z.object({});
  while (owner && !Object.hasOwn(owner, 'parseAsync')) owner = Object.getPrototypeOf(owner) as object | null;
  return vi.spyOn(owner as { parseAsync: z.ZodType['parseAsync'] }, 'parseAsync');
}
afterEach(() => vi.restoreAllMocks());

/** No database and nobody asking: these procedures read neither. */
const context = { db: null as never, actor: async () => ({ kind: 'anonymous' }) as never } satisfies Context;

describe("procedures' input and output checks", () => {
  test('a plain contract is checked without Zod’s asynchronous walk, and answers as before', async () => {
    const Query = z.object({ n: z.coerce.number().int().min(1) });
    const Answer = z.object({ doubled: z.int() });
    const walk = asynchronousWalk();
    const caller = createCallerFactory(
      router({
        twice: publicProcedure
          .input(Query)
          .output(Answer)
          .query(({ input }) => ({ doubled: input.n * 2 })),
      }),
    )(context);
    await expect(caller.twice({ n: '21' } as never)).resolves.toEqual({ doubled: 42 });
    // Refused input: the same BAD_REQUEST with the ZodError as its cause.
    const refused = await caller.twice({ n: 0 }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', cause: expect.any(z.ZodError) });
    expect(walk).not.toHaveBeenCalled();
  });

  test('an output the contract refuses is still refused (INTERNAL_SERVER_ERROR, the ZodError as cause)', async () => {
    const caller = createCallerFactory(router({ wrong: publicProcedure.output(z.object({ total: z.int() })).query(() => ({ total: 'many' }) as never) }))(context);
    await expect(caller.wrong()).rejects.toMatchObject({ code: 'INTERNAL_SERVER_ERROR', cause: expect.any(z.ZodError) });
  });

  test('a schema with asynchronous work falls back to Zod’s asynchronous walk, with the same answer', async () => {
    const walk = asynchronousWalk(); // before the procedure is built: it keeps the walk it found
    const known = new Set(['vermeer']);
    const Query = z.object({ name: z.string().refine(async (name) => known.has(name), 'unknown name') });
    const caller = createCallerFactory(router({ known: publicProcedure.input(Query).query(({ input }) => input.name) }))(context);
    await expect(caller.known({ name: 'vermeer' })).resolves.toBe('vermeer');
    await expect(caller.known({ name: 'nobody' })).rejects.toMatchObject({ code: 'BAD_REQUEST', cause: expect.any(z.ZodError) });
    expect(walk).toHaveBeenCalledTimes(2);
  });

  test("the shop's own procedures were built with the synchronous checks, staff and account ones too", () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { inputs: unknown[]; output?: unknown } }>);
    expect(procedures.length).toBeGreaterThan(30);
    for (const [path, procedure] of procedures) {
      for (const schema of [...procedure._def.inputs, procedure._def.output].filter(Boolean)) {
        expect(isCheckedSynchronously(schema), path).toBe(true);
      }
    }
  });

  test('the shared contract keeps its OpenAPI identity (the same instance, its id registered)', () => {
    expect(ArtworkPage.meta()).toMatchObject({ id: 'ArtworkPage' });
  });
});
