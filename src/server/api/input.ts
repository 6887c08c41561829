import 'server-only';
/**
 * What a /v1 request hands its procedure, the way trpc-to-openapi builds it: for GET and DELETE the
 * query (a repeated key is a list) with the path parameters over it, otherwise the JSON body with
 * the path parameters over it. Path parameters stay as they appear in the address (not decoded).
 *
 * Query and path values are text; each documented parameter whose schema is a number or a boolean
 * is coerced to one first, and a list parameter given once becomes a list of one. The plan is
 * read once per operation from the parameters of the generated document (the JSON schemas of the
 * procedure's own Zod input), so no Zod schema is copied or changed and nothing is decided per
 * request. Bodies are JSON and keep their types: `"7"` stays a string.
 */

type JsonSchema = { $ref?: string; type?: string | string[]; const?: unknown; enum?: unknown[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; items?: JsonSchema };
export interface DocumentedParameter {
  name: string;
  in: string;
  schema?: JsonSchema;
}

type Coerce = (text: unknown) => unknown;

/** Zod's own coercion of numbers (`Number(value)`): `""` is 0 and a repeated value is NaN, as the adapter answered. */
const toNumber: Coerce = (value) => Number(value);
/** Only the words: `"false"` is false (not `Boolean("false")`, which is true). */
const toBoolean: Coerce = (value) => (value === 'true' ? true : value === 'false' ? false : value);

interface ParameterPlan {
  name: string;
  in: 'query' | 'path';
  list: boolean;
  coerce?: Coerce;
}

export interface InputPlan {
  /** The input of a GET or DELETE: query values, then the path parameters over them. */
  fromAddress(url: URL, rawPathParams: Record<string, string>): Record<string, unknown>;
  /** The input of a POST, PUT or PATCH: the body's fields, then the path parameters over them. */
  fromBody(body: unknown, rawPathParams: Record<string, string>): Record<string, unknown>;
}

export function inputPlan(parameters: readonly DocumentedParameter[], schemas: Record<string, JsonSchema>): InputPlan {
  const plans: ParameterPlan[] = [];
  for (const parameter of parameters) {
    if (parameter.in !== 'query' && parameter.in !== 'path') continue;
    const schema = resolve(parameter.schema, schemas);
    const list = kindOf(schema, schemas) === 'array';
    const coerce = coercionFor(kindOf(list ? resolve(schema?.items, schemas) : schema, schemas));
    if (list || coerce) plans.push({ name: parameter.name, in: parameter.in, list, coerce });
  }
  const inPath = plans.filter((plan) => plan.in === 'path');

  const coerced = (input: Record<string, unknown>, which: readonly ParameterPlan[]) => {
    for (const plan of which) {
      const { name } = plan;
      let value = input[name];
      if (value === undefined) continue;
      if (plan.list && !Array.isArray(value)) value = [value];
      if (plan.coerce) value = Array.isArray(value) && plan.list ? value.map(plan.coerce) : plan.coerce(value);
      input[name] = value;
    }
    return input;
  };

  return {
    fromAddress(url, rawPathParams) {
      const values: Record<string, string[]> = {};
      url.searchParams.forEach((value, key) => (values[key] ??= []).push(value));
      const input: Record<string, unknown> = {};
      for (const [key, list] of Object.entries(values)) input[key] = list.length === 1 ? list[0] : list;
      return coerced(Object.assign(input, rawPathParams), plans);
    },
    fromBody(body, rawPathParams) {
      // Spread like the adapter: null is {}, an array or a string spreads into numbered fields.
      return coerced({ ...(body as object), ...rawPathParams }, inPath);
    },
  };
}

function resolve(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>): JsonSchema | undefined {
  const seen = new Set<string>();
  while (schema?.$ref && !seen.has(schema.$ref)) {
    seen.add(schema.$ref);
    schema = schemas[schema.$ref.replace('#/components/schemas/', '')];
  }
  return schema;
}

/** One JSON type a parameter's values are meant to have (`null` aside), or undefined when several or a fixed value. */
function kindOf(schema: JsonSchema | undefined, schemas: Record<string, JsonSchema>): string | undefined {
  if (!schema || schema.const !== undefined || schema.enum) return undefined;
  const members = schema.anyOf ?? schema.oneOf;
  const kinds = members
    ? members.map((member) => kindOf(resolve(member, schemas), schemas) ?? (resolve(member, schemas)?.type === 'null' ? 'null' : '?'))
    : Array.isArray(schema.type)
      ? schema.type
      : [schema.type ?? '?'];
  const meant = [...new Set(kinds.filter((kind) => kind !== 'null'))];
  return meant.length === 1 && meant[0] !== '?' ? meant[0] : undefined;
}

function coercionFor(kind: string | undefined): Coerce | undefined {
  if (kind === 'number' || kind === 'integer') return toNumber;
  if (kind === 'boolean') return toBoolean;
  return undefined;
}
