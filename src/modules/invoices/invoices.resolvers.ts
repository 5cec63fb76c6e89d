import { requireAccess, scopedStore, visibleStore } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFound } from '../../platform/errors.ts';
import type { UploadedFile } from '../../platform/lib/uploaded-file.ts';
import type { Invoice, InvoiceListArgs, LineItem } from './invoice.ts';
import type { InvoiceCorrectionInput } from './invoice-corrections.ts';
import type { Vendor } from '../vendors/vendors.service.ts';
import { loaders } from '../../app/loaders.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

type InvoiceParent = Invoice & { lineItems?: LineItem[] };

const CONFIDENCE_FIELDS = ['vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'total'] as const;

/** An invoice of the caller's tenants (and store, for a store-scoped user), or null (scope invoices:read). */
async function visibleInvoice(id: string, ctx: RequestContext): Promise<Invoice | null> {
  requireAccess(ctx.principal, { scope: 'invoices:read' });
  const invoice = await loaders(ctx).invoice.load(id);
  return invoice && visibleStore(ctx.principal, invoice.storeId) ? invoice : null;
}

export const invoiceResolvers = {
  Query: {
    invoice: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      const invoice = await visibleInvoice(args.id, ctx);
      if (!invoice) throw new NotFound('invoice');
      return invoice;
    },
    invoices: (_: unknown, args: InvoiceListArgs, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:read' });
      const storeId = scopedStore(ctx.principal, args.filter?.storeId);
      return ctx.services.invoices.list(ctx.principal, storeId ? { ...args, filter: { ...args.filter, storeId } } : args);
    },
  },
  Mutation: {
    uploadInvoice: async (
      _: unknown,
      args: { file: UploadedFile; tenantId?: string | null; storeId?: string | null; keepFile?: boolean | null; force?: boolean | null },
      ctx: RequestContext,
    ) => {
      // Acting for a sub-tenant is Platform Embed only.
      requireAccess(ctx.principal, { scope: 'invoices:write', ...(args.tenantId != null ? { tiers: ['embed'] as const } : {}) });
      // A store-scoped signed-in user's upload belongs to their store.
      const storeId = scopedStore(ctx.principal, args.storeId);
      const invoices = await ctx.services.uploads.uploadInvoice(ctx.principal, { ...args, storeId, channel: ctx.channel });
      for (const invoice of invoices) {
        loaders(ctx).invoice.prime(invoice.id, invoice);
        if (invoice.lineItems) loaders(ctx).invoiceLineItems.prime(invoice.id, invoice.lineItems);
      }
      const [first, ...split] = invoices;
      if (!first) throw new Error('uploadInvoice recorded no invoice');
      return { invoice: first, splitInvoices: split, invoices };
    },
    correctInvoice: async (_: unknown, args: { id: string; input: InvoiceCorrectionInput }, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:write' });
      const invoice = await loaders(ctx).invoice.load(args.id);
      if (!invoice || !visibleStore(ctx.principal, invoice.storeId)) throw new NotFound('invoice');
      const corrected = await ctx.services.corrections.correct(ctx.principal, invoice, args.input, () => loaders(ctx).invoiceLineItems.load(invoice.id));
      loaders(ctx).invoice.clear(invoice.id).prime(invoice.id, corrected);
      return corrected;
    },
  },
  // GraphQL names cannot hold a hyphen: the enum value e_invoice stands for the stored (and REST) 'e-invoice'.
  InvoiceSource: { e_invoice: 'e-invoice', text: 'text', ocr: 'ocr' },
  Invoice: {
    // Federation: Query._entities, batched by the invoice loader; another partner's is null.
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => visibleInvoice(ref.id, ctx),
    // An event's snapshot carries its lines; a stored invoice's are loaded (batched).
    lineItems: (invoice: InvoiceParent, _: unknown, ctx: RequestContext) => invoice.lineItems ?? loaders(ctx).invoiceLineItems.load(invoice.id),
    costCategories: async (invoice: InvoiceParent, _: unknown, ctx: RequestContext) => {
      const lines = invoice.lineItems ?? (await loaders(ctx).invoiceLineItems.load(invoice.id));
      return [...new Set(lines.map((l) => l.costCategory))];
    },
    vendor: (invoice: Invoice, _: unknown, ctx: RequestContext) => (invoice.vendorId ? loaders(ctx).vendor.load(invoice.vendorId) : null),
    // Snapshots in events lack the store and status details of a stored row: absent means null.
    storeId: (invoice: Invoice) => invoice.storeId ?? null,
    fieldConfidences: (invoice: Invoice) =>
      Object.fromEntries(CONFIDENCE_FIELDS.map((f) => [f, Number(invoice.fieldConfidences?.[f] ?? 0)])) as Record<(typeof CONFIDENCE_FIELDS)[number], number>,
    notes: (invoice: Invoice, _: unknown, ctx: RequestContext) => loaders(ctx).invoiceNotes.load(invoice.id),
    source: (invoice: Invoice) => invoice.source ?? null,
    // An event's snapshot has the REST shape, without evidence: the stored invoice's (batched).
    evidence: async (invoice: Invoice, _: unknown, ctx: RequestContext) =>
      invoice.evidence !== undefined ? invoice.evidence : ((await loaders(ctx).invoice.load(invoice.id))?.evidence ?? null),
    duplicateOf: (invoice: Invoice) => invoice.duplicateOf ?? null,
    corrections: (invoice: Invoice, _: unknown, ctx: RequestContext) => loaders(ctx).invoiceCorrections.load(invoice.id),
    original: async (invoice: Invoice, _: unknown, ctx: RequestContext) => {
      const doc = invoice.documentId ? await loaders(ctx).document.load(invoice.documentId) : null;
      return doc ? ctx.services.documentLinks.link(ctx.principal, doc) : null;
    },
  },
  LineItem: {
    evidence: (line: LineItem) => line.evidence ?? null,
  },
  Vendor: {
    extractionAccuracy: (vendor: Vendor, _: unknown, ctx: RequestContext) => loaders(ctx).vendorAccuracy.load(vendor),
  },
} satisfies Resolvers;
