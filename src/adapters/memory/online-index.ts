/**
 * The memory session store's per-type online index: token hashes in login order (createdAt, then
 * the order they came in), so that a page of the online list costs O(offset + page), never a sort
 * of every session. Logins arrive in time order, so an insertion only appends; one that comes out
 * of order (a clock set back, a record written with an older createdAt) marks the index unordered,
 * and the next reader sorts it once (a stable sort: ties keep their order).
 */
export class OnlineIndex {
  /** hash -> createdAt, in order while `ordered`. */
  private entries = new Map<string, number>();
  private lastCreatedAt = -Infinity;
  private ordered = true;

  get size(): number {
    return this.entries.size;
  }

  /** Adds a session; one already there with the same createdAt keeps its place. */
  add(hash: string, createdAt: number): void {
    const present = this.entries.get(hash);
    if (present === createdAt) return;
    if (present !== undefined) this.entries.delete(hash);
    if (createdAt < this.lastCreatedAt) this.ordered = false;
    else this.lastCreatedAt = createdAt;
    this.entries.set(hash, createdAt);
  }

  delete(hash: string): void {
    this.entries.delete(hash);
  }

  /** The hashes oldest first (deleting the current one while iterating is safe: a Map's iterator skips what is gone). */
  inOrder(): IterableIterator<string> {
    if (!this.ordered) {
      this.entries = new Map([...this.entries].sort((a, b) => a[1] - b[1]));
      this.ordered = true;
    }
    return this.entries.keys();
  }
}
