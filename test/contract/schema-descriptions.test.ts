import {
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
} from 'graphql';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, test } from 'vitest';
import { buildSchema } from '../../src/app/schema.ts';
import { loadOpenApi } from '../helpers/openapi.ts';

// Issue 18, point 2: introspection describes 100% of our types, fields, arguments, input fields, enum values and
// directives, and every OpenAPI operation has a summary, a description and examples. Each test prints its coverage
// figures (described/total per kind) and fails with the list of what is missing.

type Kind = 'types' | 'fields' | 'arguments' | 'input fields' | 'enum values' | 'directives';
const KINDS: Kind[] = ['types', 'fields', 'arguments', 'input fields', 'enum values', 'directives'];

interface Coverage {
  total: Record<Kind, number>;
  described: Record<Kind, number>;
  missing: string[];
}

const described = (text: string | null | undefined) => typeof text === 'string' && text.trim().length > 0;

/** Walks every named type of ours (not `__*`, not String/Int/Float/Boolean/ID) and our own directives. */
export function descriptionCoverage(schema: GraphQLSchema): Coverage {
  const zero = () => Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const c: Coverage = { total: zero(), described: zero(), missing: [] };
  const count = (kind: Kind, coordinate: string, text: string | null | undefined) => {
    c.total[kind]++;
    if (described(text)) c.described[kind]++;
    else c.missing.push(coordinate);
  };

  const types = Object.values(schema.getTypeMap())
    .filter((t: GraphQLNamedType) => !t.name.startsWith('__') && !isSpecifiedScalarType(t))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const type of types) {
    count('types', type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        count('fields', `${type.name}.${field.name}`, field.description);
        for (const arg of field.args) count('arguments', `${type.name}.${field.name}(${arg.name}:)`, arg.description);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) count('input fields', `${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) count('enum values', `${type.name}.${value.name}`, value.description);
    }
  }
  for (const directive of schema.getDirectives().filter((d) => !isSpecifiedDirective(d))) {
    count('directives', `@${directive.name}`, directive.description);
    for (const arg of directive.args) count('arguments', `@${directive.name}(${arg.name}:)`, arg.description);
  }
  return c;
}

function report(title: string, rows: Array<[string, number, number]>): string {
  const all = rows.reduce<[number, number]>(([ds, ts], [, d, t]) => [ds + d, ts + t], [0, 0]);
  const pct = (d: number, t: number) => (t === 0 ? '100.0' : ((100 * d) / t).toFixed(1));
  const lines = rows.map(([k, d, t]) => `  ${k.padEnd(24)} ${String(d).padStart(4)}/${String(t).padEnd(4)} ${pct(d, t)}%`);
  return [title, ...lines, `  ${'all'.padEnd(24)} ${String(all[0]).padStart(4)}/${String(all[1]).padEnd(4)} ${pct(all[0], all[1])}%`].join('\n');
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const DOC_ID = 'https://partner-api.local/openapi.json';

// ajv-formats is CommonJS: under NodeNext its default import may arrive wrapped once more (as in helpers/openapi.ts).
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)) as AddFormats;

/** The example values of a media type: `example`, or each of `examples` (an Example Object or a $ref to one). */
function exampleValues(media: Record<string, any> | undefined, doc: Record<string, any>): Array<[name: string, value: unknown]> {
  if (!media) return [];
  if (media.example !== undefined) return [['example', media.example]];
  return Object.entries<Record<string, any>>(media.examples ?? {}).map(([name, raw]) => {
    const example = raw.$ref ? resolveRef(doc, raw.$ref as string) : raw;
    return [name, example?.value];
  });
}

const pointer = (parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function resolveRef(doc: Record<string, any>, ref: string): Record<string, any> | undefined {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

describe('schema descriptions (issue 18, point 2)', () => {
  test('every type, field, argument, input field, enum value and directive of the GraphQL schema is described', () => {
    const c = descriptionCoverage(buildSchema());
    console.log(
      report(
        'GraphQL description coverage (described/total):',
        KINDS.map((k) => [k, c.described[k], c.total[k]]),
      ),
    );
    expect(c.total.types).toBeGreaterThan(50);
    expect(c.missing, `undescribed schema coordinates (${c.missing.length}):\n${c.missing.join('\n')}`).toEqual([]);
  });

  test('every OpenAPI operation has a summary and a description; every request body and response has an example that matches its schema', () => {
    const doc = loadOpenApi();
    const missing: string[] = [];
    type Tallied = 'summaries' | 'descriptions' | 'request bodies' | '2xx responses' | 'other responses';
    const tally: Record<Tallied, [number, number]> = {
      summaries: [0, 0],
      descriptions: [0, 0],
      'request bodies': [0, 0],
      '2xx responses': [0, 0],
      'other responses': [0, 0],
    };
    const count = (kind: Tallied, ok: boolean, where: string) => {
      tally[kind][1]++;
      if (ok) tally[kind][0]++;
      else missing.push(where);
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...doc, $id: DOC_ID });
    const invalid: string[] = [];
    /** Counts the media type's examples and checks each against the media type's schema (at `at` in the document). */
    const checkMedia = (kind: Tallied, where: string, media: Record<string, any>, at: string[]) => {
      const values = exampleValues(media, doc);
      count(kind, values.length > 0 && values.every(([, v]) => v !== undefined), `${where} example`);
      if (media.schema === undefined) return;
      const validate = ajv.compile({ $ref: `${DOC_ID}#/${pointer([...at, 'schema'])}` });
      for (const [name, value] of values) {
        if (value !== undefined && !validate(value)) invalid.push(`${where} example ${name}: ${ajv.errorsText(validate.errors)}`);
      }
    };
    for (const section of ['paths', 'webhooks']) {
      const prefix = section === 'webhooks' ? 'webhook ' : '';
      for (const [path, item] of Object.entries<Record<string, any>>(doc[section] ?? {})) {
        for (const method of METHODS) {
          const op = item[method] as Record<string, any> | undefined;
          if (!op) continue;
          const where = `${prefix}${method.toUpperCase()} ${path}`;
          count('summaries', described(op.summary), `${where}: summary`);
          count('descriptions', described(op.description), `${where}: description`);
          for (const [type, media] of Object.entries<Record<string, any>>(op.requestBody?.content ?? {})) {
            checkMedia('request bodies', `${where}: request body ${type}`, media, [section, path, method, 'requestBody', 'content', type]);
          }
          for (const [status, raw] of Object.entries<Record<string, any>>(op.responses ?? {})) {
            const at = raw.$ref ? (raw.$ref as string).slice(2).split('/') : [section, path, method, 'responses', status];
            const response = raw.$ref ? resolveRef(doc, raw.$ref as string) : raw;
            for (const [type, media] of Object.entries<Record<string, any>>(response?.content ?? {})) {
              const kind: Tallied = /^2/.test(status) ? '2xx responses' : 'other responses';
              checkMedia(kind, `${where}: response ${status} ${type}`, media, [...at, 'content', type]);
            }
          }
        }
      }
    }
    console.log(
      report(
        'OpenAPI coverage (present/total):',
        Object.entries(tally).map(([k, [d, t]]) => [k, d, t]),
      ),
    );
    expect(tally.summaries[1]).toBeGreaterThan(20);
    expect(missing, `missing in schema/openapi.yaml (${missing.length}):\n${missing.join('\n')}`).toEqual([]);
    expect(invalid, `examples that do not match their schema (${invalid.length}):\n${invalid.join('\n')}`).toEqual([]);
  });
});
