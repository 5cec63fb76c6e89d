import { type Kysely, sql } from 'kysely';

// Frozen. Uploaded documents, the invoices and receipts extracted from them, and the outbox of domain events
// (written in the same transaction as the change they describe; delivered later by the dispatcher).
const COST_CATEGORIES = [
  'food_cost', 'nonalcoholic_beverage_cost', 'beer_cost', 'wine_cost', 'liquor_cost', 'retail_merchandise_cost',
  'paper_packaging', 'supply_cost', 'smallwares', 'linen_uniform', 'equipment', 'repairs_maintenance',
  'freight_delivery', 'utilities', 'rent_occupancy', 'marketing_advertising', 'technology_services',
  'taxes_licenses_fees', 'other_expense',
];
const categoryCheck = sql.raw(COST_CATEGORIES.map((c) => `'${c}'`).join(', '));

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table documents (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint documents__tenant_id references tenants (id) on delete cascade,
      kind text not null constraint documents__kind check (kind in ('invoice', 'receipt')),
      file_type text not null constraint documents__file_type check (file_type in ('pdf', 'jpeg', 'png', 'webp')),
      mime_type text not null,
      size_bytes integer not null constraint documents__size check (size_bytes > 0),
      sha256 text not null,
      original_name text,
      blob_key text,
      page_count integer,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index documents__tenant_id_sha256_idx on documents (tenant_id, sha256)`.execute(db);

  await sql`
    create table invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint invoices__tenant_id references tenants (id) on delete cascade,
      document_id uuid not null constraint invoices__document_id references documents (id) on delete cascade,
      store_id uuid constraint invoices__store_id references stores (id) on delete set null,
      vendor_id uuid constraint invoices__vendor_id references vendors (id) on delete set null,
      status text not null default 'processing'
        constraint invoices__status check (status in ('processing', 'processed', 'failed')),
      error text,
      vendor_name text,
      invoice_number text,
      invoice_date date,
      due_date date,
      subtotal numeric(14, 2),
      tax numeric(14, 2),
      total numeric(14, 2),
      currency text constraint invoices__currency check (currency ~ '^[A-Z]{3}$'),
      extraction_confidence numeric(5, 2)
        constraint invoices__confidence check (extraction_confidence between 0 and 100),
      field_confidences jsonb not null default '{}',
      pages integer[] not null default '{}',
      created_at timestamptz not null default now(),
      processed_at timestamptz
    )`.execute(db);
  await sql`create index invoices__tenant_id_created_at_idx on invoices (tenant_id, created_at desc, id desc)`.execute(db);
  await sql`create index invoices__vendor_id_idx on invoices (vendor_id)`.execute(db);
  await sql`create index invoices__document_id_idx on invoices (document_id)`.execute(db);

  await sql`
    create table invoice_line_items (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint invoice_line_items__tenant_id references tenants (id) on delete cascade,
      invoice_id uuid not null constraint invoice_line_items__invoice_id references invoices (id) on delete cascade,
      position integer not null,
      description text,
      sku text,
      quantity numeric(14, 4),
      unit text,
      unit_price numeric(14, 4),
      total numeric(14, 2),
      cost_category text not null constraint invoice_line_items__cost_category check (cost_category in (${categoryCheck})),
      constraint invoice_line_items__invoice_id_position unique (invoice_id, position)
    )`.execute(db);

  await sql`
    create table receipts (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint receipts__tenant_id references tenants (id) on delete cascade,
      document_id uuid not null constraint receipts__document_id references documents (id) on delete cascade,
      status text not null default 'processing'
        constraint receipts__status check (status in ('processing', 'processed', 'failed')),
      error text,
      merchant_name text,
      receipt_date date,
      subtotal numeric(14, 2),
      tax numeric(14, 2),
      tip numeric(14, 2),
      total numeric(14, 2),
      currency text constraint receipts__currency check (currency ~ '^[A-Z]{3}$'),
      tax_category text,
      use_type text not null default 'business' constraint receipts__use_type check (use_type in ('business', 'personal', 'mixed')),
      payment_type text not null default 'unknown' constraint receipts__payment_type
        check (payment_type in ('cash', 'credit', 'debit', 'gift_card', 'mobile', 'check', 'other', 'unknown')),
      card_brand text,
      card_last4 text constraint receipts__card_last4 check (card_last4 ~ '^[0-9]{4}$'),
      extraction_confidence numeric(5, 2)
        constraint receipts__confidence check (extraction_confidence between 0 and 100),
      field_confidences jsonb not null default '{}',
      created_at timestamptz not null default now(),
      processed_at timestamptz
    )`.execute(db);
  await sql`create index receipts__tenant_id_created_at_idx on receipts (tenant_id, created_at desc, id desc)`.execute(db);

  await sql`
    create table receipt_line_items (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint receipt_line_items__tenant_id references tenants (id) on delete cascade,
      receipt_id uuid not null constraint receipt_line_items__receipt_id references receipts (id) on delete cascade,
      position integer not null,
      description text,
      sku text,
      quantity numeric(14, 4),
      unit text,
      unit_price numeric(14, 4),
      total numeric(14, 2),
      cost_category text not null constraint receipt_line_items__cost_category check (cost_category in (${categoryCheck})),
      constraint receipt_line_items__receipt_id_position unique (receipt_id, position)
    )`.execute(db);

  // bigserial: a total order that dispatchers on several instances can tail.
  await sql`
    create table outbox_events (
      id bigserial primary key,
      event_id uuid not null default gen_random_uuid() constraint outbox_events__event_id unique,
      tenant_id uuid not null constraint outbox_events__tenant_id references tenants (id) on delete cascade,
      type text not null,
      subject_id uuid not null,
      payload jsonb not null,
      created_at timestamptz not null default now(),
      published_at timestamptz
    )`.execute(db);
  await sql`create index outbox_events__unpublished_idx on outbox_events (id) where published_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
