import { type Kysely, sql } from 'kysely';
import type { AdapterRequestStatus, DB } from '../../platform/db/types.ts';

// json columns are read as text and parsed by the caller: CamelCasePlugin would otherwise rename the keys
// inside them (a partner's `invoice_number` output field must stay `invoice_number`).

export interface AdapterProfileRow {
  id: string;
  name: string;
  isDefault: boolean;
  /** The spec as JSON text. */
  spec: string;
  createdAt: Date;
  updatedAt: Date;
}

function profileColumns(db: Kysely<DB>) {
  return db.selectFrom('adapterProfiles').select(['id', 'name', 'isDefault', 'createdAt', 'updatedAt', sql<string>`spec::text`.as('spec')]);
}

/** The partner's profiles by name. */
export async function listProfiles(db: Kysely<DB>, partnerId: string): Promise<AdapterProfileRow[]> {
  return profileColumns(db).where('partnerId', '=', partnerId).orderBy('name').execute();
}

export async function findProfile(db: Kysely<DB>, partnerId: string, name: string): Promise<AdapterProfileRow | undefined> {
  return profileColumns(db).where('partnerId', '=', partnerId).where('name', '=', name).executeTakeFirst();
}

export async function findDefaultProfile(db: Kysely<DB>, partnerId: string): Promise<AdapterProfileRow | undefined> {
  return profileColumns(db).where('partnerId', '=', partnerId).where('isDefault', '=', true).executeTakeFirst();
}

/**
 * Creates or replaces the profile `name`. `isDefault` true makes it the partner's only default; false clears it;
 * null keeps what the profile had (false for a new one).
 */
export async function upsertProfile(
  db: Kysely<DB>,
  partnerId: string,
  profile: { name: string; spec: string; isDefault: boolean | null },
): Promise<AdapterProfileRow> {
  return db.transaction().execute(async (trx) => {
    if (profile.isDefault) {
      await trx
        .updateTable('adapterProfiles')
        .set({ isDefault: false, updatedAt: sql`now()` })
        .where('partnerId', '=', partnerId)
        .where('isDefault', '=', true)
        .where('name', '<>', profile.name)
        .execute();
    }
    const row = await trx
      .insertInto('adapterProfiles')
      .values({ partnerId, name: profile.name, spec: profile.spec, isDefault: profile.isDefault ?? false })
      .onConflict((oc) =>
        oc.constraint('adapter_profiles__partner_id_name').doUpdateSet({
          spec: (eb) => eb.ref('excluded.spec'),
          isDefault: profile.isDefault === null ? sql`adapter_profiles.is_default` : profile.isDefault,
          updatedAt: sql`now()`,
        }),
      )
      .returning(['id', 'name', 'isDefault', 'createdAt', 'updatedAt', sql<string>`spec::text`.as('spec')])
      .executeTakeFirstOrThrow();
    return row;
  });
}

export async function deleteProfile(db: Kysely<DB>, partnerId: string, name: string): Promise<boolean> {
  const res = await db.deleteFrom('adapterProfiles').where('partnerId', '=', partnerId).where('name', '=', name).executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export interface AdapterRequestRow {
  id: string;
  requestHash: string;
  /** JSON text: field → short hash of its value. */
  requestFields: string;
  status: AdapterRequestStatus;
  /** The response body as JSON text (done rows). */
  response: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  /** created_at is older than the idempotency window. */
  expired: boolean;
  /** A pending row nobody finished in time (its instance stopped): it may be taken over. */
  abandoned: boolean;
}

export interface RequestWindows {
  /** How long a correlation_id is remembered. */
  ttlSeconds: number;
  /** How long a pending row may stay pending before another request may take it over. */
  staleSeconds: number;
}

/** Claims (partner, correlation_id) for a new attempt; undefined when a row for it exists already. */
export async function claimRequest(
  db: Kysely<DB>,
  row: { partnerId: string; correlationId: string; requestHash: string; requestFields: string },
): Promise<{ id: string } | undefined> {
  return db
    .insertInto('adapterRequests')
    .values({ ...row, status: 'pending' })
    .onConflict((oc) => oc.constraint('adapter_requests__partner_id_correlation_id').doNothing())
    .returning(['id'])
    .executeTakeFirst();
}

export async function findRequest(db: Kysely<DB>, partnerId: string, correlationId: string, windows: RequestWindows): Promise<AdapterRequestRow | undefined> {
  return db
    .selectFrom('adapterRequests')
    .select([
      'id',
      'requestHash',
      'status',
      'errorCode',
      'errorMessage',
      sql<string | null>`response::text`.as('response'),
      sql<string>`request_fields::text`.as('requestFields'),
      sql<boolean>`created_at < now() - make_interval(secs => ${windows.ttlSeconds})`.as('expired'),
      sql<boolean>`status = 'pending' and updated_at < now() - make_interval(secs => ${windows.staleSeconds})`.as('abandoned'),
    ])
    .where('partnerId', '=', partnerId)
    .where('correlationId', '=', correlationId)
    .executeTakeFirst();
}

/** Removes a row that may be replaced (failed, expired or abandoned), so the id can be claimed again. */
export async function releaseRequest(db: Kysely<DB>, partnerId: string, id: string, windows: RequestWindows): Promise<boolean> {
  const res = await db
    .deleteFrom('adapterRequests')
    .where('partnerId', '=', partnerId)
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'failed'),
        sql<boolean>`created_at < now() - make_interval(secs => ${windows.ttlSeconds})`,
        sql<boolean>`status = 'pending' and updated_at < now() - make_interval(secs => ${windows.staleSeconds})`,
      ]),
    )
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export async function completeRequest(db: Kysely<DB>, partnerId: string, id: string, response: string): Promise<void> {
  await db
    .updateTable('adapterRequests')
    .set({ status: 'done', response, updatedAt: sql`now()` })
    .where('partnerId', '=', partnerId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

export async function failRequest(db: Kysely<DB>, partnerId: string, id: string, error: { code: string; message: string }): Promise<void> {
  await db
    .updateTable('adapterRequests')
    .set({ status: 'failed', errorCode: error.code, errorMessage: error.message.slice(0, 2000), updatedAt: sql`now()` })
    .where('partnerId', '=', partnerId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}
