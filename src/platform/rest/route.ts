import type { Family } from './errors.ts';
import type { StoredOperations } from './generated/operations.ts';

export type OperationName = keyof StoredOperations;

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * A REST route is a stored GraphQL operation (operations/<operation>.graphql) plus two mappings.
 * It owns no business logic: auth, validation and errors come from the schema's resolvers and services.
 * `respond` takes the operation's result type, generated from the operation (`npm run codegen`).
 */
export interface RestRoute<Name extends OperationName> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The contract path, `{param}` style. */
  path: string;
  family: Family;
  /** File name (without .graphql) under the module's operations/ — also the operation's name. */
  operation: Name;
  /** path/query/body → operation variables; throws InvalidInput naming the field. */
  variables: (req: RestRequest) => Record<string, unknown>;
  /** GraphQL data → REST status and body (aliases in the operation already give the field names). */
  respond: (data: StoredOperations[Name]['data']) => { status: number; body: unknown };
}

/** A route of any stored operation; in a list, each route's `respond` is checked against its own operation. */
export type AnyRestRoute = { [Name in OperationName]: RestRoute<Name> }[OperationName];

/** The path prefix of a sub-tenant's resources. */
export const TENANT = '/api/v1/partner/tenants/{tenantId}';

/** The contract's success envelope {success: true, data} of the tenant routes (DESIGN §9). */
export const ok = (status: number, data: unknown) => ({ status, body: { success: true, data } });
