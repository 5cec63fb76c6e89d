/**
 * Shares database lookups between callers without ever answering from the past: every caller gets the result of a
 * lookup that started after it asked. A lookup starts on the next turn of the event loop (setImmediate), and all
 * callers of one key until then share it. A reconnect storm delivers hundreds of `connection_init`s per turn, so
 * 5,000 sockets over 50 keys cost a few lookups per key per turn instead of one per socket (the embedded database
 * answers within the turn it is asked in, so sharing only lookups already in flight would share nothing), and a
 * key revoked before a caller asked is still refused (a TTL cache would answer from before the revocation).
 */
export function freshLookup<K, V>(lookUp: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const waiting = new Map<K, Promise<V>>();
  return (key: K): Promise<V> => {
    let next = waiting.get(key);
    if (!next) {
      next = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        waiting.delete(key);
        return lookUp(key);
      });
      waiting.set(key, next);
    }
    return next;
  };
}
