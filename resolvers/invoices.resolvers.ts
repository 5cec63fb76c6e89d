import { requireAccess } from '../src/auth/access.ts';
import type { RequestContext } from '../src/context.ts';
import { NotFound } from '../src/errors.ts';
import type { Invoice } from '../src/invoices.service.ts';
import { loaders } from './loaders.ts';

export const invoiceResolvers = {
  Query: {
    invoice: async (_: unknown, args: { id: string }, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope: 'invoices:read' });
      const invoice = await loaders(ctx).invoice.load(args.id);
      if (!invoice) throw new NotFound('invoice');
      return invoice;
    },
  },
  Invoice: {
    lineItems: (invoice: Invoice, _: unknown, ctx: RequestContext) => loaders(ctx).invoiceLineItems.load(invoice.id),
    costCategories: async (invoice: Invoice, _: unknown, ctx: RequestContext) => {
      const lines = await loaders(ctx).invoiceLineItems.load(invoice.id);
      return [...new Set(lines.map((l) => l.costCategory))];
    },
  },
};
