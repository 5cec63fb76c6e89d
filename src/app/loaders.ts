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
  if (!l) perRequest.set(ctx, (l = new RequestLoaders(ctx)));
  return l;
}

/**
 * Each loader is made when a resolver first asks for it: a request uses one to three of the seventeen, and making all
 * of them up front cost 16–21 µs per request against 6–7 µs for two made on use (a throwaway microbenchmark, 30 Nov
 * 2026; issue 17's request path spends ~600 µs of event loop on a REST read).
 * Cache keys carry the partner, so a loader can never serve one partner's rows to another; rows are looked up only
 * among the caller's own tenants (fetched once per request).
 */
class RequestLoaders implements Loaders {
  readonly #ctx: RequestContext;
  readonly #made: Partial<Loaders> = {};
  #tenantIds: Promise<string[]> | undefined;

  constructor(ctx: RequestContext) {
    this.#ctx = ctx;
  }

  #key = (id: string) => `${this.#ctx.principal.partner.id}:${id}`;
  #ownTenants(): Promise<string[]> {
    return (this.#tenantIds ??= this.#ctx.services.tenants.listForPartner(this.#ctx.principal).then((ts) => ts.map((t) => t.id)));
  }
  /** The loader of `name`, made on first use. */
  #loader<K extends keyof Loaders>(name: K, make: () => Loaders[K]): Loaders[K] {
    return (this.#made[name] ??= make()) as Loaders[K];
  }
  /** A loader of rows by key among the caller's own tenants. */
  #owned<V>(load: (tenantIds: string[], ids: readonly string[]) => Promise<V[]>): DataLoader<string, V, string> {
    return new DataLoader(async (ids) => load(await this.#ownTenants(), ids), { cacheKeyFn: this.#key });
  }

  get storesByTenant() {
    return this.#loader('storesByTenant', () => new DataLoader((ids) => this.#ctx.services.tenants.storesOfTenants(ids), { cacheKeyFn: this.#key }));
  }
  get tenant() {
    return this.#loader('tenant', () => new DataLoader((ids) => this.#ctx.services.tenants.byIds(this.#ctx.principal, ids), { cacheKeyFn: this.#key }));
  }
  /** Only reached through a tenant the caller was allowed to load. */
  get tenantUsers() {
    return this.#loader('tenantUsers', () => new DataLoader((ids) => this.#ctx.services.tenants.usersOfTenants(ids), { cacheKeyFn: this.#key }));
  }
  get store() {
    return this.#loader('store', () => this.#owned((tenants, ids) => this.#ctx.services.tenants.storesByIds(tenants, ids)));
  }
  get inventoryItem() {
    return this.#loader('inventoryItem', () => this.#owned((tenants, ids) => this.#ctx.services.inventory.itemsByIds(tenants, ids)));
  }
  get employee() {
    return this.#loader('employee', () => this.#owned((tenants, ids) => this.#ctx.services.scheduling.employeesByIds(tenants, ids)));
  }
  /** Only reached through a schedule the caller was allowed to load. */
  get scheduleShifts() {
    return this.#loader('scheduleShifts', () => new DataLoader((ids) => this.#ctx.services.scheduling.shiftsOf(ids), { cacheKeyFn: this.#key }));
  }
  get invoice() {
    return this.#loader('invoice', () => this.#owned((tenants, ids) => this.#ctx.services.invoices.byIds(tenants, ids)));
  }
  get invoiceLineItems() {
    return this.#loader('invoiceLineItems', () => this.#owned((tenants, ids) => this.#ctx.services.invoices.lineItemsOf(tenants, ids)));
  }
  get invoiceNotes() {
    return this.#loader('invoiceNotes', () => this.#owned((tenants, ids) => this.#ctx.services.invoices.notesOf(tenants, ids)));
  }
  get receipt() {
    return this.#loader('receipt', () => this.#owned((tenants, ids) => this.#ctx.services.receipts.byIds(tenants, ids)));
  }
  get receiptLineItems() {
    return this.#loader('receiptLineItems', () => this.#owned((tenants, ids) => this.#ctx.services.receipts.lineItemsOf(tenants, ids)));
  }
  get receiptNotes() {
    return this.#loader('receiptNotes', () => this.#owned((tenants, ids) => this.#ctx.services.receipts.notesOf(tenants, ids)));
  }
  get vendor() {
    return this.#loader('vendor', () => this.#owned((tenants, ids) => this.#ctx.services.vendors.byIds(tenants, ids)));
  }
  get invoiceCorrections() {
    return this.#loader('invoiceCorrections', () => this.#owned((tenants, ids) => this.#ctx.services.corrections.ofInvoices(tenants, ids)));
  }
  get vendorAccuracy() {
    return this.#loader(
      'vendorAccuracy',
      () =>
        new DataLoader(async (vendors: readonly Vendor[]) => this.#ctx.services.corrections.accuracyOf(await this.#ownTenants(), vendors), {
          cacheKeyFn: (v) => this.#key(v.id),
        }),
    );
  }
  get document() {
    return this.#loader('document', () => this.#owned((tenants, ids) => this.#ctx.services.documentLinks.byIds(tenants, ids)));
  }
}
