import { jsonFields } from '../../platform/rest/input.ts';
import { ok, type AnyRestRoute, TENANT } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const embedRoutes: AnyRestRoute[] = [
  {
    method: 'POST',
    path: `${TENANT}/embed/auth`,
    family: 'v1',
    operation: 'CreateEmbedSession',
    variables: ({ params, body }) => ({ tenantId: params.tenantId, ...jsonFields(body, ['email', 'name', 'externalStoreId'], ['role', 'page']) }),
    respond: (data) => ok(200, data.createEmbedSession),
  },
];
