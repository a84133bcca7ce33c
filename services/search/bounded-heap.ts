/** Byte order of public ids: the tie-break of the in-memory ranking and of the SQL one (COLLATE "C", whatever the database's collation). */
export const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The best `capacity` provisions by key, ties by public id in byte order (the order
 * postgres-ranking-sql.ts's `ranked` gives): a min-heap whose root is the worst kept, so a provision
 * that does not beat it costs one comparison. The in-memory index (memory-index.ts) reads a common
 * word's tens of thousands of matches through one, instead of making an object of each and sorting.
 */
export class BoundedHeap {
  private readonly docs: Int32Array;
  private readonly keys: Float64Array;
  private size = 0;

  constructor(
    private readonly capacity: number,
    /** Each provision's public id, by provision number. */
    private readonly publicIds: readonly string[],
  ) {
    this.docs = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  /** Does (key a, provision docA) rank below (key b, provision docB)? */
  private below(keyA: number, docA: number, keyB: number, docB: number): boolean {
    return keyA < keyB || (keyA === keyB && compareIds(this.publicIds[docA]!, this.publicIds[docB]!) > 0);
  }

  offer(doc: number, key: number): void {
    if (this.size < this.capacity) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.below(key, doc, this.keys[parent]!, this.docs[parent]!)) break;
        this.docs[at] = this.docs[parent]!;
        this.keys[at] = this.keys[parent]!;
        at = parent;
      }
      this.docs[at] = doc;
      this.keys[at] = key;
      return;
    }
    if (this.capacity === 0 || !this.below(this.keys[0]!, this.docs[0]!, key, doc)) return;
    // Replaces the root (the worst kept) and sifts it down.
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      const right = child + 1;
      if (
        right < this.size &&
        this.below(this.keys[right]!, this.docs[right]!, this.keys[child]!, this.docs[child]!)
      )
        child = right;
      if (!this.below(this.keys[child]!, this.docs[child]!, key, doc)) break;
      this.docs[at] = this.docs[child]!;
      this.keys[at] = this.keys[child]!;
      at = child;
    }
    this.docs[at] = doc;
    this.keys[at] = key;
  }

  /** The provisions kept, best first. */
  sorted(): number[] {
    const order = Array.from({ length: this.size }, (_, i) => i);
    order.sort((x, y) =>
      this.below(this.keys[y]!, this.docs[y]!, this.keys[x]!, this.docs[x]!)
        ? -1
        : this.below(this.keys[x]!, this.docs[x]!, this.keys[y]!, this.docs[y]!)
          ? 1
          : 0,
    );
    return order.map((i) => this.docs[i]!);
  }
}
