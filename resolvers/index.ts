import { adapterResolvers } from './adapter.resolvers.ts';
import { brandingResolvers } from './branding.resolvers.ts';
import { eventResolvers } from './events.resolvers.ts';
import { inventoryResolvers } from './inventory.resolvers.ts';
import { invoiceResolvers } from './invoices.resolvers.ts';
import { receiptResolvers } from './receipts.resolvers.ts';
import { scalarResolvers } from './scalars.ts';
import { schedulingResolvers } from './scheduling.resolvers.ts';
import { searchResolvers } from './search.resolvers.ts';
import { spendResolvers } from './spend.resolvers.ts';
import { storeResolvers } from './stores.resolvers.ts';
import { tenantResolvers } from './tenants.resolvers.ts';
import { usageResolvers } from './usage.resolvers.ts';
import { systemResolvers } from './system.resolvers.ts';
import { vendorResolvers } from './vendors.resolvers.ts';
import { viewerResolvers } from './viewer.resolvers.ts';
import { webhookResolvers } from './webhooks.resolvers.ts';

/** All resolver maps; @graphql-tools/schema merges them with the SDL in schema/. */
export const resolvers = [scalarResolvers, viewerResolvers, vendorResolvers, invoiceResolvers, receiptResolvers, searchResolvers, eventResolvers, webhookResolvers, storeResolvers, tenantResolvers, inventoryResolvers, schedulingResolvers, usageResolvers, systemResolvers, adapterResolvers, brandingResolvers, spendResolvers];
