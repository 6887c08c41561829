import 'server-only';
import type { z } from 'zod';
import { requestHandlers, type RequestHandlerRoute } from './handlers';
import type { Meta } from './trpc';
import { appRouter } from './root';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  path: `/${string}`;
  /** Which code answers: a tRPC procedure (by its dotted path), a hand-written handler, or nobody yet. */
  answeredBy: { procedure: string; meta: Meta } | { handler: RequestHandlerRoute } | 'document';
  /** Needs the staff token; checked by rest.ts before a hand-written handler runs. */
  staff?: boolean;
}

/** Every /v1 operation, from the procedures' OpenAPI metadata plus the few that are not procedures. */
export const routes: Route[] = [
  ...procedureDefinitions().flatMap(({ name, meta }) =>
    meta?.openapi ? [{ method: meta.openapi.method, path: meta.openapi.path, answeredBy: { procedure: name, meta } }] : [],
  ),
  ...requestHandlers.map((handler) => ({ method: handler.method, path: handler.path, answeredBy: { handler }, staff: handler.staff })),
  { method: 'GET', path: '/openapi.json', answeredBy: 'document' },
];

const compiled = routes.map((route) => ({
  route,
  pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  // Literal segments win over parameters: /artworks/by-slugs is not the artwork "by-slugs".
  literalSegments: route.path.split('/').filter((s) => s && !s.startsWith('{')).length,
}));

/** The routes whose path matches, most specific first; empty when the path is unknown. */
export function matchPath(path: string): Route[] {
  const matches = compiled.filter((c) => c.pattern.test(path));
  const best = Math.max(...matches.map((m) => m.literalSegments));
  return matches.filter((m) => m.literalSegments === best).map((m) => m.route);
}

/** The path parameters of `path` under `route` (`/orders/{code}` and `/orders/AB12` give code AB12), decoded. */
export function pathParams(route: Route, path: string): Record<string, string> {
  const names = route.path.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const match = /^\{(.+)\}$/.exec(name);
    if (match && values[i] !== undefined) params[match[1]!] = safeDecode(values[i]!);
  });
  return params;
}

/** The path parameters as they appear in the address, not decoded: what trpc-to-openapi hands a procedure. */
export function rawPathParams(route: Route, path: string): Record<string, string> {
  const names = route.path.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const match = /^\{(.+)\}$/.exec(name);
    if (match && values[i] !== undefined) params[match[1]!] = values[i]!;
  });
  return params;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The app router's procedures by dotted name, with the parts of their definition we read. */
export function procedureDefinitions(): { name: string; meta?: Meta; inputs: z.ZodType[] }[] {
  return Object.entries(appRouter._def.procedures as Record<string, unknown>).map(([name, procedure]) => {
    const def = (procedure as { _def: { meta?: Meta; inputs: z.ZodType[] } })._def;
    return { name, meta: def.meta, inputs: def.inputs };
  });
}
