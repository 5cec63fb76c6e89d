import { type Kysely, sql } from 'kysely';

// Frozen. The back office (issue 19): a person's corrections of an extracted invoice's fields (who, when, what it
// was), counted per vendor for an accuracy figure; and the server's signing keys, shared by every instance through
// the database (the short-lived links to original documents are signed with one).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table invoice_corrections (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id) on delete cascade,
      invoice_id uuid not null references invoices (id) on delete cascade,
      vendor_id uuid references vendors (id) on delete set null,
      field text not null constraint invoice_corrections__field
        check (field in ('vendorName', 'invoiceNumber', 'invoiceDate', 'dueDate', 'subtotal', 'tax', 'total')),
      previous_value text,
      value text,
      corrected_by text not null,
      user_id uuid references users (id) on delete set null,
      corrected_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index invoice_corrections__invoice on invoice_corrections (tenant_id, invoice_id, corrected_at)`.execute(db);
  await sql`create index invoice_corrections__vendor on invoice_corrections (tenant_id, vendor_id)`.execute(db);
  await sql`
    create table signing_keys (
      name text primary key,
      secret bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
