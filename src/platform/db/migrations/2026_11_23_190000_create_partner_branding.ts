import { type Kysely, sql } from 'kysely';

// Frozen. The partner's white label on the tenant pages (/app/**): display name, logo (an https: URL or a
// data:image URL) and primary colour (#rrggbb). Null: the default (the partner's name, no logo, a neutral colour).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table partners
      add column brand_name text
        constraint partners__brand_name check (char_length(brand_name) between 1 and 100),
      add column brand_logo_url text
        constraint partners__brand_logo_url check (
          char_length(brand_logo_url) <= 100000
          and (brand_logo_url like 'https://%' or brand_logo_url ~ '^data:image/(png|jpeg|gif|webp|svg\\+xml);base64,')),
      add column brand_color text
        constraint partners__brand_color check (brand_color ~ '^#[0-9a-f]{6}$')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are forward-only');
}
