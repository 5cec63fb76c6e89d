import type { RestRoute } from '../../platform/rest/route.ts';

// The REST routes whose stored operations live in ./operations/ (a route = operation + input/output mapping).

export const usageRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/partner/usage',
    family: 'legacy',
    operation: 'LegacyUsage',
    variables: () => ({}),
    respond: (data: { legacyUsage: Record<string, unknown> }) => ({ status: 200, body: { success: true, ...data.legacyUsage } }),
  },
];
