import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

/**
 * The published REST contract (schema/openapi.yaml) as a test oracle: every REST response a test sees can be
 * checked against the documented status and body schema of its operation.
 */

const OPENAPI_FILE = new URL('../../schema/openapi.yaml', import.meta.url);
const DOC_ID = 'https://partner-api.local/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

// ajv-formats is CommonJS: under NodeNext its default import may arrive wrapped once more.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats)) as AddFormats;

let doc: Record<string, any> | undefined;
let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction | null>();

/** schema/openapi.yaml, parsed once. */
export function loadOpenApi(): Record<string, any> {
  doc ??= parse(readFileSync(OPENAPI_FILE, 'utf8')) as Record<string, any>;
  return doc;
}

/** Every operation under `paths` (method upper-cased, path as templated in the document). */
export function contractPaths(): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(loadOpenApi().paths ?? {})) {
    for (const method of METHODS) if (item[method]) out.push({ method: method.toUpperCase(), path });
  }
  return out;
}

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  body: unknown;
  contentType?: string;
}

/**
 * Throws unless the response is documented: an operation matches the method and URL path, the status is one of
 * its responses (or it has `default`), and the body validates against that response's application/json schema.
 */
export function assertMatchesContract(res: ObservedResponse): void {
  const method = res.method.toLowerCase();
  const where = `${res.method.toUpperCase()} ${res.url} → ${res.status}`;
  const template = matchPath(method, pathOf(res.url));
  if (!template) throw new Error(`${where}: no operation of the OpenAPI document matches this method and path`);

  const responses: Record<string, any> = loadOpenApi().paths[template][method].responses ?? {};
  const statusKey = String(res.status) in responses ? String(res.status) : 'default' in responses ? 'default' : undefined;
  if (!statusKey) {
    throw new Error(
      `${where}: status ${res.status} is not documented for ${res.method.toUpperCase()} ${template} ` +
        `(documented: ${Object.keys(responses).join(', ')}); body: ${preview(res.body)}`,
    );
  }

  const validate = validatorFor(template, method, statusKey);
  if (validate === null) {
    // documented without a JSON body
    if (res.body !== undefined && res.body !== null && res.body !== '') {
      throw new Error(`${where}: the contract documents no JSON body for this status, got ${preview(res.body)}`);
    }
    return;
  }
  if (res.contentType !== undefined && !/\bjson\b/i.test(res.contentType)) {
    throw new Error(`${where}: expected an application/json body, got content-type ${res.contentType}: ${preview(res.body)}`);
  }
  if (!validate(res.body)) {
    throw new Error(
      `${where}: body does not match ${res.method.toUpperCase()} ${template} ${statusKey}:\n` + formatErrors(validate.errors) + `\nbody: ${preview(res.body)}`,
    );
  }
}

function pathOf(url: string): string {
  const path = new URL(url, 'http://contract.invalid').pathname;
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * The path template with this method that matches the path. `{param}` matches one non-empty segment; when several
 * match, the one with a literal segment earliest where they differ wins (`/a/upload` over `/a/{id}`).
 */
function matchPath(method: string, path: string): string | undefined {
  const segments = path.split('/');
  let best: { template: string; score: number[] } | undefined;
  for (const [template, item] of Object.entries<Record<string, unknown>>(loadOpenApi().paths ?? {})) {
    if (!item[method]) continue;
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    const score: number[] = [];
    let ok = true;
    for (let i = 0; i < parts.length && ok; i++) {
      const part = parts[i]!;
      const segment = segments[i]!;
      if (/^\{[^}]+\}$/.test(part)) {
        ok = segment.length > 0;
        score.push(0);
      } else {
        ok = part === segment;
        score.push(1);
      }
    }
    if (ok && (!best || compareScores(score, best.score) > 0)) best = { template, score };
  }
  return best?.template;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** A cached validator of one response's JSON body, or null when that response documents no JSON body. */
function validatorFor(template: string, method: string, statusKey: string): ValidateFunction | null {
  const key = `${method} ${template} ${statusKey}`;
  const cached = validators.get(key);
  if (cached !== undefined) return cached;

  let response = loadOpenApi().paths[template][method].responses[statusKey];
  let pointer = ['paths', template, method, 'responses', statusKey];
  // a response given as `$ref: '#/components/responses/X'`: point into the component instead
  if (typeof response?.$ref === 'string') {
    pointer = refToPointer(response.$ref);
    response = pointer.reduce<any>((node, part) => node?.[part], loadOpenApi());
  }
  let validate: ValidateFunction | null = null;
  if (response?.content?.['application/json']?.schema !== undefined) {
    const ref = `${DOC_ID}#/${[...pointer, 'content', 'application/json', 'schema'].map(escapePointer).join('/')}`;
    validate = getAjv().compile({ $ref: ref });
  }
  validators.set(key, validate);
  return validate;
}

/** One Ajv holding the whole document under DOC_ID, so nested `#/components/...` refs resolve inside it. */
function getAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...loadOpenApi(), $id: DOC_ID });
  }
  return ajv;
}

function refToPointer(ref: string): string[] {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function escapePointer(part: string): string {
  // JSON pointer escaping, then URI-fragment escaping (`{`, `}`, spaces… are not allowed raw in a URI)
  return encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const allowed = e.keyword === 'enum' || e.keyword === 'const' ? ` ${JSON.stringify(e.params)}` : '';
      return `  ${e.instancePath || '(root)'} ${e.message ?? e.keyword}${allowed}`;
    })
    .join('\n');
}

function preview(body: unknown): string {
  const text = JSON.stringify(body) ?? String(body);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}
