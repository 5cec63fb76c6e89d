import fc from 'fast-check';
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { authArb, type FuzzCase, type FuzzContext } from './cases.ts';
import { printLiteral } from './graphql-literals.ts';
import { graphqlTransportArb } from './graphql-transport.ts';
import { atLimit, graphqlLimits } from './limits.ts';
import { type Slot, slotFromGraphQL } from './slots.ts';
import { type Hostility, hostilityArb, valueFor } from './values.ts';

// An operation for every field of Query, Mutation and Subscription, with every argument (of the root field and of
// the fields selected below it) passed as a variable, written inline, or left out; the values plausible or hostile
// (input objects, enums, lists, Upload through multipart), the variables sometimes declared with the wrong type.

export interface VarDef {
  name: string;
  type: string;
  value: unknown;
  upload: boolean;
}

export interface Operation {
  route: string;
  kind: 'query' | 'mutation' | 'subscription';
  document: string;
  vars: VarDef[];
  /** The arguments given a value, as `Type.field(argument)`. */
  args: string[];
}

interface Piece {
  text: string;
  vars: VarDef[];
  args: string[];
}

/** A piece of document whose variable names get the prefix of where it is used (so pieces can be shared). */
type Render = (prefix: string) => Piece;

const WRONG_VARIABLE_TYPES = ['String', 'Int', '[String]', 'UUID!', 'JSONObject', 'NoSuchType', 'Boolean!', '[[Int!]!]'];

export function rootFields(schema: GraphQLSchema): Array<{ kind: Operation['kind']; typeName: string; field: GraphQLField<unknown, unknown> }> {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const;
  return roots.flatMap(([kind, type]) => (type ? Object.values(type.getFields()).map((field) => ({ kind, typeName: type.name, field })) : []));
}

function argArb(
  arg: GraphQLArgument,
  owner: GraphQLField<unknown, unknown>,
  field: string,
  ctx: FuzzContext,
  hostility: Hostility,
): fc.Arbitrary<Render | null> {
  const slot: Slot = slotFromGraphQL(arg.type, arg.name, graphqlLimits(arg, owner));
  const declared = String(arg.type);
  const asVariable =
    (type: string, value: unknown, upload: boolean): Render =>
    (prefix) => ({
      text: `${arg.name}: $${prefix}${arg.name}`,
      vars: [{ name: `${prefix}${arg.name}`, type, value, upload }],
      args: [`${field}(${arg.name})`],
    });
  if (slot.kind === 'upload') return fc.constant(asVariable(declared, null, true));
  const value = valueFor(slot, ctx.ids, hostility);
  const type = hostility
    ? fc.oneof({ weight: 12, arbitrary: fc.constant(declared) }, { weight: 1, arbitrary: fc.constantFrom(...WRONG_VARIABLE_TYPES) })
    : fc.constant(declared);
  const omitWeight = isNonNullType(arg.type) ? (hostility ? 1 : 0) : 4;
  // At, below or above one of its limits (counted apart: `Type.field(argument)@limit`).
  const limit = atLimit(slot, slot.kind === 'array' ? valueFor(slot.items, ctx.ids, 0) : undefined);
  const atLimitArb = (limit ?? fc.constant(undefined)).map((v): Render => (prefix) => {
    const piece = asVariable(declared, v, false)(prefix);
    return { ...piece, args: [...piece.args, `${field}(${arg.name})@limit`] };
  });
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(value, type).map(([v, t]) => asVariable(t, v, false)) },
    { weight: limit ? 2 : 0, arbitrary: atLimitArb },
    { weight: 3, arbitrary: value.map((v): Render => () => ({ text: `${arg.name}: ${printLiteral(v, slot)}`, vars: [], args: [`${field}(${arg.name})`] })) },
    { weight: omitWeight, arbitrary: fc.constant(null) },
  );
}

/** Field arbitraries are built once per field, depth and hostility: building them is what costs. */
const built = new WeakMap<FuzzContext, Map<string, fc.Arbitrary<Render>>>();

/** `name(args) { selection }` for a field, its arguments generated, its selection down to `depth` levels. */
function fieldArb(owner: string, field: GraphQLField<unknown, unknown>, depth: number, ctx: FuzzContext, hostility: Hostility): fc.Arbitrary<Render> {
  const cache = built.get(ctx) ?? new Map<string, fc.Arbitrary<Render>>();
  built.set(ctx, cache);
  const key = `${owner}.${field.name}/${depth}/${hostility}`;
  const known = cache.get(key);
  if (known) return known;
  const args = fc.tuple(...field.args.map((a) => argArb(a, field, `${owner}.${field.name}`, ctx, hostility)));
  const arb = fc.tuple(args, selectionArb(getNamedType(field.type), depth, ctx, hostility)).map(([given, sel]): Render => (prefix) => {
    const present = given.filter((g): g is Render => g !== null).map((g) => g(prefix));
    const inner = sel(`${prefix}${field.name}_`);
    const argText = present.length ? `(${present.map((g) => g.text).join(', ')})` : '';
    return {
      text: `${field.name}${argText}${inner.text}`,
      vars: [...present.flatMap((g) => g.vars), ...inner.vars],
      args: [...present.flatMap((g) => g.args), ...inner.args],
    };
  });
  cache.set(key, arb);
  return arb;
}

/** The leaf fields of a type, plus up to two of its object fields (with their arguments) while depth remains. */
function selectionArb(type: GraphQLNamedType, depth: number, ctx: FuzzContext, hostility: Hostility): fc.Arbitrary<Render> {
  if (isLeafType(type)) return fc.constant(() => ({ text: '', vars: [], args: [] }));
  if (isAbstractType(type) || !isObjectType(type)) return fc.constant(() => ({ text: ' { __typename }', vars: [], args: [] }));
  const fields = Object.values(type.getFields());
  const leaves = fields.filter((f) => isLeafType(getNamedType(f.type)) && f.args.length === 0);
  const objects = fields.filter((f) => !leaves.includes(f));
  const children = depth > 0 && objects.length ? fc.subarray(objects, { maxLength: Math.min(2, objects.length) }) : fc.constant([]);
  return children.chain((chosen) =>
    fc.tuple(...chosen.map((f) => fieldArb(type.name, f, depth - 1, ctx, hostility))).map((renders): Render => (prefix) => {
      const pieces = renders.map((r) => r(prefix));
      return {
        text: ` { __typename ${leaves.map((f) => f.name).join(' ')} ${pieces.map((p) => p.text).join(' ')} }`,
        vars: pieces.flatMap((p) => p.vars),
        args: pieces.flatMap((p) => p.args),
      };
    }),
  );
}

/** The operation around one root field. */
export function operationArb(
  kind: Operation['kind'],
  typeName: string,
  field: GraphQLField<unknown, unknown>,
  ctx: FuzzContext,
  hostility: Hostility,
): fc.Arbitrary<Operation> {
  return fieldArb(typeName, field, 2, ctx, hostility).map((render) => {
    const piece = render('v_');
    const defs = piece.vars.map((v) => `$${v.name}: ${v.type}`).join(', ');
    return {
      route: `graphql ${typeName}.${field.name}`,
      kind,
      document: `${kind} Fuzz${defs ? `(${defs})` : ''} { ${piece.text} }`,
      vars: piece.vars,
      args: piece.args,
    };
  });
}

/** Requests for one root field, over HTTP (POST, GET, multipart) or graphql-ws. */
export function graphqlFieldCaseArb(
  kind: Operation['kind'],
  typeName: string,
  field: GraphQLField<unknown, unknown>,
  ctx: FuzzContext,
): fc.Arbitrary<FuzzCase> {
  const auth = authArb('either', ctx);
  const levels = new Map(
    ([0, 1, 4] as const).map((h) => [h, fc.tuple(operationArb(kind, typeName, field, ctx, h), auth).chain(([op, a]) => graphqlTransportArb(op, a))]),
  );
  return hostilityArb.chain((h) => levels.get(h)!);
}
