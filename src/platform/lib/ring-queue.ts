// A first-in, first-out queue on a ring of slots that clears each slot it hands out.
//
// For a queue that lives as long as the process and passes short-lived objects through, such as the statements
// awaiting the embedded database's answers. A Map used that way (set the newest id, delete the oldest) is rebuilt
// every few hundred entries, and V8 keeps each replaced table pointing at its successor. A replaced table that had
// already reached the old generation keeps every young object it refers to alive through each scavenge until the
// next full collection: the answers' rows, their promises, the requests waiting on them. Measured on the embedded
// database under 20 concurrent reads (issue 17): 6–11 MB promoted per scavenge, scavenges pausing the event loop
// 20–60 ms, against none promoted and 2 ms pauses with this ring (docs/decisions.md, "The request path").

export class RingQueue<T> {
  #slots: (T | undefined)[];
  #head = 0;
  #size = 0;

  constructor(capacity = 64) {
    this.#slots = new Array<T | undefined>(capacity).fill(undefined);
  }

  get size(): number {
    return this.#size;
  }

  /** The oldest item, left in place. */
  peek(): T | undefined {
    return this.#size === 0 ? undefined : this.#slots[this.#head];
  }

  push(item: T): void {
    if (this.#size === this.#slots.length) this.#grow();
    this.#slots[(this.#head + this.#size) % this.#slots.length] = item;
    this.#size++;
  }

  /** Removes and returns the oldest item; its slot no longer refers to it. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    const item = this.#slots[this.#head];
    this.#slots[this.#head] = undefined;
    this.#head = (this.#head + 1) % this.#slots.length;
    this.#size--;
    return item;
  }

  /** Removes every item, oldest first. */
  drain(): T[] {
    const items: T[] = [];
    while (this.#size > 0) items.push(this.shift()!);
    return items;
  }

  /** Twice the slots; the old ring is emptied so that it refers to nothing once it is garbage. */
  #grow(): void {
    const old = this.#slots;
    const slots = new Array<T | undefined>(old.length * 2).fill(undefined);
    for (let i = 0; i < this.#size; i++) {
      const at = (this.#head + i) % old.length;
      slots[i] = old[at];
      old[at] = undefined;
    }
    this.#slots = slots;
    this.#head = 0;
  }
}
