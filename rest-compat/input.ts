import { InvalidInput } from '../src/errors.ts';

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
