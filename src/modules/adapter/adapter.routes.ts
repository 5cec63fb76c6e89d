import { InvalidInput } from '../../platform/errors.ts';
import { isUuid } from '../../platform/lib/ids.ts';
import { jsonObject } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

// The object-storage adapter (Authorization: Bearer, scope invoices:read): the contract's snake_case body → the
// AdapterExtractInput of the GraphQL mutation; the aliases of the stored operation give the response's names.
const FIELDS = {
  source_url: 'sourceUrl',
  source_uri: 'sourceUri',
  correlation_id: 'correlationId',
  document_type: 'documentType',
  profile: 'profile',
  tenant_id: 'tenantId',
} as const;
const DOCUMENT_TYPES = ['invoice', 'receipt'];

export const adapterRoutes: AnyRestRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/partner/extract',
    family: 'adapter',
    operation: 'AdapterExtract',
    variables: ({ body }) => {
      const json = jsonObject(body);
      const input: Record<string, string> = {};
      for (const [name, variable] of Object.entries(FIELDS)) {
        const value = json[name];
        if (value === undefined || value === null) continue;
        if (typeof value !== 'string') throw InvalidInput.field(name, 'must be a string');
        input[variable] = value;
      }
      if (input.tenantId !== undefined && !isUuid(input.tenantId)) throw InvalidInput.field('tenant_id', 'must be a UUID');
      if (input.documentType !== undefined && !DOCUMENT_TYPES.includes(input.documentType)) {
        throw InvalidInput.field('document_type', `must be invoice or receipt (got "${input.documentType.slice(0, 40)}")`);
      }
      return { input };
    },
    respond: (data) => ({ status: 200, body: data.adapterExtract }),
  },
];
