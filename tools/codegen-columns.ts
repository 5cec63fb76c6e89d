// The column types kysely-codegen cannot see (src/platform/db/column-types.ts): CHECK-constrained text columns get
// their value sets, jsonb columns our Json (written as JSON text), pack sizes their shape.

export const DB_TYPES_FILE = 'src/platform/db/generated/db.ts';

const json = (...columns: string[]) => Object.fromEntries(columns.map((c) => [c, 'JsonColumn']));
const optionalJson = (...columns: string[]) => Object.fromEntries(columns.map((c) => [c, 'JsonColumn | null']));

export const COLUMN_TYPES = {
  imports: [
    'AdapterRequestStatus',
    'DocumentKind',
    'ExtractionStatus',
    'FileType',
    'IdempotencyState',
    'InvoiceCorrectionField',
    'InvoiceSource',
    'JsonColumn',
    'LegacyPlan',
    'PackSizes',
    'ScheduleStatus',
    'SearchEntityType',
    'SsoProvider',
    'Tier',
    'TimeOffStatus',
    'TokenKind',
    'UsageChannel',
    'UseType',
    'UserRole',
    'WebhookDeliveryStatus',
  ],
  columns: {
    'partners.tier': 'Tier',
    'partners.legacy_plan': 'LegacyPlan | null',
    'tenants.sso_provider': 'SsoProvider | null',
    'documents.kind': 'DocumentKind',
    'documents.file_type': 'FileType',
    'documents.channel': 'UsageChannel | null',
    'invoices.status': 'Generated<ExtractionStatus>',
    'invoices.source': 'InvoiceSource | null',
    'invoice_corrections.field': 'InvoiceCorrectionField',
    'idempotency_keys.state': 'IdempotencyState',
    'receipts.status': 'Generated<ExtractionStatus>',
    'receipts.use_type': 'Generated<UseType>',
    'search_documents.entity_type': 'SearchEntityType',
    'webhook_deliveries.status': 'Generated<WebhookDeliveryStatus>',
    'inventory_items.pack_sizes': 'PackSizes',
    'schedules.status': 'Generated<ScheduleStatus>',
    'time_off_requests.status': 'Generated<TimeOffStatus>',
    'usage_records.kind': 'DocumentKind',
    'usage_records.channel': 'UsageChannel',
    'usage_records.tier': 'Tier',
    'adapter_requests.status': 'Generated<AdapterRequestStatus>',
    'users.role': 'UserRole',
    'one_time_tokens.kind': 'TokenKind',
    'tenant_sso.provider': 'SsoProvider',
    ...json(
      'invoices.field_confidences',
      'receipts.field_confidences',
      'outbox_events.payload',
      'webhook_deliveries.payload',
      'adapter_profiles.spec',
      'adapter_requests.request_fields',
      'tenant_sso.config',
    ),
    ...optionalJson('adapter_requests.response', 'invoices.evidence', 'invoice_line_items.evidence', 'receipts.evidence', 'receipt_line_items.evidence'),
  } as Record<string, string>,
};
