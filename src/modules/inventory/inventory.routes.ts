import { jsonFields, optionalString } from '../../platform/rest/input.ts';
import { ok, type AnyRestRoute, TENANT } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const inventoryRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: `${TENANT}/inventory/items`,
    family: 'v1',
    operation: 'ListInventoryItems',
    variables: ({ params, query }) => ({ tenantId: params.tenantId, storeId: optionalString(query, 'storeId') }),
    respond: (data) => ok(200, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/inventory/counts/{storeId}`,
    family: 'v1',
    operation: 'ListInventoryCounts',
    variables: ({ params }) => ({ tenantId: params.tenantId, storeId: params.storeId }),
    respond: (data) => ok(200, data),
  },
  {
    method: 'POST',
    path: `${TENANT}/inventory/counts`,
    family: 'v1',
    operation: 'CreateInventoryCount',
    variables: ({ params, body }) => ({ tenantId: params.tenantId, ...jsonFields(body, ['storeId', 'itemId', 'quantity'], ['unit', 'notes']) }),
    respond: (data) => ok(201, data),
  },
  {
    method: 'GET',
    path: `${TENANT}/inventory/summary`,
    family: 'v1',
    operation: 'GetInventorySummary',
    variables: ({ params, query }) => ({ tenantId: params.tenantId, storeId: optionalString(query, 'storeId') }),
    respond: (data) => ok(200, data.inventorySummary),
  },
];
