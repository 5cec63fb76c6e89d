import type { FastifyInstance } from 'fastify';
import { adapterRoutes } from './adapter.routes.ts';
import { registerRestRoutes, type RestCompatDeps } from '../../platform/rest/router.ts';
import { legacyRoutes } from './legacy.routes.ts';
import { tenantDataRoutes } from './tenant-data.routes.ts';
import { tenantRoutes } from './tenants.routes.ts';
import { v1Routes } from './v1.routes.ts';

export { familyOf, restError } from '../../platform/rest/errors.ts';

/** Every REST family of the contract, mounted on the app. */
export function mountRestCompat(app: FastifyInstance, deps: RestCompatDeps): void {
  registerRestRoutes(app, [...v1Routes, ...tenantRoutes, ...tenantDataRoutes, ...legacyRoutes, ...adapterRoutes], deps);
}
