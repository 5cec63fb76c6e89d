import { optionalInt } from './input.ts';
import type { RestRoute } from './route.ts';

export const v1Routes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/v1/partner/vendors',
    family: 'v1',
    operation: 'ListVendors',
    variables: ({ query }) => ({ limit: optionalInt(query, 'limit'), offset: optionalInt(query, 'offset') }),
    respond: (data: { vendors: unknown[] }) => ({ status: 200, body: { vendors: data.vendors } }),
  },
  {
    method: 'GET',
    path: '/api/v1/partner/invoices/{id}',
    family: 'v1',
    operation: 'GetInvoice',
    variables: ({ params }) => ({ id: params.id }),
    respond: (data: { invoice: unknown }) => ({ status: 200, body: data.invoice }),
  },
];
