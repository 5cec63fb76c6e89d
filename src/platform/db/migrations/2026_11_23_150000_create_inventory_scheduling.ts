import { type Kysely, sql } from 'kysely';

// Frozen. Store time zones, inventory (items with pack sizes, counts), and scheduling (employees, weekly
// schedules and their shifts, time-off requests, time punches, daily point-of-sale revenue). Every row carries
// its tenant so queries filter by tenant first; quantities and money are numeric (exact).
export async function up(db: Kysely<any>): Promise<void> {
  // IANA zone name; the labor report's days and weeks start at local midnight of the store.
  await sql`alter table stores add column timezone text not null default 'UTC'`.execute(db);

  // unit: the unit the item is costed and counted in by default (each, lb, gal...); default_cost is per unit.
  // pack_sizes: [{unit, quantity}] — one `unit` holds `quantity` of the item's unit (a case of 24 each).
  // store_id null: the item is stocked at every store of the tenant.
  await sql`
    create table inventory_items (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint inventory_items__tenant_id references tenants (id) on delete cascade,
      store_id uuid constraint inventory_items__store_id references stores (id) on delete cascade,
      name text not null constraint inventory_items__name_length check (length(name) between 1 and 200),
      sku text,
      category text not null,
      unit text not null,
      default_cost numeric(14, 4),
      pack_sizes jsonb not null default '[]',
      par_level numeric(14, 4),
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index inventory_items__tenant_id_idx on inventory_items (tenant_id, name)`.execute(db);
  await sql`create unique index inventory_items__tenant_id_sku on inventory_items (tenant_id, lower(sku)) where sku is not null`.execute(db);

  // quantity/unit as counted; base_quantity is the same amount in the item's unit (what is valued).
  await sql`
    create table inventory_counts (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint inventory_counts__tenant_id references tenants (id) on delete cascade,
      store_id uuid not null constraint inventory_counts__store_id references stores (id) on delete cascade,
      item_id uuid not null constraint inventory_counts__item_id references inventory_items (id) on delete cascade,
      quantity numeric(14, 4) not null constraint inventory_counts__quantity check (quantity >= 0),
      unit text not null,
      base_quantity numeric(18, 6) not null,
      counted_at timestamptz not null default now(),
      counted_by text,
      notes text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create index inventory_counts__latest_idx on inventory_counts (store_id, item_id, counted_at desc, created_at desc)`.execute(db);

  await sql`
    create table employees (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint employees__tenant_id references tenants (id) on delete cascade,
      store_id uuid not null constraint employees__store_id references stores (id) on delete cascade,
      name text not null constraint employees__name_length check (length(name) between 1 and 200),
      email text,
      position text,
      hourly_rate numeric(10, 2) not null constraint employees__hourly_rate check (hourly_rate >= 0),
      active boolean not null default true,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index employees__store_id_idx on employees (store_id, name)`.execute(db);
  await sql`create unique index employees__tenant_id_email on employees (tenant_id, lower(email)) where email is not null`.execute(db);

  await sql`
    create table schedules (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint schedules__tenant_id references tenants (id) on delete cascade,
      store_id uuid not null constraint schedules__store_id references stores (id) on delete cascade,
      week_start date not null constraint schedules__week_start_sunday check (extract(dow from week_start) = 0),
      status text not null default 'draft' constraint schedules__status check (status in ('draft', 'published', 'archived')),
      published_at timestamptz,
      created_at timestamptz not null default now(),
      constraint schedules__store_id_week_start unique (store_id, week_start)
    )`.execute(db);
  await sql`create index schedules__tenant_id_week_idx on schedules (tenant_id, week_start desc)`.execute(db);

  await sql`
    create table shifts (
      id uuid primary key default gen_random_uuid(),
      schedule_id uuid not null constraint shifts__schedule_id references schedules (id) on delete cascade,
      employee_id uuid not null constraint shifts__employee_id references employees (id) on delete cascade,
      starts_at timestamptz not null,
      ends_at timestamptz not null,
      break_minutes integer not null default 0 constraint shifts__break_minutes check (break_minutes >= 0),
      position text,
      notes text,
      created_at timestamptz not null default now(),
      constraint shifts__ends_after_start check (ends_at > starts_at)
    )`.execute(db);
  await sql`create index shifts__schedule_id_idx on shifts (schedule_id, starts_at)`.execute(db);
  await sql`create index shifts__employee_id_idx on shifts (employee_id, starts_at)`.execute(db);

  await sql`
    create table time_off_requests (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint time_off_requests__tenant_id references tenants (id) on delete cascade,
      employee_id uuid not null constraint time_off_requests__employee_id references employees (id) on delete cascade,
      start_date date not null,
      end_date date not null,
      reason text,
      status text not null default 'pending' constraint time_off_requests__status check (status in ('pending', 'approved', 'denied')),
      decided_by text,
      decided_at timestamptz,
      created_at timestamptz not null default now(),
      constraint time_off_requests__dates check (end_date >= start_date)
    )`.execute(db);
  await sql`create index time_off_requests__tenant_id_idx on time_off_requests (tenant_id, created_at desc)`.execute(db);

  // clock_out null: the employee is clocked in (one open punch per employee).
  await sql`
    create table time_punches (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null constraint time_punches__tenant_id references tenants (id) on delete cascade,
      store_id uuid not null constraint time_punches__store_id references stores (id) on delete cascade,
      employee_id uuid not null constraint time_punches__employee_id references employees (id) on delete cascade,
      clock_in timestamptz not null,
      clock_out timestamptz,
      created_at timestamptz not null default now(),
      constraint time_punches__clock_out_after_in check (clock_out > clock_in)
    )`.execute(db);
  await sql`create index time_punches__tenant_id_clock_in_idx on time_punches (tenant_id, clock_in)`.execute(db);
  await sql`create index time_punches__employee_id_idx on time_punches (employee_id, clock_in)`.execute(db);
  await sql`create unique index time_punches__one_open on time_punches (employee_id) where clock_out is null`.execute(db);

  // Net sales per store and business day (imported from the point of sale; a re-import replaces the day).
  await sql`
    create table pos_daily_sales (
      store_id uuid not null constraint pos_daily_sales__store_id references stores (id) on delete cascade,
      tenant_id uuid not null constraint pos_daily_sales__tenant_id references tenants (id) on delete cascade,
      business_date date not null,
      net_sales numeric(14, 2) not null,
      imported_at timestamptz not null default now(),
      constraint pos_daily_sales__pkey primary key (store_id, business_date)
    )`.execute(db);
  await sql`create index pos_daily_sales__tenant_id_idx on pos_daily_sales (tenant_id, business_date)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
