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
  if (!l) perRequest.set(ctx, (l = Object.assign(Object.create(LAZY) as Loaders, { [SCOPE]: new Scope(ctx), [MADE]: {} })));
  return l;
}

/**
 * What the loaders of one request share. Cache keys carry the partner, so a loader can never serve one partner's rows
 * to another; rows are looked up only among the caller's own tenants (fetched once per request).
 */
class Scope {
  #tenantIds: Promise<string[]> | undefined;
  constructor(readonly ctx: RequestContext) {}
  readonly key = (id: string) => `${this.ctx.principal.partner.id}:${id}`;
  ownTenants(): Promise<string[]> {
    return (this.#tenantIds ??= this.ctx.services.tenants.listForPartner(this.ctx.principal).then((ts) => ts.map((t) => t.id)));
  }
  /** A loader of rows by key among the caller's own tenants. */
  owned<V>(load: (tenantIds: string[], ids: readonly string[]) => Promise<V[]>): DataLoader<string, V, string> {
    return new DataLoader(async (ids) => load(await this.ownTenants(), ids), { cacheKeyFn: this.key });
  }
}

const MAKERS: { [K in keyof Loaders]: (s: Scope) => Loaders[K] } = {
  storesByTenant: (s) => new DataLoader((ids) => s.ctx.services.tenants.storesOfTenants(ids), { cacheKeyFn: s.key }),
  tenant: (s) => new DataLoader((ids) => s.ctx.services.tenants.byIds(s.ctx.principal, ids), { cacheKeyFn: s.key }),
  // Only reached through a tenant the caller was allowed to load.
  tenantUsers: (s) => new DataLoader((ids) => s.ctx.services.tenants.usersOfTenants(ids), { cacheKeyFn: s.key }),
  store: (s) => s.owned((tenants, ids) => s.ctx.services.tenants.storesByIds(tenants, ids)),
  inventoryItem: (s) => s.owned((tenants, ids) => s.ctx.services.inventory.itemsByIds(tenants, ids)),
  employee: (s) => s.owned((tenants, ids) => s.ctx.services.scheduling.employeesByIds(tenants, ids)),
  // Only reached through a schedule the caller was allowed to load.
  scheduleShifts: (s) => new DataLoader((ids) => s.ctx.services.scheduling.shiftsOf(ids), { cacheKeyFn: s.key }),
  invoice: (s) => s.owned((tenants, ids) => s.ctx.services.invoices.byIds(tenants, ids)),
  invoiceLineItems: (s) => s.owned((tenants, ids) => s.ctx.services.invoices.lineItemsOf(tenants, ids)),
  invoiceNotes: (s) => s.owned((tenants, ids) => s.ctx.services.invoices.notesOf(tenants, ids)),
  receipt: (s) => s.owned((tenants, ids) => s.ctx.services.receipts.byIds(tenants, ids)),
  receiptLineItems: (s) => s.owned((tenants, ids) => s.ctx.services.receipts.lineItemsOf(tenants, ids)),
  receiptNotes: (s) => s.owned((tenants, ids) => s.ctx.services.receipts.notesOf(tenants, ids)),
  vendor: (s) => s.owned((tenants, ids) => s.ctx.services.vendors.byIds(tenants, ids)),
  invoiceCorrections: (s) => s.owned((tenants, ids) => s.ctx.services.corrections.ofInvoices(tenants, ids)),
  vendorAccuracy: (s) =>
    new DataLoader(async (vendors: readonly Vendor[]) => s.ctx.services.corrections.accuracyOf(await s.ownTenants(), vendors), {
      cacheKeyFn: (v) => s.key(v.id),
    }),
  document: (s) => s.owned((tenants, ids) => s.ctx.services.documentLinks.byIds(tenants, ids)),
};

/**
 * Each loader is made when a resolver first asks for it (a getter on the shared prototype): a request uses one to
 * three of the seventeen, and making all of them up front cost 16–21 µs per request against 6–7 µs for two made on
 * use (a throwaway microbenchmark, 30 Nov 2026; issue 17's request path spends ~600 µs of event loop on a REST read).
 */
const SCOPE = Symbol('scope');
const MADE = Symbol('made');
type Lazy = { [SCOPE]: Scope; [MADE]: Partial<Record<keyof Loaders, unknown>> };
const LAZY = Object.defineProperties(
  {},
  Object.fromEntries(
    (Object.keys(MAKERS) as (keyof Loaders)[]).map((name) => [
      name,
      {
        get(this: Lazy) {
          return (this[MADE][name] ??= MAKERS[name](this[SCOPE]));
        },
      },
    ]),
  ),
);
