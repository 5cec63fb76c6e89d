import type { Insertable, Selectable } from 'kysely';
import type {
  DB,
  AdapterProfiles,
  AdapterRequests,
  ApiKeys,
  Documents,
  Employees,
  IdempotencyKeys,
  InventoryCounts,
  InventoryItems,
  InvoiceCorrections,
  InvoiceLineItems,
  Invoices,
  OneTimeTokens,
  OutboxEvents,
  Partners,
  PosDailySales,
  ReceiptLineItems,
  Receipts,
  Schedules,
  SearchDocuments,
  SigningKeys,
  Sessions,
  Shifts,
  SsoLogins,
  Stores,
  TenantSso,
  Tenants,
  TimeOffRequests,
  TimePunches,
  UsageRecords,
  Users,
  Vendors,
  WebhookAttempts,
  WebhookDeliveries,
  Webhooks,
} from './generated/db.ts';

// The table types, generated from the migrated database (generated/db.ts, `npm run codegen`), under the names the
// queries use, plus the value sets of CHECK-constrained columns (column-types.ts). Columns are camelCase, as Kysely
// sees them through CamelCasePlugin; `date` columns come back as 'YYYY-MM-DD' strings and numeric ones as strings
// (connect.ts).

export type * from './column-types.ts';
export { USER_ROLES } from './column-types.ts';
export type { DB };

export type AdapterProfilesTable = AdapterProfiles;
export type AdapterRequestsTable = AdapterRequests;
export type ApiKeysTable = ApiKeys;
export type DocumentsTable = Documents;
export type EmployeesTable = Employees;
export type IdempotencyKeysTable = IdempotencyKeys;
export type InventoryCountsTable = InventoryCounts;
export type InventoryItemsTable = InventoryItems;
export type InvoiceLineItemsTable = InvoiceLineItems;
export type InvoicesTable = Invoices;
export type InvoiceCorrectionsTable = InvoiceCorrections;
export type SigningKeysTable = SigningKeys;
export type OneTimeTokensTable = OneTimeTokens;
export type OutboxEventsTable = OutboxEvents;
export type PartnersTable = Partners;
export type PosDailySalesTable = PosDailySales;
export type ReceiptLineItemsTable = ReceiptLineItems;
export type ReceiptsTable = Receipts;
export type SchedulesTable = Schedules;
export type SearchDocumentsTable = SearchDocuments;
export type SessionsTable = Sessions;
export type ShiftsTable = Shifts;
export type SsoLoginsTable = SsoLogins;
export type StoresTable = Stores;
export type TenantsTable = Tenants;
export type TenantSsoTable = TenantSso;
export type TimeOffRequestsTable = TimeOffRequests;
export type TimePunchesTable = TimePunches;
export type UsageRecordsTable = UsageRecords;
export type UsersTable = Users;
export type VendorsTable = Vendors;
export type WebhookAttemptsTable = WebhookAttempts;
export type WebhookDeliveriesTable = WebhookDeliveries;
export type WebhooksTable = Webhooks;

export type PartnerRow = Selectable<DB['partners']>;
export type NewPartner = Insertable<DB['partners']>;
export type TenantRow = Selectable<DB['tenants']>;
export type ApiKeyRow = Selectable<DB['apiKeys']>;
export type VendorRow = Selectable<DB['vendors']>;
