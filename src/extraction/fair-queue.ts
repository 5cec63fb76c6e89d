// Round-robin over lanes, first in first out within a lane. A lane is a tenant (or the one lane shared by callers
// that name none): however many documents one tenant queues, every other tenant's next document waits for at most
// one turn of each lane. A lane that runs dry leaves the rotation and joins at the back when it has work again.
export class FairQueue<T> {
  /** Map order is the rotation: the first lane is served next. */
  private readonly lanes = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(lane: string, item: T): void {
    const queue = this.lanes.get(lane);
    if (queue) queue.push(item);
    else this.lanes.set(lane, [item]);
    this.count++;
  }

  /** The head of the next lane in the rotation; that lane moves to the back. */
  take(): T | undefined {
    for (const [lane, queue] of this.lanes) {
      const item = queue.shift()!;
      this.lanes.delete(lane);
      if (queue.length) this.lanes.set(lane, queue);
      this.count--;
      return item;
    }
    return undefined;
  }

  /** Everything queued, emptying the queue. */
  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    this.count = 0;
    return all;
  }
}
