import { InvalidInput } from '../errors.ts';
import { MultipartBody } from '../http/multipart.ts';
import { type UploadedFile } from '../lib/uploaded-file.ts';

// Type-level parsing of query strings and bodies. Ranges and business rules live in the services, so
// GraphQL and REST callers get the same limits and messages.
type Query = Record<string, unknown>;

function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw InvalidInput.field(name, 'must be given once');
  return String(value);
}

export function optionalInt(query: Query, name: string): number | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(raw.trim())) throw InvalidInput.field(name, `must be an integer (got "${raw}")`);
  return Number(raw);
}

export function optionalString(query: Query, name: string): string | undefined {
  return single(query, name);
}

export function requiredString(query: Query, name: string): string {
  const raw = single(query, name);
  if (raw === undefined || raw === '') throw InvalidInput.field(name, 'is required');
  return raw;
}

export function optionalBoolean(query: Query, name: string): boolean | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw InvalidInput.field(name, `must be true or false (got "${raw}")`);
}

/** A JSON request body that must be an object. */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new InvalidInput('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The parts of a multipart body (anything else means the client did not send multipart/form-data). */
function form(body: unknown, file: string): MultipartBody {
  if (body instanceof MultipartBody) return body;
  throw InvalidInput.field(file, `is required: send multipart/form-data with the file in a part named "${file}"`);
}

/** The uploaded file of a multipart body. */
export function requiredFile(body: unknown, name: string): UploadedFile {
  const parts = form(body, name);
  const file = parts.files[name];
  if (file) return file;
  if (name in parts.fields) throw InvalidInput.field(name, 'must be a file part (with a filename), not a text field');
  throw InvalidInput.field(name, `is required: send the file in a multipart part named "${name}"`);
}

/** A text field of a multipart body; an empty field counts as absent (HTML forms send empty inputs). */
export function formField(body: unknown, name: string): string | undefined {
  if (!(body instanceof MultipartBody)) return undefined;
  if (body.files[name]) throw InvalidInput.field(name, 'must be a text field, not a file');
  const value = body.fields[name];
  return value === '' ? undefined : value;
}

/** A true/false text field of a multipart body. */
export function formBoolean(body: unknown, name: string): boolean | undefined {
  const value = formField(body, name);
  return value === undefined ? undefined : optionalBoolean({ [name]: value }, name);
}

/** A text value that must be present (a query parameter or a JSON field); its length is checked by the service. */
export function requiredText(value: unknown, name: string): string {
  if (value === undefined || value === null) throw InvalidInput.field(name, 'is required');
  if (typeof value !== 'string') throw InvalidInput.field(name, 'must be a string');
  return value;
}

/** Fields of a JSON object body as operation variables: required ones must be present (not null). */
export function jsonFields(body: unknown, required: readonly string[], optional: readonly string[]): Record<string, unknown> {
  const json = jsonObject(body);
  const variables: Record<string, unknown> = {};
  for (const name of required) {
    if (json[name] === undefined || json[name] === null) throw InvalidInput.field(name, 'is required');
    variables[name] = json[name];
  }
  for (const name of optional) variables[name] = json[name] ?? undefined;
  return variables;
}

/** The legacy `store` form flag: whether an extracted document is also recorded (default false). */
export const storeFlag = (body: unknown) => formBoolean(body, 'store') ?? false;
