import type { Kysely } from 'kysely';
import type { Principal } from '../../platform/auth/authenticate.ts';
import type { DB, InvoiceCorrectionField } from '../../platform/db/types.ts';
import { Conflict, InvalidInput, NotFound } from '../../platform/errors.ts';
import { optionalText } from '../../platform/lib/text.ts';
import { adjustVendorSpend, upsertVendor } from '../vendors/vendors.queries.ts';
import { normalizeVendorName } from '../vendors/vendor-name.ts';
import type { SearchService } from '../search/search.service.ts';
import type { TenantsService } from '../tenants/tenants.service.ts';
import { correctionCounts, insertCorrections, listCorrections, lockInvoice } from './invoice-corrections.queries.ts';
import { correctedEvidence, evidenceColumn } from './evidence.ts';
import { type Invoice, type LineItem, toInvoice } from './invoice.ts';
import { updateInvoice } from './invoices.queries.ts';

/** The fields a person may correct, in the order a page shows them. */
export const CORRECTABLE_FIELDS = [
  'vendorName',
  'invoiceNumber',
  'invoiceDate',
  'dueDate',
  'subtotal',
  'tax',
  'total',
] as const satisfies readonly InvoiceCorrectionField[];
export type InvoiceCorrectionInput = Partial<
  Record<'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate', string | null> & Record<'subtotal' | 'tax' | 'total', number | null>
>;

export interface InvoiceCorrection {
  field: InvoiceCorrectionField;
  previousValue: string | null;
  value: string | null;
  correctedBy: string;
  correctedAt: Date;
}

/** How often a vendor's invoices needed a correction: fields right as extracted, of the correctable fields read. */
export interface ExtractionAccuracy {
  invoiceCount: number;
  correctedInvoices: number;
  correctedFields: number;
  accuracyPercent: number | null;
}

const MAX_AMOUNT = 1e10;
/** The order of an invoice's evidence entries: the API's field order. */
const EVIDENCE_ORDER = [...CORRECTABLE_FIELDS, 'currency'];

/** The value a field is corrected to, checked (a 400 names the field); strings as stored, amounts to the cent. */
function checked(field: InvoiceCorrectionField, value: string | number | null): string | number | null {
  if (value === null) return null;
  if (field === 'subtotal' || field === 'tax' || field === 'total') {
    const n = value as number;
    if (!Number.isFinite(n) || Math.abs(n) > MAX_AMOUNT || Math.round(n * 100) / 100 !== n) {
      throw InvalidInput.field(field, `must be an amount with at most 2 decimals, up to ${MAX_AMOUNT}`);
    }
    return n;
  }
  if (field === 'invoiceDate' || field === 'dueDate') return value as string; // a Date scalar: already a valid day
  return optionalText(value as string, field, field === 'vendorName' ? 200 : 100);
}

const asText = (v: string | number | null) => (v === null ? null : String(v));

/**
 * A person's corrections of an extracted invoice: the fields change, each change is recorded with who and when,
 * field confidences of corrected fields become 100, the vendor's running totals follow a new vendor or total, and
 * the search index is brought up to date. Only a processed invoice can be corrected.
 */
export function createInvoiceCorrections(
  db: Kysely<DB>,
  deps: { tenants: TenantsService; search: Pick<SearchService, 'indexUploadedInvoices'>; now?: () => Date },
) {
  const now = deps.now ?? (() => new Date());
  /** "Name <email>" of a signed-in user, or the API key's prefix. */
  async function who(principal: Principal, tenantId: string): Promise<{ correctedBy: string; userId: string | null }> {
    const session = principal.session;
    if (!session) return { correctedBy: `API key ${principal.keyPrefix}…`, userId: null };
    const [users] = await deps.tenants.usersOfTenants([tenantId]);
    const user = users?.find((u) => u.id === session.userId);
    return { correctedBy: user ? `${user.name} <${user.email}>` : 'a signed-in user', userId: session.userId };
  }

  return {
    async correct(principal: Principal, invoice: Invoice, input: InvoiceCorrectionInput, lineItems: () => Promise<LineItem[]>): Promise<Invoice> {
      const given = CORRECTABLE_FIELDS.filter((f) => f in input && input[f] !== undefined).map((f) => [f, checked(f, input[f] ?? null)] as const);
      const author = await who(principal, invoice.tenantId);
      const corrected = await db.transaction().execute(async (trx) => {
        const row = await lockInvoice(trx, invoice.tenantId, invoice.id);
        if (!row) throw new NotFound('invoice');
        if (row.status !== 'processed') throw new Conflict(`only a processed invoice can be corrected (this one is ${row.status})`);
        const before = toInvoice(row);
        const changes = given.filter(([f, v]) => asText(before[f]) !== asText(v));
        if (changes.length === 0) return before;
        const next = Object.fromEntries(changes) as InvoiceCorrectionInput;

        // The vendor's running totals follow the invoice: to its new vendor, or its new total (a duplicate counts in none).
        let vendorId = before.vendorId;
        if ('vendorName' in next) {
          const name = next.vendorName ?? null;
          const normalized = name ? normalizeVendorName(name) : '';
          vendorId = normalized ? (await upsertVendor(trx, before.tenantId, { name: name!, normalizedName: normalized })).id : null;
        }
        const total = 'total' in next ? (next.total ?? null) : before.total;
        if (!before.duplicateOf && (vendorId !== before.vendorId || total !== before.total)) {
          if (before.vendorId) await adjustVendorSpend(trx, before.tenantId, before.vendorId, { invoices: -1, amount: -(before.total ?? 0) });
          if (vendorId) await adjustVendorSpend(trx, before.tenantId, vendorId, { invoices: 1, amount: total ?? 0 });
        }
        const confidences = { ...before.fieldConfidences, ...Object.fromEntries(changes.map(([f]) => [f, 100])) };
        // A corrected value was typed, not read: its evidence says so (an invoice recorded without evidence keeps none).
        const evidence = before.evidence ? { evidence: evidenceColumn(correctedEvidence(before.evidence, changes, EVIDENCE_ORDER)) } : {};
        const updated = await updateInvoice(trx, before.tenantId, before.id, { ...next, vendorId, fieldConfidences: JSON.stringify(confidences), ...evidence });
        await insertCorrections(
          trx,
          changes.map(([field, value]) => ({
            tenantId: before.tenantId,
            invoiceId: before.id,
            vendorId,
            field,
            previousValue: asText(before[field]),
            value: asText(value),
            correctedAt: now(),
            ...author,
          })),
        );
        return toInvoice(updated);
      });
      if (corrected.vendorId !== invoice.vendorId || corrected.vendorName !== invoice.vendorName) {
        await deps.search.indexUploadedInvoices([{ ...corrected, lineItems: await lineItems() }]).catch(() => undefined);
      }
      return corrected;
    },

    /** Corrections per invoice id, oldest first, in the order of `invoiceIds` (a DataLoader batch). */
    async ofInvoices(tenantIds: readonly string[], invoiceIds: readonly string[]): Promise<InvoiceCorrection[][]> {
      const rows = await listCorrections(db, tenantIds, invoiceIds);
      // One save corrects several fields at one instant: they read in the page's order.
      const order = (f: InvoiceCorrectionField) => CORRECTABLE_FIELDS.indexOf(f as (typeof CORRECTABLE_FIELDS)[number]);
      rows.sort((a, b) => a.correctedAt.getTime() - b.correctedAt.getTime() || order(a.field) - order(b.field));
      return invoiceIds.map((id) =>
        rows
          .filter((r) => r.invoiceId === id)
          .map((r) => ({ field: r.field, previousValue: r.previousValue, value: r.value, correctedBy: r.correctedBy, correctedAt: r.correctedAt })),
      );
    },

    /** Accuracy per vendor (its processed invoices × the correctable fields), in the order of `vendors`. */
    async accuracyOf(tenantIds: readonly string[], vendors: ReadonlyArray<{ id: string; invoiceCount: number }>): Promise<ExtractionAccuracy[]> {
      const counts = await correctionCounts(
        db,
        tenantIds,
        vendors.map((v) => v.id),
      );
      return vendors.map((v) => {
        const c = counts.find((r) => r.vendorId === v.id);
        const correctedFields = Number(c?.fields ?? 0);
        const checkedFields = v.invoiceCount * CORRECTABLE_FIELDS.length;
        return {
          invoiceCount: v.invoiceCount,
          correctedInvoices: Number(c?.invoices ?? 0),
          correctedFields,
          accuracyPercent: checkedFields > 0 ? Math.round(((checkedFields - correctedFields) / checkedFields) * 10_000) / 100 : null,
        };
      });
    },
  };
}
export type InvoiceCorrections = ReturnType<typeof createInvoiceCorrections>;
