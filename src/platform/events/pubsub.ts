import type { DomainEvent } from './domain-event.ts';

const MAX_QUEUED = 1000;

/**
 * In-process fan-out of domain events to live subscriptions. Each subscription is an async iterator with its own
 * bounded queue (a subscriber that stops reading loses its oldest events, never the server's memory); `return()`
 * ends it at once.
 */
export class EventPubSub {
  private readonly listeners = new Set<(e: DomainEvent) => void>();
  private waker: (() => void) | undefined;

  /** A local transaction just committed outbox events: the dispatcher reads them now instead of at its next poll. */
  written(): void {
    this.waker?.();
  }

  /** The dispatcher's wake-up (one per process). */
  onWritten(wake: () => void): void {
    this.waker = wake;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  publish(event: DomainEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  subscribe(filter: (e: DomainEvent) => boolean): AsyncIterableIterator<DomainEvent> {
    const queue: DomainEvent[] = [];
    let pending: ((r: IteratorResult<DomainEvent>) => void) | undefined;
    let finished = false;
    const listener = (e: DomainEvent) => {
      if (finished || !filter(e)) return;
      if (pending) {
        const resolve = pending;
        pending = undefined;
        resolve({ done: false, value: e });
        return;
      }
      queue.push(e);
      if (queue.length > MAX_QUEUED) queue.shift();
    };
    this.listeners.add(listener);
    const finish = () => {
      finished = true;
      this.listeners.delete(listener);
      queue.length = 0;
      pending?.({ done: true, value: undefined });
      pending = undefined;
    };
    return {
      next: () => {
        if (queue.length) return Promise.resolve({ done: false, value: queue.shift()! });
        if (finished) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => (pending = resolve));
      },
      return: () => {
        finish();
        return Promise.resolve({ done: true, value: undefined });
      },
      throw: (error?: unknown) => {
        finish();
        return Promise.reject(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}
