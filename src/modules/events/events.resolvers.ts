import { requireAccess, visibleStore } from '../../platform/auth/access.ts';
import type { Scope } from '../../platform/auth/scopes.ts';
import type { RequestContext } from '../../app/context.ts';
import { type DomainEvent, EVENT_TYPES, isEventType } from '../../platform/events/domain-event.ts';
import { InvalidInput } from '../../platform/errors.ts';
import type { Resolvers } from '../../app/generated/resolvers.ts';
import type { Invoice } from '../invoices/invoice.ts';
import type { Receipt } from '../receipts/receipts.service.ts';
import type { Vendor } from '../vendors/vendors.service.ts';

type Args = { tenantId?: string | null; types?: readonly string[] | null };

/** A subscription over some event kinds, authorized and scoped to the partner's tenants when it starts. */
function eventStream(kinds: readonly string[], scope: Scope | readonly Scope[]) {
  return {
    subscribe: async (_: unknown, args: Args, ctx: RequestContext) => {
      requireAccess(ctx.principal, { scope });
      const unknown = (args.types ?? []).filter((t) => !isEventType(t) || !kinds.includes(t));
      if (unknown.length) throw InvalidInput.field('types', `has unknown event kind(s) ${unknown.join(', ')}; known here: ${kinds.join(', ')}`);
      const wanted = new Set(args.types?.length ? args.types : kinds);
      const tenants = new Set(await ctx.services.tenants.scope(ctx.principal, args.tenantId));
      // A store-scoped user hears only their store's invoices.
      const ownStore = (e: DomainEvent) => !e.type.startsWith('invoice.') || visibleStore(ctx.principal, (e.data as { storeId?: string | null }).storeId);
      return ctx.services.events.subscribe(tenants, (e) => wanted.has(e.type) && tenants.has(e.tenantId) && ownStore(e));
    },
    resolve: (event: DomainEvent) => event,
  };
}

/**
 * The event's resource as the typed Invoice / Receipt / Vendor (a snapshot: line items come with it). The payload
 * is the resource the service published (JSON-shaped: its times may be ISO strings), so it is taken as that type.
 */
const snapshot =
  <T>(prefix: string) =>
  (e: DomainEvent): T | null =>
    e.type.startsWith(prefix) ? ({ ...e.data, tenantId: e.tenantId, createdAt: e.data.createdAt ?? e.timestamp } as T) : null;

export const eventResolvers = {
  Subscription: {
    invoiceEvents: eventStream(['invoice.created', 'invoice.processed', 'invoice.failed', 'invoice.duplicate'], 'invoices:read'),
    receiptEvents: eventStream(['receipt.processed', 'receipt.duplicate'], ['receipts:write', 'invoices:read']),
    vendorEvents: eventStream(['vendor.created'], 'read'),
    events: eventStream(EVENT_TYPES, 'invoices:read'),
  },
  DomainEvent: {
    invoice: snapshot<Invoice>('invoice.'),
    receipt: snapshot<Receipt>('receipt.'),
    vendor: snapshot<Vendor>('vendor.'),
  },
} satisfies Resolvers;
