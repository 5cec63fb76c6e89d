import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Database } from '../../src/platform/db/connect.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { recordAttempts, shareLockWebhooks } from '../../src/modules/webhooks/attempts.queries.ts';
import { claimDueDeliveries, enqueueDeliveries, insertWebhook } from '../../src/modules/webhooks/webhooks.queries.ts';
import { freshDatabase } from '../helpers/db.ts';

// A claimed batch's attempts are recorded in one statement: each delivery still at its claimed attempt count
// moves to its own outcome with its attempt row; one that moved on meanwhile is left alone.

let database: Database;
let webhookId: string;

beforeAll(async () => {
  database = await freshDatabase();
  const { partnerId, tenantId } = await createPartnersService(database.db).createPartner({ name: 'Hooks', tier: 'storage' });
  ({ id: webhookId } = await insertWebhook(database.db, partnerId, {
    tenantId: null,
    url: 'https://example.com/h',
    events: ['invoice.created'],
    secret: 'whsec_x',
  }));
  const events = await database.db
    .insertInto('outboxEvents')
    .values(Array.from({ length: 4 }, (_, i) => ({ tenantId, type: 'invoice.created', subjectId: randomUUID(), payload: JSON.stringify({ n: i }) })))
    .returning('id')
    .execute();
  expect(
    await enqueueDeliveries(
      database.db,
      events.map((e) => e.id),
    ),
  ).toBe(4);
});
afterAll(() => database?.close());

test('a batch is recorded per delivery: delivered, retry, failed, and one that moved on is not touched', async () => {
  const claimed = await claimDueDeliveries(database.db, 10, 30);
  expect(claimed).toHaveLength(4);
  const [a, b, c, moved] = claimed.sort((x, y) => (x.id < y.id ? -1 : 1)) as [
    (typeof claimed)[0],
    (typeof claimed)[0],
    (typeof claimed)[0],
    (typeof claimed)[0],
  ];
  // Another worker recorded `moved` meanwhile (its lock had expired): its attempt count is no longer ours.
  await database.db.updateTable('webhookDeliveries').set({ attempts: 1, status: 'delivered', lockedUntil: null }).where('id', '=', moved.id).execute();

  const startedAt = new Date('2026-11-27T10:00:00.000Z');
  const retryAt = new Date('2026-11-27T10:05:00.000Z');
  const deliveredAt = new Date('2026-11-27T10:00:01.000Z');
  const recorded = await recordAttempts(database.db, [
    { id: a.id, attempts: 0, status: 'delivered', startedAt, statusCode: 200, latencyMs: 12, error: null, deliveredAt },
    { id: b.id, attempts: 0, status: 'pending', startedAt, statusCode: 500, latencyMs: 7, error: 'HTTP 500: boom', nextAttemptAt: retryAt },
    { id: c.id, attempts: 0, status: 'failed', startedAt, statusCode: 410, latencyMs: 3, error: 'HTTP 410' },
    { id: moved.id, attempts: 0, status: 'failed', startedAt, statusCode: 503, latencyMs: 3, error: 'HTTP 503' },
  ]);
  expect([...recorded].sort()).toEqual([a.id, b.id, c.id].sort());

  const rows = await database.db.selectFrom('webhookDeliveries').selectAll().where('webhookId', '=', webhookId).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  expect(byId.get(a.id)).toMatchObject({ attempts: 1, status: 'delivered', lastStatus: 200, lastError: null, lockedUntil: null });
  expect(new Date(byId.get(a.id)!.deliveredAt!).toISOString()).toBe(deliveredAt.toISOString());
  expect(byId.get(b.id)).toMatchObject({ attempts: 1, status: 'pending', lastStatus: 500, lastError: 'HTTP 500: boom', deliveredAt: null, lockedUntil: null });
  expect(new Date(byId.get(b.id)!.nextAttemptAt).toISOString()).toBe(retryAt.toISOString());
  expect(byId.get(c.id)).toMatchObject({ attempts: 1, status: 'failed', lastStatus: 410, deliveredAt: null });
  expect(byId.get(moved.id)).toMatchObject({ attempts: 1, status: 'delivered', lastStatus: null });

  const attempts = await database.db.selectFrom('webhookAttempts').selectAll().where('deliveryId', 'in', [a.id, b.id, c.id, moved.id]).execute();
  expect(attempts.map((r) => [r.deliveryId, r.attempt, r.statusCode, r.latencyMs, r.error]).sort()).toEqual(
    [
      [a.id, 1, 200, 12, null],
      [b.id, 1, 500, 7, 'HTTP 500: boom'],
      [c.id, 1, 410, 3, 'HTTP 410'],
    ].sort(),
  );
  expect(attempts.every((r) => new Date(r.startedAt).toISOString() === startedAt.toISOString())).toBe(true);

  // Recording the same attempt again finds no delivery at that count: nothing is recorded twice.
  expect(
    (await recordAttempts(database.db, [{ id: a.id, attempts: 0, status: 'delivered', startedAt, statusCode: 200, latencyMs: 1, error: null }])).size,
  ).toBe(0);
});

test('the webhooks are locked in one statement and their state read; a deleted one is absent', async () => {
  const gone = randomUUID();
  const state = await database.db.transaction().execute((trx) => shareLockWebhooks(trx, [webhookId, gone].sort()));
  expect([...state]).toEqual([[webhookId, true]]);
});
