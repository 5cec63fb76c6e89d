/**
 * An async iterator yielding `make()` now and then every `everyMs`. Unlike an async generator sleeping in a
 * loop, `return()` ends it at once, so a client unsubscribing or the server shutting down never waits.
 */
export function ticker<T>(everyMs: number, make: () => T): AsyncIterableIterator<T> {
  let timer: NodeJS.Timeout | undefined;
  let pending: ((r: IteratorResult<T>) => void) | undefined;
  let first = true;
  let finished = false;
  const finish = () => {
    finished = true;
    clearTimeout(timer);
    pending?.({ done: true, value: undefined });
    pending = undefined;
  };
  return {
    next() {
      if (finished) return Promise.resolve({ done: true, value: undefined });
      if (first) {
        first = false;
        return Promise.resolve({ done: false, value: make() });
      }
      return new Promise((resolve) => {
        pending = resolve;
        timer = setTimeout(() => {
          pending = undefined;
          resolve({ done: false, value: make() });
        }, everyMs);
      });
    },
    return() {
      finish();
      return Promise.resolve({ done: true, value: undefined });
    },
    throw(error?: unknown) {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
