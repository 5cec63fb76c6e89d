import { expect, test } from 'vitest';
import type { DomainEvent } from '../../src/platform/events/domain-event.ts';
import { EventPubSub, PUSH } from '../../src/platform/events/pubsub.ts';

// A subscription's events handed over as they are published (the fan-out of live events) must keep what pulling
// them gave: only the subscription's own events, in order, a busy consumer's events queued (bounded) and not lost
// or reordered, and an end the consumer sees.

let seq = 0;
const event = (tenantId: string, n: number): DomainEvent => ({
  seq: String(++seq),
  id: `e${seq}`,
  type: 'invoice.created',
  tenantId,
  subjectId: String(n),
  timestamp: new Date(0),
  data: { n },
});
const n = (e: DomainEvent) => e.data.n as number;

/** A subscription of tenant t1 whose consumer records every event and stays busy on event `busyOn` until released. */
function busyConsumer(busyOn: number) {
  const bus = new EventPubSub();
  const sub = bus.subscribe(['t1'], () => true);
  const got: number[] = [];
  let release: (() => void) | undefined;
  void sub[PUSH]((e) => {
    got.push(n(e));
    return n(e) === busyOn ? new Promise<void>((r) => (release = r)) : undefined;
  });
  return { bus, sub, got, release: () => release!() };
}

test('events are handed over in order as they are published: only the tenants and kinds the subscription takes', async () => {
  const bus = new EventPubSub();
  const sub = bus.subscribe(['t1'], (e) => n(e) !== 3);
  bus.publish(event('t1', 1)); // queued before the consumer registers: handed over first
  const got: number[] = [];
  const ended = sub[PUSH]((e) => void got.push(n(e)));
  expect(got).toEqual([1]);
  bus.publish(event('t1', 2));
  bus.publish(event('t2', 9));
  bus.publish(event('t1', 3));
  bus.publish(event('t1', 4));
  expect(got).toEqual([1, 2, 4]); // synchronously, inside publish
  await sub.return!();
  await expect(ended).resolves.toBeUndefined();
  expect(bus.subscribers).toBe(0);
  bus.publish(event('t1', 5));
  expect(got).toEqual([1, 2, 4]);
});

test('while a delivery is being written, later events wait in the queue and follow it in order', async () => {
  const { bus, sub, got, release } = busyConsumer(1);
  for (let i = 1; i <= 4; i++) bus.publish(event('t1', i));
  expect(got).toEqual([1]);
  release();
  await Promise.resolve();
  await Promise.resolve();
  expect(got).toEqual([1, 2, 3, 4]);
  bus.publish(event('t1', 5));
  expect(got).toEqual([1, 2, 3, 4, 5]);
  await sub.return!();
});

test('a consumer that stays busy loses its oldest events beyond the queue bound, never the newest', async () => {
  const { bus, sub, got, release } = busyConsumer(0);
  for (let i = 0; i <= 1500; i++) bus.publish(event('t1', i));
  release();
  await new Promise((r) => setImmediate(r));
  expect(got).toHaveLength(1 + 1000);
  expect(got[1]).toBe(501);
  expect(got.at(-1)).toBe(1500);
  await sub.return!();
});

test('a consumer that throws, or whose write fails, ends its subscription with that error; others keep theirs', async () => {
  const bus = new EventPubSub();
  const throwing = bus.subscribe(['t1'], () => true);
  const failing = bus.subscribe(['t1'], () => true);
  const healthy = bus.subscribe(['t1'], () => true);
  const got: number[] = [];
  const threw = throwing[PUSH](() => {
    throw new Error('boom');
  });
  const failed = failing[PUSH](() => Promise.reject(new Error('socket gone')));
  void healthy[PUSH]((e) => void got.push(n(e)));
  bus.publish(event('t1', 1));
  await expect(threw).rejects.toThrow('boom');
  await expect(failed).rejects.toThrow('socket gone');
  bus.publish(event('t1', 2));
  expect(got).toEqual([1, 2]);
  expect(bus.subscribers).toBe(1);
  await healthy.return!();
});
