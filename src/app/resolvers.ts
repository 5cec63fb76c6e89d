import { adapterResolvers } from '../modules/adapter/adapter.resolvers.ts';
import { brandingResolvers } from '../modules/branding/branding.resolvers.ts';
import { eventResolvers } from '../modules/events/events.resolvers.ts';
import { inventoryResolvers } from '../modules/inventory/inventory.resolvers.ts';
import { invoiceResolvers } from '../modules/invoices/invoices.resolvers.ts';
import { receiptResolvers } from '../modules/receipts/receipts.resolvers.ts';
import { scalarResolvers } from '../platform/graphql/scalars.ts';
import { schedulingResolvers } from '../modules/scheduling/scheduling.resolvers.ts';
import { searchResolvers } from '../modules/search/search.resolvers.ts';
import { spendResolvers } from '../modules/spend/spend.resolvers.ts';
import { profitAndLossResolvers } from '../modules/pnl/pnl.resolvers.ts';
import { storeResolvers } from '../modules/tenants/stores.resolvers.ts';
import { tenantResolvers } from '../modules/tenants/tenants.resolvers.ts';
import { usageResolvers } from '../modules/usage/usage.resolvers.ts';
import { systemResolvers } from '../platform/graphql/system.resolvers.ts';
import { vendorResolvers } from '../modules/vendors/vendors.resolvers.ts';
import { viewerResolvers } from '../modules/partners/viewer.resolvers.ts';
import { webhookResolvers } from '../modules/webhooks/webhooks.resolvers.ts';
import type { Resolvers } from './generated/resolvers.ts';

// The modules' maps are checked against the SDL where they are written (`satisfies Resolvers`); platform/ cannot
// import app/, so its two maps are checked here.
const platformResolvers: Resolvers[] = [scalarResolvers, systemResolvers];

/** All resolver maps; @graphql-tools/schema merges them with the SDL in schema/. */
export const resolvers = [
  ...platformResolvers,
  viewerResolvers,
  vendorResolvers,
  invoiceResolvers,
  receiptResolvers,
  searchResolvers,
  eventResolvers,
  webhookResolvers,
  storeResolvers,
  tenantResolvers,
  inventoryResolvers,
  schedulingResolvers,
  usageResolvers,
  adapterResolvers,
  brandingResolvers,
  spendResolvers,
  profitAndLossResolvers,
];
