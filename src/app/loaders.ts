import DataLoader from 'dataloader';
import type { RequestContext } from './context.ts';
import type { InventoryItem } from '../modules/inventory/inventory.service.ts';
import type { Invoice, LineItem } from '../modules/invoices/invoice.ts';
import type { ExtractionAccuracy, InvoiceCorrection } from '../modules/invoices/invoice-corrections.ts';
import type { DocumentRow } from '../modules/documents/documents.queries.ts';
import type { Receipt } from '../modules/receipts/receipts.service.ts';
import type { Employee, Shift } from '../modules/scheduling/scheduling.model.ts';
import type { StoreRow, TenantRow, UserRow } from '../modules/tenants/tenants.service.ts';
import type { Vendor } from '../modules/vendors/vendors.service.ts';

/** Per-request DataLoaders, created on first use and dropped with the request's context. */
export interface Loaders {
  storesByTenant: DataLoader<string, StoreRow[], string>;
  tenant: DataLoader<string, TenantRow | null, string>;
  tenantUsers: DataLoader<string, UserRow[], string>;
  store: DataLoader<string, StoreRow | null, string>;
  inventoryItem: DataLoader<string, InventoryItem | null, string>;
  employee: DataLoader<string, Employee | null, string>;
  scheduleShifts: DataLoader<string, Shift[], string>;
  invoice: DataLoader<string, Invoice | null, string>;
  invoiceLineItems: DataLoader<string, LineItem[], string>;
  invoiceNotes: DataLoader<string, string[], string>;
  receipt: DataLoader<string, Receipt | null, string>;
  receiptLineItems: DataLoader<string, LineItem[], string>;
  receiptNotes: DataLoader<string, string[], string>;
  vendor: DataLoader<string, Vendor | null, string>;
  invoiceCorrections: DataLoader<string, InvoiceCorrection[], string>;
  vendorAccuracy: DataLoader<Vendor, ExtractionAccuracy, string>;
  document: DataLoader<string, DocumentRow | null, string>;
}

const perRequest = new WeakMap<RequestContext, Loaders>();

export function loaders(ctx: RequestContext): Loaders {
  let l = perRequest.get(ctx);
  if (!l) {
    const partnerId = ctx.principal.partner.id;
    // Cache keys carry the partner, so a loader can never serve one partner's rows to another; rows are
    // looked up only among the caller's own tenants (fetched once per request).
    const key = (id: string) => `${partnerId}:${id}`;
    let tenantIds: Promise<string[]> | undefined;
    const ownTenants = () => (tenantIds ??= ctx.services.tenants.listForPartner(ctx.principal).then((ts) => ts.map((t) => t.id)));
    l = {
      storesByTenant: new DataLoader((ids) => ctx.services.tenants.storesOfTenants(ids), { cacheKeyFn: key }),
      tenant: new DataLoader((ids) => ctx.services.tenants.byIds(ctx.principal, ids), { cacheKeyFn: key }),
      // Only reached through a tenant the caller was allowed to load.
      tenantUsers: new DataLoader((ids) => ctx.services.tenants.usersOfTenants(ids), { cacheKeyFn: key }),
      store: new DataLoader(async (ids) => ctx.services.tenants.storesByIds(await ownTenants(), ids), { cacheKeyFn: key }),
      inventoryItem: new DataLoader(async (ids) => ctx.services.inventory.itemsByIds(await ownTenants(), ids), { cacheKeyFn: key }),
      employee: new DataLoader(async (ids) => ctx.services.scheduling.employeesByIds(await ownTenants(), ids), { cacheKeyFn: key }),
      // Only reached through a schedule the caller was allowed to load.
      scheduleShifts: new DataLoader((ids) => ctx.services.scheduling.shiftsOf(ids), { cacheKeyFn: key }),
      invoice: new DataLoader(async (ids) => ctx.services.invoices.byIds(await ownTenants(), ids), { cacheKeyFn: key }),
      invoiceLineItems: new DataLoader(async (ids) => ctx.services.invoices.lineItemsOf(await ownTenants(), ids), {
        cacheKeyFn: key,
      }),
      invoiceNotes: new DataLoader(async (ids) => ctx.services.invoices.notesOf(await ownTenants(), ids), { cacheKeyFn: key }),
      receipt: new DataLoader(async (ids) => ctx.services.receipts.byIds(await ownTenants(), ids), { cacheKeyFn: key }),
      receiptLineItems: new DataLoader(async (ids) => ctx.services.receipts.lineItemsOf(await ownTenants(), ids), {
        cacheKeyFn: key,
      }),
      receiptNotes: new DataLoader(async (ids) => ctx.services.receipts.notesOf(await ownTenants(), ids), { cacheKeyFn: key }),
      vendor: new DataLoader(async (ids) => ctx.services.vendors.byIds(await ownTenants(), ids), { cacheKeyFn: key }),
      invoiceCorrections: new DataLoader(async (ids) => ctx.services.corrections.ofInvoices(await ownTenants(), ids), { cacheKeyFn: key }),
      vendorAccuracy: new DataLoader(async (vendors) => ctx.services.corrections.accuracyOf(await ownTenants(), vendors), { cacheKeyFn: (v) => key(v.id) }),
      document: new DataLoader(async (ids) => ctx.services.documentLinks.byIds(await ownTenants(), ids), { cacheKeyFn: key }),
    };
    perRequest.set(ctx, l);
  }
  return l;
}
