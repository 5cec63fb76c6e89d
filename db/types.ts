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

export interface DB {
  partners: PartnersTable;
  apiKeys: ApiKeysTable;
  tenants: TenantsTable;
  stores: StoresTable;
  vendors: VendorsTable;
}

export type PartnerRow = Selectable<PartnersTable>;
export type NewPartner = Insertable<PartnersTable>;
export type TenantRow = Selectable<TenantsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type VendorRow = Selectable<VendorsTable>;
