import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Database } from '../../src/platform/db/connect.ts';
import { createPartnersService } from '../../src/modules/partners/partners.service.ts';
import { handOffEvents, insertWebhook } from '../../src/modules/webhooks/webhooks.queries.ts';
import { createDispatcher } from '../../src/platform/events/dispatcher.ts';
import type { DomainEvent } from '../../src/platform/events/domain-event.ts';
import { appendEvent } from '../../src/platform/events/outbox.queries.ts';
import { EventPubSub } from '../../src/platform/events/pubsub.ts';
import { freshDatabase } from '../helpers/db.ts';

// The outbox's two consumers: the webhook hand-off (one statement: claim, queue deliveries, mark published) and the
// live subscribers' tail, which must not wait for it.

let database: Database;
let tenantId: string;

beforeAll(async () => {
  database = await freshDatabase();
  const partner = await createPartnersService(database.db).createPartner({ name: 'Dispatch', tier: 'storage' });
  tenantId = partner.tenantId;
  await insertWebhook(database.db, partner.partnerId, { tenantId: null, url: 'https://example.com/h', events: ['invoice.created'], secret: 'whsec_x' });
});
afterAll(() => database?.close());

const write = (type = 'invoice.created') => appendEvent(database.db, tenantId, { type, subjectId: randomUUID(), payload: { ok: true } });

test('the hand-off claims the oldest unpublished events, queues one delivery per subscribed webhook, and never twice', async () => {
  const db = database.db;
  await db.updateTable('outboxEvents').set({ publishedAt: new Date() }).execute();
  for (let i = 0; i < 3; i++) await write();
  await write('vendor.created'); // no webhook takes it: handed on without a delivery
  expect(await handOffEvents(db, 2)).toEqual({ events: 2, deliveries: 2 });
  expect(await handOffEvents(db, 2)).toEqual({ events: 2, deliveries: 1 });
  expect(await handOffEvents(db, 2)).toEqual({ events: 0, deliveries: 0 });
  const pending = await db.selectFrom('outboxEvents').select('id').where('publishedAt', 'is', null).execute();
  expect(pending).toEqual([]);
  const deliveries = await db.selectFrom('webhookDeliveries').select(['eventType', 'payload']).execute();
  expect(deliveries.map((d) => d.eventType)).toEqual(['invoice.created', 'invoice.created', 'invoice.created']);
  expect(deliveries[0]!.payload).toMatchObject({ type: 'invoice.created', data: { ok: true } });
});

test('live subscribers get events while a hand-off is still running; stop() waits for it and starts nothing after', async () => {
  const pubsub = new EventPubSub();
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => (release = resolve));
  let handOffs = 0;
  const dispatcher = createDispatcher(database.db, pubsub, {
    pollMs: 60_000,
    handOff: async () => {
      handOffs++;
      await blocked;
      return { events: 0, deliveries: 0 };
    },
    log: { warn: () => {} },
  });
  await dispatcher.start(); // the first hand-off starts and blocks
  const events = pubsub.subscribe([tenantId], () => true);
  await write();
  dispatcher.wake();
  const next = await Promise.race([events.next(), new Promise((r) => setTimeout(() => r('timed out'), 5000))]);
  expect(next).toMatchObject({ done: false, value: { type: 'invoice.created', tenantId } satisfies Partial<DomainEvent> });
  expect(handOffs).toBe(1); // the wake-up waits for the running hand-off instead of starting a second one

  let stopped = false;
  const stopping = dispatcher.stop().then(() => (stopped = true));
  await new Promise((r) => setTimeout(r, 50));
  expect(stopped).toBe(false); // the hand-off is still running
  release();
  await stopping;
  await new Promise((r) => setTimeout(r, 50));
  expect(handOffs).toBe(1); // the wake-up it was owed is not run once stopped
  await events.return!();
});

test('the delivery loop is woken after a hand-off that queued deliveries, not after one of events no webhook takes', async () => {
  const db = database.db;
  await db.updateTable('outboxEvents').set({ publishedAt: new Date() }).execute();
  let woken = 0;
  let handedOn = 0;
  const dispatcher = createDispatcher(db, new EventPubSub(), {
    pollMs: 60_000,
    handOff: async (limit) => {
      const done = await handOffEvents(db, limit);
      handedOn += done.events;
      return done;
    },
    handedOff: () => woken++,
    log: { warn: () => {} },
  });
  await dispatcher.start();
  /** Wakes the dispatcher until `n` events in all were handed on, then lets the hand-off's continuation run. */
  const handOn = async (n: number) => {
    for (let i = 0; i < 200 && handedOn < n; i++) {
      dispatcher.wake();
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(handedOn).toBe(n);
    await new Promise((r) => setTimeout(r, 20));
  };
  try {
    await write('vendor.created');
    await write('vendor.created');
    await handOn(2);
    expect(woken).toBe(0);
    await write('invoice.created');
    await handOn(3);
    expect(woken).toBe(1);
  } finally {
    await dispatcher.stop();
  }
});
