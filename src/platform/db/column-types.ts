import type { ColumnType } from 'kysely';

// What the generated table types (generated/db.ts) cannot read from the database: the value sets that CHECK
// constraints keep text columns to, the shape of JSON columns, and how our driver hands values over. The
// generator (tools/codegen.ts) puts these on their columns.

export type Tier = 'extraction' | 'storage' | 'embed';
export type LegacyPlan = 'starter' | 'professional' | 'enterprise';
export type SsoProvider = 'saml' | 'oidc';
export type DocumentKind = 'invoice' | 'receipt';
export type FileType = 'pdf' | 'jpeg' | 'png' | 'webp' | 'xml';
export type ExtractionStatus = 'processing' | 'processed' | 'failed';
/** Where a processed invoice's values came from: its e-invoice data, its PDF text layer, or OCR. */
export type InvoiceSource = 'e-invoice' | 'text' | 'ocr';
export type IdempotencyState = 'running' | 'done';
/** The invoice fields a person may correct (GraphQL correctInvoice). */
export type InvoiceCorrectionField = 'vendorName' | 'invoiceNumber' | 'invoiceDate' | 'dueDate' | 'subtotal' | 'tax' | 'total';
export type UseType = 'business' | 'personal' | 'mixed';
export type SearchEntityType = 'invoice' | 'receipt' | 'vendor';
export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';
export type ScheduleStatus = 'draft' | 'published' | 'archived';
export type TimeOffStatus = 'pending' | 'approved' | 'denied';
export type UsageChannel = 'v1' | 'legacy' | 'adapter' | 'graphql';
export type AdapterRequestStatus = 'pending' | 'done' | 'failed';
export type TokenKind = 'embed' | 'setup';

export const USER_ROLES = [
  'account_owner',
  'executive',
  'cfo',
  'regional_director',
  'area_director',
  'location_manager',
  'store_manager',
  'accounting',
  'supervisor',
] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface PackSize {
  /** The pack's unit, e.g. case. */
  unit: string;
  /** How many of the item's unit one pack holds. */
  quantity: number;
}

/** jsonb: read as whatever was stored, written as JSON text (JSON.stringify). */
export type JsonColumn = ColumnType<unknown, string | undefined, string>;
export type PackSizes = ColumnType<PackSize[], string | undefined, string>;
