import { describe, expect, test } from 'vitest';
import { RingQueue } from '../../src/platform/lib/ring-queue.ts';

describe('RingQueue', () => {
  test('first in, first out across wrap-arounds and growth', () => {
    const queue = new RingQueue<number>(4);
    const out: number[] = [];
    let next = 0;
    // Three in, two out, repeatedly: the ring wraps and grows while items are waiting.
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 3; i++) queue.push(next++);
      for (let i = 0; i < 2; i++) out.push(queue.shift()!);
    }
    expect(queue.size).toBe(10);
    expect(queue.peek()).toBe(20);
    out.push(...queue.drain());
    expect(out).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
    expect(queue.peek()).toBeUndefined();
  });
});
