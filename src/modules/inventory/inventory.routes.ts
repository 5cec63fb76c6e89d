import { jsonFields, optionalString } from '../../platform/rest/input.ts';
import { ok, type RestRoute, TENANT } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const inventoryRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: `${TENANT}/inventory/items`,
    family: 'v1',
    operation: 'ListInventoryItems',
    variables: ({ params, query }) => ({ tenantId: params.tenantId, storeId: optionalString(query, 'storeId') }),
    respond: (data: { items: unknown[] }) => ok(200, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/inventory/counts/{storeId}`,
    family: 'v1',
    operation: 'ListInventoryCounts',
    variables: ({ params }) => ({ tenantId: params.tenantId, storeId: params.storeId }),
    respond: (data: { counts: unknown[] }) => ok(200, data),
  },
  {
    method: 'POST',
    path: `${TENANT}/inventory/counts`,
    family: 'v1',
    operation: 'CreateInventoryCount',
    variables: ({ params, body }) => ({ tenantId: params.tenantId, ...jsonFields(body, ['storeId', 'itemId', 'quantity'], ['unit', 'notes']) }),
    respond: (data: { count: unknown }) => ok(201, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/inventory/summary`,
    family: 'v1',
    operation: 'GetInventorySummary',
    variables: ({ params, query }) => ({ tenantId: params.tenantId, storeId: optionalString(query, 'storeId') }),
    respond: (data: { inventorySummary: unknown }) => ok(200, data.inventorySummary),
  },
];
