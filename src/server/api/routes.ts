import 'server-only';
import { requestHandlers } from './handlers';
import { inputPlan, type DocumentedParameter } from './input';
import { documentedProcedures, openApiDocument } from './openapi';
import type { Route } from './route-types';

const schemas = (openApiDocument().components?.schemas ?? {}) as Record<string, never>;

/**
 * Every /v1 operation, built once: the procedures with OpenAPI metadata (as the generator listed
 * them, in the routers' order), the hand-written handlers, and the document itself.
 */
export const routes: Route[] = [
  ...documentedProcedures.map(({ method, path, procedure, meta, operation }): Route => ({
    method,
    path,
    answeredBy: {
      procedure,
      segments: procedure.split('.'),
      meta,
      input: inputPlan((operation.parameters ?? []) as DocumentedParameter[], schemas),
    },
  })),
  ...requestHandlers.map((handler): Route => ({ method: handler.method, path: handler.path, answeredBy: { handler }, staff: handler.staff })),
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
  const raw = rawPathParams(route, path);
  for (const [name, value] of Object.entries(raw)) raw[name] = safeDecode(value);
  return raw;
}

/** The path parameters as they appear in the address, not decoded: what a procedure is handed (as trpc-to-openapi did). */
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
