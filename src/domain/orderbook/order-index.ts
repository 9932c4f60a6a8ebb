/**
 * The book's order index, id → order: an open-addressing hash table with linear probing, the
 * slots' hashes in an Int32Array beside the values. Why not a Map: looking an id up (the
 * duplicate check of every placement, then the insert) was a third of the engine's time with a
 * Map at half a million resting orders. A Map walks a chain of entries, reading each entry's key
 * string to compare it; here a probe reads consecutive slots of one small array, and the stored
 * hash turns other ids away without reading their strings (a microbench of has + set at 670k
 * ids: 2–3× faster). Iteration order is the slots' order, not insertion order: callers that need
 * time priority sort by `seq` (OrderBook.restingOrders).
 *
 * Deletion shifts the probe run back (no tombstones), so a lookup never walks past dead slots;
 * the table doubles when half full.
 */

/** FNV-1a over the id's UTF-16 code units; never 0 (0 marks an empty slot), every low bit kept (they pick the slot). */
export function hashOf(id: string): number {
  let h = 0x811c9dc5 | 0; // int32 from the start: an empty id's hash must fit the Int32Array too
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h === 0 ? 1 : h;
}

const MIN_CAPACITY = 16;

export class OrderIndex<T extends { readonly id: string }> {
  private hashes: Int32Array;
  private slots: (T | undefined)[];
  private mask: number;
  private count = 0;
  /** The last id hashed: a placement checks its id (has) and then inserts it (set), hashing once. */
  private lastId: string | undefined;
  private lastHash = 0;

  constructor(capacity = MIN_CAPACITY) {
    let cap = MIN_CAPACITY;
    while (cap < capacity * 2) cap *= 2;
    this.hashes = new Int32Array(cap);
    this.slots = new Array<T | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private hash(id: string): number {
    if (id === this.lastId) return this.lastHash;
    this.lastId = id;
    return (this.lastHash = hashOf(id));
  }

  /** The slot holding `id`, or -1. */
  private find(id: string, h: number): number {
    const { hashes, slots, mask } = this;
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const x = hashes[i]!;
      if (x === 0) return -1;
      if (x === h && slots[i]!.id === id) return i;
    }
  }

  get(id: string): T | undefined {
    const i = this.find(id, this.hash(id));
    return i === -1 ? undefined : this.slots[i];
  }

  has(id: string): boolean {
    return this.find(id, this.hash(id)) !== -1;
  }

  /** Inserts `value` under its id, replacing an entry with the same id. */
  set(value: T): void {
    const h = this.hash(value.id);
    const { hashes, slots, mask } = this;
    let i = h & mask;
    for (; hashes[i] !== 0; i = (i + 1) & mask) {
      if (hashes[i] === h && slots[i]!.id === value.id) {
        slots[i] = value;
        return;
      }
    }
    hashes[i] = h;
    slots[i] = value;
    if (++this.count * 2 > hashes.length) this.grow();
  }

  delete(id: string): boolean {
    let i = this.find(id, this.hash(id));
    if (i === -1) return false;
    const { hashes, slots, mask } = this;
    // Backward shift: move later members of the probe run into the hole when their home slot
    // does not lie (cyclically) after the hole, so every entry stays reachable from its home.
    for (let j = (i + 1) & mask; hashes[j] !== 0; j = (j + 1) & mask) {
      const home = hashes[j]! & mask;
      const stays = i <= j ? i < home && home <= j : i < home || home <= j;
      if (stays) continue;
      hashes[i] = hashes[j]!;
      slots[i] = slots[j];
      i = j;
    }
    hashes[i] = 0;
    slots[i] = undefined;
    this.count--;
    return true;
  }

  /** Every value, in slot order (not insertion order). */
  *values(): Generator<T> {
    const { hashes, slots } = this;
    for (let i = 0; i < hashes.length; i++) if (hashes[i] !== 0) yield slots[i]!;
  }

  private grow(): void {
    const old = this.slots;
    const oldHashes = this.hashes;
    const cap = oldHashes.length * 2;
    this.hashes = new Int32Array(cap);
    this.slots = new Array<T | undefined>(cap).fill(undefined);
    this.mask = cap - 1;
    for (let i = 0; i < oldHashes.length; i++) {
      const h = oldHashes[i]!;
      if (h === 0) continue;
      let j = h & this.mask;
      while (this.hashes[j] !== 0) j = (j + 1) & this.mask;
      this.hashes[j] = h;
      this.slots[j] = old[i];
    }
  }
}
