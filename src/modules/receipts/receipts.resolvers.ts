import { requireAccess } from '../../platform/auth/access.ts';
import type { RequestContext } from '../../app/context.ts';
import { NotFound } from '../../platform/errors.ts';
import type { UploadedFile } from '../../platform/lib/uploaded-file.ts';
import type { LineItem } from '../invoices/invoice.ts';
import type { Receipt, ReceiptListArgs, UseType } from './receipts.service.ts';
import { loaders } from '../../app/loaders.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';

// The contract names no read scope for receipts: a key that may upload them, or read invoices, may read them.
const READ_RECEIPTS = { scope: ['receipts:write', 'invoices:read'] } as const;
const CONFIDENCE_FIELDS = ['merchantName', 'receiptDate', 'total'] as const;

/** A receipt of the caller's tenants, or null. */
function visibleReceipt(id: string, ctx: RequestContext): Promise<Receipt | null> {
  requireAccess(ctx.principal, READ_RECEIPTS);
  return loaders(ctx).receipt.load(id);
}

export const receiptResolvers = {
  Query: {
    receipt: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      const receipt = await visibleReceipt(args.id, ctx);
      if (!receipt) throw new NotFound('receipt');
      return receipt;
    },
    receipts: (_: unknown, args: ReceiptListArgs, ctx: RequestContext) => {
      requireAccess(ctx.principal, READ_RECEIPTS);
      return ctx.services.receipts.list(ctx.principal, args);
    },
  },
  Mutation: {
    uploadReceipt: async (
      _: unknown,
      args: { file: UploadedFile; useType?: UseType | null; tenantId?: string | null; keepFile?: boolean | null; force?: boolean | null },
      ctx: RequestContext,
    ) => {
      requireAccess(ctx.principal, { scope: 'receipts:write', ...(args.tenantId != null ? { tiers: ['embed'] as const } : {}) });
      const receipt = await ctx.services.uploads.uploadReceipt(ctx.principal, { ...args, channel: ctx.channel });
      loaders(ctx).receipt.prime(receipt.id, receipt);
      loaders(ctx).receiptLineItems.prime(receipt.id, receipt.lineItems);
      return receipt;
    },
  },
  Receipt: {
    // Federation: Query._entities, batched by the receipt loader; another partner's is null.
    __resolveReference: (ref: { id: string }, ctx: RequestContext) => visibleReceipt(ref.id, ctx),
    lineItems: (receipt: Receipt & { lineItems?: LineItem[] }, _: unknown, ctx: RequestContext) =>
      receipt.lineItems ?? loaders(ctx).receiptLineItems.load(receipt.id),
    fieldConfidences: (receipt: Receipt) =>
      Object.fromEntries(CONFIDENCE_FIELDS.map((f) => [f, Number(receipt.fieldConfidences?.[f] ?? 0)])) as Record<(typeof CONFIDENCE_FIELDS)[number], number>,
    notes: (receipt: Receipt, _: unknown, ctx: RequestContext) => loaders(ctx).receiptNotes.load(receipt.id),
    // Snapshots in events recorded before duplicates were kept lack it.
    duplicateOf: (receipt: Receipt) => receipt.duplicateOf ?? null,
    // An event's snapshot has the REST shape, without evidence: the stored receipt's (batched).
    evidence: async (receipt: Receipt, _: unknown, ctx: RequestContext) =>
      receipt.evidence !== undefined ? receipt.evidence : ((await loaders(ctx).receipt.load(receipt.id))?.evidence ?? null),
  },
} satisfies Resolvers;
