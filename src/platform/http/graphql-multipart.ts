import { InvalidInput } from '../errors.ts';
import type { MultipartBody } from './multipart.ts';

/**
 * The GraphQL multipart request spec (https://github.com/jaydenseric/graphql-multipart-request-spec):
 * an `operations` part (the JSON request, with null where files go), a `map` part ({"0": ["variables.file"]}),
 * then one file part per map key. Returns the JSON request with each file put in place. Batches are refused.
 */
export function operationFromMultipart(body: MultipartBody): Record<string, unknown> {
  const operations = parseJson(body.fields.operations, 'operations');
  if (Array.isArray(operations)) throw new InvalidInput('batched operations are not supported in multipart requests');
  if (!operations || typeof operations !== 'object') throw new InvalidInput('the operations part must be a JSON object');
  const map = body.fields.map === undefined ? {} : parseJson(body.fields.map, 'map');
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new InvalidInput('the map part must be a JSON object');
  for (const [key, paths] of Object.entries(map as Record<string, unknown>)) {
    const file = body.files[key];
    if (!file) throw new InvalidInput(`the map names a file part "${key}" that was not sent`);
    if (!Array.isArray(paths) || paths.length === 0 || !paths.every((p) => typeof p === 'string')) {
      throw new InvalidInput(`map entry "${key}" must be a non-empty array of paths such as "variables.file"`);
    }
    for (const path of paths as string[]) place(operations as Record<string, unknown>, path, file);
  }
  return operations as Record<string, unknown>;
}

function parseJson(text: string | undefined, part: string): unknown {
  if (text === undefined) throw new InvalidInput(`the multipart request has no "${part}" part (GraphQL multipart request spec)`);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInput(`the "${part}" part is not valid JSON`);
  }
}

/** Sets `value` at a dotted path under `variables` (e.g. `variables.files.1`); the slot must exist and be null. */
function place(root: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  if (keys[0] !== 'variables' || keys.length < 2) throw new InvalidInput(`map path "${path}" must point into variables`);
  let node: unknown = root;
  for (const key of keys.slice(0, -1)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') throw new InvalidInput(`map path "${path}" is invalid`);
    node = (node as Record<string, unknown> | undefined)?.[key];
    if (!node || typeof node !== 'object') throw new InvalidInput(`map path "${path}" does not exist in operations`);
  }
  const last = keys.at(-1)!;
  const container = node as Record<string, unknown>;
  if (!(last in container) || container[last] !== null) throw new InvalidInput(`map path "${path}" must point at a null placeholder`);
  container[last] = value;
}
