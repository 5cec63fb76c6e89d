import { jsonObject, optionalInt, optionalString, requiredText } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const searchRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/partner/search',
    family: 'v1',
    operation: 'Search',
    variables: ({ query }) => ({
      query: requiredText(optionalString(query, 'q'), 'q'),
      type: optionalString(query, 'type'),
      limit: optionalInt(query, 'limit'),
    }),
    respond: (data) => ({ status: 200, body: { success: true, data: data.search } }),
  },
  {
    method: 'POST',
    path: '/api/v1/partner/tenants/{tenantId}/search',
    family: 'v1',
    operation: 'Search',
    variables: ({ params, body }) => {
      const json = jsonObject(body);
      return {
        tenantId: params.tenantId,
        query: requiredText(json.query, 'query'),
        type: json.type ?? undefined,
        limit: json.limit ?? undefined,
      };
    },
    respond: (data) => ({ status: 200, body: { success: true, data: data.search } }),
  },
];
