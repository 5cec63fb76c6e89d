import { getNullableType, type GraphQLInputType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType } from 'graphql';
import { graphqlLimits, openApiLimits } from './limits.ts';

// What an input expects, read from either description of the API (an OpenAPI schema or a GraphQL input type), so one
// set of generators serves the REST routes and the GraphQL arguments alike.

export type Slot =
  | { kind: 'string'; name: string; format?: string; enum?: readonly string[]; limits?: number[] }
  | { kind: 'integer' | 'number' | 'boolean' | 'json' | 'upload'; name: string; limits?: number[] }
  | { kind: 'object'; name: string; fields: Record<string, Slot>; required: readonly string[]; exactlyOne?: ReadonlyArray<readonly string[]> }
  | { kind: 'array'; name: string; items: Slot; limits?: number[] };

type JsonSchema = Record<string, any>;

/** A slot from an OpenAPI 3.1 schema ($ref, allOf and nullable type lists resolved against `doc`). */
export function slotFromOpenApi(schema: JsonSchema, name: string, doc: JsonSchema): Slot {
  const s = resolve(schema, doc);
  if (s.allOf) {
    const parts = (s.allOf as JsonSchema[]).map((p) => slotFromOpenApi(p, name, doc));
    const objects = parts.filter((p): p is Extract<Slot, { kind: 'object' }> => p.kind === 'object');
    return {
      kind: 'object',
      name,
      fields: Object.assign({}, ...objects.map((o) => o.fields)),
      required: objects.flatMap((o) => o.required),
    };
  }
  const variants = ((s.anyOf ?? s.oneOf) as JsonSchema[] | undefined)?.map((v) => resolve(v, doc));
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    const fields: Record<string, Slot> = {};
    for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) fields[key] = slotFromOpenApi(child, key, doc);
    // `oneOf: [{required: [a]}, {required: [b]}]`: exactly one of the groups.
    const exactlyOne = variants?.every((v) => Array.isArray(v.required) && Object.keys(v).length === 1)
      ? variants.map((v) => v.required as string[])
      : undefined;
    return { kind: 'object', name, fields, required: s.required ?? [], ...(exactlyOne ? { exactlyOne } : {}) };
  }
  const variant = variants?.find((v) => v.type !== 'null');
  if (variant) return slotFromOpenApi(variant, name, doc);
  if (s.enum) return { kind: 'string', name, enum: (s.enum as unknown[]).filter((v): v is string => typeof v === 'string') };
  const limits = openApiLimits(s);
  if (type === 'array') return { kind: 'array', name, items: slotFromOpenApi(s.items ?? {}, name, doc), limits };
  if (type === 'integer' || type === 'number' || type === 'boolean') return { kind: type, name, limits };
  if (type === 'string' && s.format === 'binary') return { kind: 'upload', name };
  return { kind: 'string', name, ...(s.format ? { format: s.format } : {}), limits };
}

function resolve(schema: JsonSchema, doc: JsonSchema): JsonSchema {
  let s = schema;
  while (s.$ref)
    s = (s.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: JsonSchema, key) => node[key], doc);
  return s;
}

/** GraphQL scalars of this schema → the string formats the generators know. */
const SCALAR_FORMATS: Record<string, string> = { UUID: 'uuid', Date: 'date', DateTime: 'date-time', URL: 'uri', EmailAddress: 'email' };

/**
 * A slot from a GraphQL input type (non-null wrappers dropped: the generators send null and omit values anyway);
 * `limits`: what the argument's or input field's SDL says of its size (limits.ts).
 */
export function slotFromGraphQL(type: GraphQLInputType, name: string, limits: number[] = []): Slot {
  const t = getNullableType(type);
  if (isListType(t)) return { kind: 'array', name, items: slotFromGraphQL(t.ofType, name), limits };
  if (isEnumType(t)) return { kind: 'string', name, enum: t.getValues().map((v) => v.name) };
  if (isInputObjectType(t)) {
    const fields: Record<string, Slot> = {};
    const required: string[] = [];
    for (const field of Object.values(t.getFields())) {
      fields[field.name] = slotFromGraphQL(field.type, field.name, graphqlLimits(field));
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(field.name);
    }
    return { kind: 'object', name, fields, required };
  }
  if (isScalarType(t)) {
    if (t.name === 'Int') return { kind: 'integer', name, limits };
    if (t.name === 'Float') return { kind: 'number', name, limits };
    if (t.name === 'Boolean') return { kind: 'boolean', name };
    if (t.name === 'JSONObject') return { kind: 'json', name, limits };
    if (t.name === 'Upload') return { kind: 'upload', name };
    const format = SCALAR_FORMATS[t.name];
    return { kind: 'string', name, ...(format ? { format } : {}), limits };
  }
  return { kind: 'string', name, limits };
}
