import type { DomainEvent } from './domain-event.ts';

const MAX_QUEUED = 1000;

/**
 * A subscription's events handed over as they are published, instead of pulled one promise at a time (a promise, a
 * microtask and an iterator result per event and socket were a fifth of the JavaScript of a live event's fan-out).
 */
export const PUSH = Symbol('push');
/** Takes an event; a promise means "busy": later events wait in the subscription's queue until it settles. */
export type Deliver<T> = (event: T) => Promise<void> | undefined;
export interface PushSource<T> {
  /**
   * From now on each event is given to `deliver` as it is published (those already queued first), in order. The
   * promise resolves when the subscription ends, and rejects (ending it) when `deliver` throws or its promise rejects.
   */
  [PUSH](deliver: Deliver<T>): Promise<void>;
}
export function canPush<T>(source: object): source is PushSource<T> {
  return PUSH in source;
}

/**
 * In-process fan-out of domain events to live subscriptions. Each subscription is an async iterator with its own
 * bounded queue (a subscriber that stops reading loses its oldest events, never the server's memory); `return()`
 * ends it at once.
 */
export class EventPubSub {
  // Listeners by the tenant whose events they take: an event is offered only to its tenant's subscribers, so with
  // 5,000 sockets over 50 partners an event costs ~100 filter calls, not 5,000.
  private readonly byTenant = new Map<string, Set<(e: DomainEvent) => void>>();
  private count = 0;
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
    return this.count;
  }

  publish(event: DomainEvent): void {
    const listeners = this.byTenant.get(event.tenantId);
    if (listeners) for (const listener of listeners) listener(event);
  }

  /** Events of `tenants` that pass `filter`, in order; the tenants are fixed when the subscription starts. */
  subscribe(tenants: Iterable<string>, filter: (e: DomainEvent) => boolean): AsyncIterableIterator<DomainEvent> & PushSource<DomainEvent> {
    const queue: DomainEvent[] = [];
    let pending: ((r: IteratorResult<DomainEvent>) => void) | undefined;
    let finished = false;
    // Push mode: the consumer, whether its last delivery is still being written, and the end it waits for.
    let deliver: Deliver<DomainEvent> | undefined;
    let busy = false;
    let ended: { resolve: () => void; reject: (err: unknown) => void } | undefined;
    const handOver = (e: DomainEvent) => {
      let writing: Promise<void> | undefined;
      try {
        writing = deliver!(e);
      } catch (err) {
        return fail(err);
      }
      if (writing) {
        busy = true;
        writing.then(drain, fail);
      }
    };
    const drain = () => {
      busy = false;
      while (!finished && !busy && queue.length) handOver(queue.shift()!);
    };
    const fail = (err: unknown) => {
      const end = ended;
      ended = undefined;
      finish();
      end?.reject(err);
    };
    const listener = (e: DomainEvent) => {
      if (finished || !filter(e)) return;
      if (deliver && !busy && queue.length === 0) return handOver(e);
      if (pending) {
        const resolve = pending;
        pending = undefined;
        resolve({ done: false, value: e });
        return;
      }
      queue.push(e);
      if (queue.length > MAX_QUEUED) queue.shift();
    };
    const own = [...new Set(tenants)];
    for (const tenant of own) {
      let set = this.byTenant.get(tenant);
      if (!set) this.byTenant.set(tenant, (set = new Set()));
      set.add(listener);
    }
    this.count++;
    const finish = () => {
      if (finished) return;
      finished = true;
      this.count--;
      for (const tenant of own) {
        const set = this.byTenant.get(tenant);
        set?.delete(listener);
        if (set?.size === 0) this.byTenant.delete(tenant);
      }
      queue.length = 0;
      pending?.({ done: true, value: undefined });
      pending = undefined;
      ended?.resolve();
      ended = undefined;
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
      [PUSH]: (consumer) => {
        if (finished) return Promise.resolve();
        deliver = consumer;
        const end = new Promise<void>((resolve, reject) => (ended = { resolve, reject }));
        drain();
        return end;
      },
    };
  }
}
