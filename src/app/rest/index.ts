import type { FastifyInstance } from 'fastify';
import { registerRestRoutes, type RestCompatDeps } from '../../platform/rest/router.ts';
import { vendorRoutes } from '../../modules/vendors/vendors.routes.ts';
import { invoiceRoutes } from '../../modules/invoices/invoices.routes.ts';
import { receiptRoutes } from '../../modules/receipts/receipts.routes.ts';
import { searchRoutes } from '../../modules/search/search.routes.ts';
import { webhookRoutes } from '../../modules/webhooks/webhooks.routes.ts';
import { tenantRoutes } from '../../modules/tenants/tenants.routes.ts';
import { embedRoutes } from '../../modules/embed/embed.routes.ts';
import { inventoryRoutes } from '../../modules/inventory/inventory.routes.ts';
import { schedulingRoutes } from '../../modules/scheduling/scheduling.routes.ts';
import { usageRoutes } from '../../modules/usage/usage.routes.ts';
import { adapterRoutes } from '../../modules/adapter/adapter.routes.ts';

export { familyOf, restError } from '../../platform/rest/errors.ts';

/** Every REST route of the contract (v1, legacy and adapter families), each defined in its domain module. */
export function mountRestCompat(app: FastifyInstance, deps: RestCompatDeps): void {
  registerRestRoutes(
    app,
    [
      ...vendorRoutes,
      ...invoiceRoutes,
      ...receiptRoutes,
      ...searchRoutes,
      ...webhookRoutes,
      ...tenantRoutes,
      ...embedRoutes,
      ...inventoryRoutes,
      ...schedulingRoutes,
      ...usageRoutes,
      ...adapterRoutes,
    ],
    deps,
  );
}
