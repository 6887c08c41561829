import 'server-only';
import { z } from 'zod';

/**
 * The one rule every string a client sends is held to, on every operation (decisions.md "Limits
 * and inputs"): no U+0000. PostgreSQL refuses NUL in text (a 500 deep in a query instead of a
 * 400), C libraries and log tools cut a string at it, and no name, address or note contains one.
 * Applied to the whole input of every procedure (body, query and path, object keys too) before its
 * own schema runs, and by /v1 to the address of every route, hand-written handlers included.
 */
export const NUL_FREE_MESSAGE = 'must not contain the character U+0000';
export const NulFreeString = z.string().refine((value) => !value.includes('\u0000'), { message: NUL_FREE_MESSAGE });

/** The issues (with their paths) of every string in `value`, object keys included, that breaks the rule. */
export function nulIssues(value: unknown, path: PropertyKey[] = [], depth = 0): z.core.$ZodIssue[] {
  if (typeof value === 'string') {
    // Nearly every string passes: the schema (and its issue) only for one that does not.
    if (!value.includes('\u0000')) return [];
    const parsed = NulFreeString.safeParse(value);
    return parsed.success ? [] : parsed.error.issues.map((issue) => ({ ...issue, path: [...path, ...issue.path] }));
  }
  // Bodies are at most 64 KiB, so this depth is never reached by a real input; past it, nothing is walked.
  if (depth > 64 || value === null || typeof value !== 'object') return [];
  const issues: z.core.$ZodIssue[] = [];
  for (const [key, inner] of Object.entries(value)) {
    issues.push(...nulIssues(key, [...path, key], depth + 1));
    issues.push(...nulIssues(inner, [...path, key], depth + 1));
    if (issues.length >= 20) break;
  }
  return issues;
}
