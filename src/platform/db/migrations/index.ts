import type { Migration } from 'kysely/migration';
import * as createPartnersKeysTenants from './2026_11_23_090000_create_partners_keys_tenants.ts';
import * as createVendors from './2026_11_23_090100_create_vendors.ts';
import * as createDocuments from './2026_11_23_110000_create_documents_invoices_receipts_outbox.ts';
import * as createSearchDocuments from './2026_11_23_130000_create_search_documents.ts';
import * as createWebhooks from './2026_11_23_140000_create_webhooks.ts';
import * as createInventoryScheduling from './2026_11_23_150000_create_inventory_scheduling.ts';
import * as createRateLimitsUsage from './2026_11_23_160000_create_rate_limits_usage.ts';
import * as createAdapter from './2026_11_23_170000_create_adapter.ts';
import * as createUsersSessions from './2026_11_23_180000_create_users_sessions.ts';
import * as createPartnerBranding from './2026_11_23_190000_create_partner_branding.ts';
import * as createTenantSso from './2026_11_23_200000_create_tenant_sso.ts';
import * as addExtractionRecovery from './2026_11_24_090000_add_extraction_recovery.ts';
import * as addDocumentNotes from './2026_11_24_091000_add_document_notes.ts';
import * as addInvoiceSource from './2026_11_25_090000_add_invoice_source.ts';
import * as createIdempotencyKeys from './2026_11_26_090000_create_idempotency_keys.ts';
import * as addDuplicateDocuments from './2026_11_27_090000_add_duplicate_documents.ts';
import * as createInvoiceCorrections from './2026_11_27_090000_create_invoice_corrections.ts';
import * as bindSetupLinks from './2026_12_07_180000_bind_setup_links.ts';
import * as addEvidence from './2026_12_08_090000_add_evidence.ts';

// Listed explicitly (not read from the folder) so the set is the same under tsx, vitest and a bundle.
// Names sort in the order they must run; append new migrations at the end.
export const migrations: Record<string, Migration> = {
  '2026_11_23_090000_create_partners_keys_tenants': createPartnersKeysTenants,
  '2026_11_23_090100_create_vendors': createVendors,
  '2026_11_23_110000_create_documents_invoices_receipts_outbox': createDocuments,
  '2026_11_23_130000_create_search_documents': createSearchDocuments,
  '2026_11_23_140000_create_webhooks': createWebhooks,
  '2026_11_23_150000_create_inventory_scheduling': createInventoryScheduling,
  '2026_11_23_160000_create_rate_limits_usage': createRateLimitsUsage,
  '2026_11_23_170000_create_adapter': createAdapter,
  '2026_11_23_180000_create_users_sessions': createUsersSessions,
  '2026_11_23_190000_create_partner_branding': createPartnerBranding,
  '2026_11_23_200000_create_tenant_sso': createTenantSso,
  '2026_11_24_090000_add_extraction_recovery': addExtractionRecovery,
  '2026_11_24_091000_add_document_notes': addDocumentNotes,
  '2026_11_25_090000_add_invoice_source': addInvoiceSource,
  '2026_11_26_090000_create_idempotency_keys': createIdempotencyKeys,
  '2026_11_27_090000_add_duplicate_documents': addDuplicateDocuments,
  '2026_11_27_090000_create_invoice_corrections': createInvoiceCorrections,
  '2026_12_07_180000_bind_setup_links': bindSetupLinks,
  '2026_12_08_090000_add_evidence': addEvidence,
};
