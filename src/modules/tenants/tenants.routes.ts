import { jsonFields } from '../../platform/rest/input.ts';
import { ok, type AnyRestRoute, TENANT } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const tenantRoutes: AnyRestRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/partner/tenants',
    family: 'v1',
    operation: 'CreateTenant',
    // `ssoProvider: null` is the documented default; GraphQL treats an absent value the same way.
    variables: ({ body }) => jsonFields(body, ['name', 'email'], ['maxLocations', 'ssoProvider']),
    respond: (data) => ({ status: 201, body: data.createTenant }),
  },
  {
    method: 'POST',
    path: `${TENANT}/stores`,
    family: 'v1',
    operation: 'CreateStore',
    variables: ({ params, body }) => ({ tenantId: params.tenantId, ...jsonFields(body, ['externalStoreId'], ['name', 'timezone']) }),
    // Idempotent on externalStoreId: 201 when created, 200 with the existing store otherwise.
    respond: (data) => ok(data.createStore.created ? 201 : 200, { store: data.createStore.store }),
  },
];
