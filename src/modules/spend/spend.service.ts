import type { Kysely } from 'kysely';
import { costsByStoreDay, countInvoices, spendByCategory, spendByVendor } from './spend.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { reportRange } from '../scheduling/labor-report.ts';
import type { CostCategory } from '../../extraction/categories.ts';
import { asCostCategory } from '../invoices/invoice.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';

export interface SpendReport {
  startDate: string;
  endDate: string;
  storeId: string | null;
  /** Sum of the invoices' totals. */
  total: number;
  invoiceCount: number;
  byCategory: Array<{ category: CostCategory; total: number }>;
  byVendor: Array<{ vendorId: string | null; vendorName: string; total: number; invoiceCount: number }>;
}

const money = (v: string) => Math.round(Number(v) * 100) / 100;

/** Spend of processed invoices over a date range: per cost category (line items) and per vendor (invoice totals). */
export function createSpendService(db: Kysely<DB>, deps: { tenants: TenantsService; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    /** Range default: the first of this month through today (UTC); at most 366 days. */
    async report(tenantId: string, input: { storeId?: string | null; startDate?: string | null; endDate?: string | null }): Promise<SpendReport> {
      if (input.storeId) await deps.tenants.requireStore(tenantId, input.storeId);
      const range = { tenantId, storeId: input.storeId ?? null, ...reportRange(input, now()) };
      const [categories, vendors] = [await spendByCategory(db, range), await spendByVendor(db, range)];
      const byVendor = vendors.map((v) => ({
        vendorId: v.vendorId,
        vendorName: v.vendorName ?? 'Unknown vendor',
        total: money(v.total),
        invoiceCount: Number(v.invoiceCount),
      }));
      return {
        startDate: range.startDate,
        endDate: range.endDate,
        storeId: range.storeId,
        // In whole cents: no float drift however many vendors.
        total: byVendor.reduce((s, v) => s + Math.round(v.total * 100), 0) / 100,
        invoiceCount: byVendor.reduce((s, v) => s + v.invoiceCount, 0),
        byCategory: categories.map((c) => ({ category: asCostCategory(c.costCategory), total: money(c.total) })),
        byVendor,
      };
    },

    /**
     * Line items of processed invoices per store, invoice day (the upload day when none was read) and cost category,
     * in cents, and how many invoices they come from: the P&L's costs (the caller checks the range).
     */
    async costsByStoreDay(tenantId: string, range: { storeId: string | null; startDate: string; endDate: string }) {
      const rows = await costsByStoreDay(db, { tenantId, ...range });
      return {
        invoiceCount: await countInvoices(db, { tenantId, ...range }),
        rows: rows.map((r) => ({ storeId: r.storeId, day: r.day, category: asCostCategory(r.costCategory), cents: Math.round(Number(r.total) * 100) })),
      };
    },
  };
}
export type SpendService = ReturnType<typeof createSpendService>;
