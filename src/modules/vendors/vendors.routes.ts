import { optionalInt } from '../../platform/rest/input.ts';
import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const vendorRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/partner/vendors',
    family: 'v1',
    operation: 'ListVendors',
    variables: ({ query }) => ({ limit: optionalInt(query, 'limit'), offset: optionalInt(query, 'offset') }),
    respond: (data) => ({ status: 200, body: { vendors: data.vendors } }),
  },
];
