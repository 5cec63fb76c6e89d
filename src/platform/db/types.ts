import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Row types as Kysely sees them through CamelCasePlugin (columns are snake_case in SQL).
// `numeric` comes back from Postgres as a string: queries convert money to numbers.
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Money = ColumnType<string, number | string | undefined, number | string>;

export type Tier = 'extraction' | 'storage' | 'embed';
export type LegacyPlan = 'starter' | 'professional' | 'enterprise';
export type SsoProvider = 'saml' | 'oidc';

export interface PartnersTable {
  id: Generated<string>;
  name: string;
  tier: Tier;
  legacyPlan: LegacyPlan | null;
  /** A custom price per processed document (Platform Embed); null: the tier's list price. */
  pricePerDocument: Decimal | null;
  /** White label of the tenant pages; null: the partner's name, no logo, the neutral colour. */
  brandName: string | null;
  /** An https: URL or a data:image/…;base64 URL. */
  brandLogoUrl: string | null;
  /** #rrggbb, lower case. */
  brandColor: string | null;
  createdAt: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<string>;
  partnerId: string;
  keyHash: string;
  prefix: string;
  scopes: string[];
  createdAt: Timestamp;
  revokedAt: Timestamp | null;
}

export interface TenantsTable {
  id: Generated<string>;
  partnerId: string;
  name: string;
  email: string | null;
  isDefault: Generated<boolean>;
  maxLocations: Generated<number>;
  ssoProvider: SsoProvider | null;
  createdAt: Timestamp;
}

export interface StoresTable {
  id: Generated<string>;
  tenantId: string;
  externalStoreId: string;
  name: string | null;
  /** IANA zone (default UTC): local days and weeks of the labor report. */
  timezone: Generated<string>;
  createdAt: Timestamp;
}

export interface VendorsTable {
  id: Generated<string>;
  tenantId: string;
  name: string;
  normalizedName: string;
  invoiceCount: Generated<number>;
  totalSpent: Money;
  createdAt: Timestamp;
}

type Json = ColumnType<unknown, string | undefined, string>;
/** `date` columns come back as 'YYYY-MM-DD' strings (see connect.ts), never as local-midnight Dates. */
type IsoDate = ColumnType<string, string | null | undefined, string | null>;
type Decimal = ColumnType<string, number | null | undefined, number | null>;

export type DocumentKind = 'invoice' | 'receipt';
export type ExtractionStatus = 'processing' | 'processed' | 'failed';
/** Where a processed invoice's values came from: its e-invoice data, its PDF text layer, or OCR. */
export type InvoiceSource = 'e-invoice' | 'text' | 'ocr';

export interface DocumentsTable {
  id: Generated<string>;
  tenantId: string;
  kind: DocumentKind;
  fileType: 'pdf' | 'jpeg' | 'png' | 'webp' | 'xml';
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  originalName: string | null;
  blobKey: string | null;
  /** The blob is a copy held only while the document is extracted (tiers that do not keep files). */
  blobTemporary: Generated<boolean>;
  /** Who uploaded it and how: a document recovered after a crash is metered as its upload would have been. */
  apiKeyId: string | null;
  channel: UsageChannel | null;
  pageCount: number | null;
  /** What reading left out (budgets, blank pages); empty when the document was read whole. */
  notes: Generated<string[]>;
  createdAt: Timestamp;
}

export interface InvoicesTable {
  id: Generated<string>;
  tenantId: string;
  documentId: string;
  storeId: string | null;
  vendorId: string | null;
  status: Generated<ExtractionStatus>;
  error: string | null;
  vendorName: string | null;
  invoiceNumber: string | null;
  invoiceDate: IsoDate | null;
  dueDate: IsoDate | null;
  subtotal: Decimal | null;
  tax: Decimal | null;
  total: Decimal | null;
  currency: string | null;
  extractionConfidence: Decimal | null;
  fieldConfidences: Json;
  /** Null while processing, when failed, and for invoices recorded before it was kept. */
  source: InvoiceSource | null;
  pages: ColumnType<number[], number[] | undefined, number[]>;
  createdAt: Timestamp;
  processedAt: Timestamp | null;
  /** While `processing`: the instance extracting it, until `leaseUntil` (renewed while it works). */
  processingOwner: string | null;
  leaseUntil: Timestamp | null;
  /** Extractions started (the upload's, then one per recovery after a crash). */
  extractionAttempts: Generated<number>;
}

export interface LineItemsTable {
  id: Generated<string>;
  tenantId: string;
  position: number;
  description: string | null;
  sku: string | null;
  quantity: Decimal | null;
  unit: string | null;
  unitPrice: Decimal | null;
  total: Decimal | null;
  costCategory: string;
}

export interface InvoiceLineItemsTable extends LineItemsTable {
  invoiceId: string;
}

export interface ReceiptLineItemsTable extends LineItemsTable {
  receiptId: string;
}

export interface ReceiptsTable {
  id: Generated<string>;
  tenantId: string;
  documentId: string;
  status: Generated<ExtractionStatus>;
  error: string | null;
  merchantName: string | null;
  receiptDate: IsoDate | null;
  subtotal: Decimal | null;
  tax: Decimal | null;
  tip: Decimal | null;
  total: Decimal | null;
  currency: string | null;
  taxCategory: string | null;
  useType: Generated<'business' | 'personal' | 'mixed'>;
  paymentType: Generated<string>;
  cardBrand: string | null;
  cardLast4: string | null;
  extractionConfidence: Decimal | null;
  fieldConfidences: Json;
  createdAt: Timestamp;
  processedAt: Timestamp | null;
}

export interface OutboxEventsTable {
  id: Generated<string>;
  eventId: Generated<string>;
  tenantId: string;
  type: string;
  subjectId: string;
  payload: Json;
  createdAt: Timestamp;
  publishedAt: Timestamp | null;
}

export type SearchEntityType = 'invoice' | 'receipt' | 'vendor';

export interface SearchDocumentsTable {
  entityType: SearchEntityType;
  entityId: string;
  tenantId: string;
  text: string;
  preview: string;
  vendorName: string | null;
  merchantName: string | null;
  total: Decimal | null;
  date: IsoDate | null;
  embedderId: string;
  /** pgvector text form '[0.1,0.2,…]' (written with pgvector's toSql). */
  embedding: string;
  indexedAt: Timestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhooksTable {
  id: Generated<string>;
  partnerId: string;
  /** null: every tenant of the partner. */
  tenantId: string | null;
  url: string;
  events: string[];
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Timestamp | null;
  enabled: Generated<boolean>;
  disabledReason: string | null;
  createdAt: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhookId: string;
  eventId: string;
  eventType: string;
  /** The whole body that is signed and sent. */
  payload: Json;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  retryFrom: Generated<number>;
  nextAttemptAt: Timestamp;
  lockedUntil: Timestamp | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Timestamp;
  deliveredAt: Timestamp | null;
}

export interface WebhookAttemptsTable {
  deliveryId: string;
  attempt: number;
  startedAt: Timestamp;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface PackSize {
  /** The pack's unit, e.g. case. */
  unit: string;
  /** How many of the item's unit one pack holds. */
  quantity: number;
}

export interface InventoryItemsTable {
  id: Generated<string>;
  tenantId: string;
  storeId: string | null;
  name: string;
  sku: string | null;
  category: string;
  unit: string;
  defaultCost: Decimal | null;
  packSizes: ColumnType<PackSize[], string | undefined, string>;
  parLevel: Decimal | null;
  active: Generated<boolean>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface InventoryCountsTable {
  id: Generated<string>;
  tenantId: string;
  storeId: string;
  itemId: string;
  quantity: Decimal;
  unit: string;
  baseQuantity: Decimal;
  countedAt: Timestamp;
  countedBy: string | null;
  notes: string | null;
  createdAt: Timestamp;
}

export interface EmployeesTable {
  id: Generated<string>;
  tenantId: string;
  storeId: string;
  name: string;
  email: string | null;
  position: string | null;
  hourlyRate: Decimal;
  active: Generated<boolean>;
  createdAt: Timestamp;
}

export type ScheduleStatus = 'draft' | 'published' | 'archived';

export interface SchedulesTable {
  id: Generated<string>;
  tenantId: string;
  storeId: string;
  weekStart: IsoDate;
  status: Generated<ScheduleStatus>;
  publishedAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface ShiftsTable {
  id: Generated<string>;
  scheduleId: string;
  employeeId: string;
  startsAt: Timestamp;
  endsAt: Timestamp;
  breakMinutes: Generated<number>;
  position: string | null;
  notes: string | null;
  createdAt: Timestamp;
}

export type TimeOffStatus = 'pending' | 'approved' | 'denied';

export interface TimeOffRequestsTable {
  id: Generated<string>;
  tenantId: string;
  employeeId: string;
  startDate: IsoDate;
  endDate: IsoDate;
  reason: string | null;
  status: Generated<TimeOffStatus>;
  decidedBy: string | null;
  decidedAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface TimePunchesTable {
  id: Generated<string>;
  tenantId: string;
  storeId: string;
  employeeId: string;
  clockIn: Timestamp;
  clockOut: Timestamp | null;
  createdAt: Timestamp;
}

export interface PosDailySalesTable {
  storeId: string;
  tenantId: string;
  businessDate: IsoDate;
  netSales: Decimal;
  importedAt: Timestamp;
}

export type UsageChannel = 'v1' | 'legacy' | 'adapter' | 'graphql';

export interface UsageRecordsTable {
  id: Generated<string>;
  partnerId: string;
  tenantId: string;
  apiKeyId: string | null;
  documentId: string;
  kind: DocumentKind;
  pages: number;
  channel: UsageChannel;
  tier: Tier;
  price: Decimal;
  currency: Generated<string>;
  createdAt: Timestamp;
}

export type AdapterRequestStatus = 'pending' | 'done' | 'failed';

/** A partner's shape profile for the adapter: `spec` is the declarative mapping (src/adapter/profile.ts). */
export interface AdapterProfilesTable {
  id: Generated<string>;
  partnerId: string;
  name: string;
  isDefault: Generated<boolean>;
  spec: Json;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** An adapter request made with a correlation_id (24-hour idempotency). */
export interface AdapterRequestsTable {
  id: Generated<string>;
  partnerId: string;
  correlationId: string;
  requestHash: string;
  requestFields: Json;
  status: Generated<AdapterRequestStatus>;
  response: Json | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export const USER_ROLES = [
  'account_owner', 'executive', 'cfo', 'regional_director', 'area_director', 'location_manager', 'store_manager',
  'accounting', 'supervisor',
] as const;
export type UserRole = (typeof USER_ROLES)[number];

export interface UsersTable {
  id: Generated<string>;
  tenantId: string;
  email: string;
  name: string;
  role: UserRole;
  /** The store a store-scoped user sees (embed sign-in names it); null: every store of the tenant. */
  storeId: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface OneTimeTokensTable {
  tokenHash: string;
  kind: 'embed' | 'setup';
  tenantId: string;
  userId: string | null;
  page: string | null;
  expiresAt: Timestamp;
  usedAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface SessionsTable {
  tokenHash: string;
  userId: string;
  tenantId: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
}

export interface TenantSsoTable {
  tenantId: string;
  provider: 'oidc' | 'saml';
  /** OIDC: the validated config (with the client secret); SAML: the parsed IdP metadata. */
  config: ColumnType<unknown, string, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface SsoLoginsTable {
  state: string;
  tenantId: string;
  nonce: string | null;
  codeVerifier: string | null;
  expiresAt: Timestamp;
}

export interface IdempotencyKeysTable {
  partnerId: string;
  key: string;
  /** sha256 of the request (method, path, fields, files' sha256). */
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  contentType: string | null;
  /** The response body as sent. */
  body: string | null;
  createdAt: Timestamp;
  completedAt: Timestamp | null;
}

export interface DB {
  idempotencyKeys: IdempotencyKeysTable;
  partners: PartnersTable;
  apiKeys: ApiKeysTable;
  tenants: TenantsTable;
  stores: StoresTable;
  vendors: VendorsTable;
  documents: DocumentsTable;
  invoices: InvoicesTable;
  invoiceLineItems: InvoiceLineItemsTable;
  receipts: ReceiptsTable;
  receiptLineItems: ReceiptLineItemsTable;
  outboxEvents: OutboxEventsTable;
  searchDocuments: SearchDocumentsTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookAttempts: WebhookAttemptsTable;
  inventoryItems: InventoryItemsTable;
  inventoryCounts: InventoryCountsTable;
  employees: EmployeesTable;
  schedules: SchedulesTable;
  shifts: ShiftsTable;
  timeOffRequests: TimeOffRequestsTable;
  timePunches: TimePunchesTable;
  posDailySales: PosDailySalesTable;
  usageRecords: UsageRecordsTable;
  users: UsersTable;
  oneTimeTokens: OneTimeTokensTable;
  sessions: SessionsTable;
  tenantSso: TenantSsoTable;
  ssoLogins: SsoLoginsTable;
  adapterProfiles: AdapterProfilesTable;
  adapterRequests: AdapterRequestsTable;
}

export type PartnerRow = Selectable<PartnersTable>;
export type NewPartner = Insertable<PartnersTable>;
export type TenantRow = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type VendorRow = Selectable<VendorsTable>;
