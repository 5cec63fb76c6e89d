import { buildSubgraphSchema } from '@apollo/subgraph';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { type GraphQLFieldResolver, type GraphQLSchema, isEnumType, isObjectType, isUnionType, parse } from 'graphql';
import { InvalidInput } from '../errors.ts';
import { isUuid } from '../lib/ids.ts';

// The executable schema as an Apollo Federation v2 subgraph (issue 18, point 8). @apollo/subgraph reads the SDL (its
// `extend schema @link(…federation/v2.x…)` and the @key types), adds what the spec asks of a subgraph —
// `_service { sdl }`, `_entities(representations:)`, the `_Entity` union and the `_Any` scalar — and wires each
// entity type's `__resolveReference`; graphql-tools then adds every other resolver as it always did (checked against
// the schema: a resolver for a field the SDL lacks is an error). The @link URL only names the spec: nothing fetches it.

/** A resolver map as the modules write them (type name → field resolvers, scalars, enum values). */
type ResolverMap = Record<string, object>;

export function buildSubgraph(typeDefs: readonly string[], resolvers: readonly ResolverMap[]): GraphQLSchema {
  // Apollo keeps an entity's reference resolver in the type's extensions; only its helper puts it there.
  const references: Record<string, { __resolveReference: unknown }> = {};
  for (const map of resolvers) {
    for (const [type, fields] of Object.entries(map)) {
      if ('__resolveReference' in fields) references[type] = { __resolveReference: fields.__resolveReference };
    }
  }
  const shape = buildSubgraphSchema([{ typeDefs: parse(typeDefs.join('\n')), resolvers: references as never }]);
  const schema = makeExecutableSchema({ typeDefs: shape, resolvers: resolvers as ResolverMap[] as never });
  checkRepresentations(schema);
  describeFederation(schema);
  return schema;
}

/**
 * `_Any` takes any JSON: before Apollo looks a representation up, each must name one of our entity types and carry
 * the key every one of them has, a UUID `id` — otherwise the request is BAD_USER_INPUT, not an internal error.
 * (How many there may be is bounded by the operation's cost: each representation is one object.)
 */
function checkRepresentations(schema: GraphQLSchema): void {
  const entity = schema.getType('_Entity');
  const field = schema.getQueryType()?.getFields()._entities;
  if (!isUnionType(entity) || !field?.resolve) return;
  const names = new Set(entity.getTypes().map((t) => t.name));
  const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve;
  field.resolve = (source, args: { representations?: unknown }, context, info) => {
    const list = Array.isArray(args.representations) ? args.representations : [];
    list.forEach((r: unknown, i) => {
      const rep = typeof r === 'object' && r !== null ? (r as Record<string, unknown>) : {};
      if (typeof rep.__typename !== 'string' || !names.has(rep.__typename)) {
        throw InvalidInput.field(`representations[${i}]`, `must name an entity type in __typename (one of ${[...names].join(', ')})`);
      }
      if (!isUuid(rep.id)) throw InvalidInput.field(`representations[${i}]`, `must carry the key id, a UUID (${rep.__typename} @key(fields: "id"))`);
    });
    return resolve(source, args, context, info);
  };
}

/** What introspection says of the federation spec's own definitions (every other description is in the SDL). */
const SPEC_DESCRIPTIONS: Record<string, string> = {
  _Any: 'Federation: an entity representation, `{"__typename": "Invoice", "id": "<uuid>"}` (every entity here is keyed by id).',
  _Entity: 'Federation: the entity types of this subgraph (each has @key(fields: "id")).',
  _Service: 'Federation: what a router reads of this subgraph.',
  '_Service.sdl': "Federation: this subgraph's SDL, with its @link and @key directives.",
  'Query._entities':
    "Federation: the entities named by the representations, in their order, resolved through the request's loaders (one batch per type); one of another partner, or unknown, is null.",
  'Query._entities(representations:)': 'One `{__typename, id}` per entity; at most what the operation cost allows.',
  'Query._service': "Federation: this subgraph's SDL.",
  link__Import: 'Federation (@link): a name imported from a linked spec, e.g. "@key".',
  link__Purpose: 'Federation (@link): why a spec is linked.',
  'link__Purpose.SECURITY': 'The spec affects which data a request may see.',
  'link__Purpose.EXECUTION': 'The spec affects how a request is executed.',
  federation__FieldSet: 'Federation: a selection of fields, e.g. "id".',
  '@link': 'Links a spec to this schema (here Apollo Federation v2); the URL names the spec and its version, nothing fetches it.',
  '@link(url:)': "The spec's identifying URL (name and version).",
  '@link(as:)': "A prefix for the spec's names in this schema.",
  '@link(for:)': 'Why the spec is linked.',
  '@link(import:)': 'The names used without prefix.',
  '@key': 'Federation: the fields that identify an entity; a router resolves it through Query._entities.',
  '@key(fields:)': 'The key fields.',
  '@key(resolvable:)': 'Whether this subgraph resolves the entity by the key (true here).',
  '@federation__requires': 'Federation: fields of other subgraphs a field needs (not used here).',
  '@federation__requires(fields:)': 'The required fields.',
  '@federation__provides': 'Federation: fields of a returned entity this subgraph can provide (not used here).',
  '@federation__provides(fields:)': 'The provided fields.',
  '@federation__external': 'Federation: a field owned by another subgraph (not used here).',
  '@federation__external(reason:)': 'Why the field is external.',
  '@federation__tag': 'Federation: a label for contracts (not used here).',
  '@federation__tag(name:)': 'The label.',
  '@federation__extends': 'Federation: a type defined in another subgraph (not used here).',
  '@federation__shareable': 'Federation: a field several subgraphs resolve (not used here).',
  '@federation__inaccessible': 'Federation: hidden from the supergraph API (not used here).',
  '@federation__override': 'Federation: a field taken over from another subgraph (not used here).',
  '@federation__override(from:)': 'The subgraph it is taken from.',
  '@federation__composeDirective': 'Federation: a custom directive kept in the supergraph (not used here).',
  '@federation__composeDirective(name:)': 'The directive.',
  '@federation__interfaceObject': 'Federation: an interface seen as an object here (not used here).',
};

/** Gives the spec's types, fields, arguments, enum values and directives their descriptions (in place). */
function describeFederation(schema: GraphQLSchema): void {
  const text = (coordinate: string) => SPEC_DESCRIPTIONS[coordinate];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type.name.startsWith('_') && !type.name.startsWith('__')) && !type.name.includes('__')) continue;
    type.description ??= text(type.name);
    if (isObjectType(type)) for (const f of Object.values(type.getFields())) f.description ??= text(`${type.name}.${f.name}`);
    if (isEnumType(type)) for (const v of type.getValues()) v.description ??= text(`${type.name}.${v.name}`);
  }
  const query = schema.getQueryType();
  for (const name of ['_entities', '_service']) {
    const f = query?.getFields()[name];
    if (!f) continue;
    f.description ??= text(`Query.${name}`);
    for (const a of f.args) a.description ??= text(`Query.${name}(${a.name}:)`);
  }
  for (const d of schema.getDirectives()) {
    d.description ??= text(`@${d.name}`);
    for (const a of d.args) a.description ??= text(`@${d.name}(${a.name}:)`);
  }
}
