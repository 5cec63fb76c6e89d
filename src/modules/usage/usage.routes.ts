import type { AnyRestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const usageRoutes: AnyRestRoute[] = [
  {
    method: 'GET',
    path: '/api/partner/usage',
    family: 'legacy',
    operation: 'LegacyUsage',
    variables: () => ({}),
    respond: (data) => ({ status: 200, body: { success: true, ...data.legacyUsage } }),
  },
];
