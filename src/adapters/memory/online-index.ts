/**
 * The memory session store's ordered indexes (the online list of a login type, one user's sessions):
 * entries sorted by a total order, held in chunks of at most CHUNK entries that know their length,
 * so that the entry at a position is found by walking the chunk lengths (N / CHUNK numbers, a few
 * microseconds at a million) and one page costs O(page) after that, whatever the offset: no walk of
 * the skipped entries, no sort. Logins arrive in time order, so an insertion is nearly always an
 * append to the last chunk; one out of order (a clock set back) is a binary search and a splice of
 * one chunk. Removing an entry finds it by binary search on its key (the order is total), so an
 * entry costs one array slot per index and keeps no back-pointer.
 */

/** Entries per chunk at most; a chunk under a quarter of it is merged with its neighbour. */
const CHUNK = 256;

/** A total order on entries (no two distinct entries compare equal). */
export type EntryOrder<E> = (a: E, b: E) => number;

/** What a walk does with the entry it meets: keep it and go on, drop it (removed) and go on, or stop before it. */
export type Visit = 'next' | 'drop' | 'stop';

export class OrderedIndex<E> {
  private chunks: E[][] = [];
  private count = 0;

  constructor(private readonly order: EntryOrder<E>) {}

  get size(): number {
    return this.count;
  }

  add(entry: E): void {
    const last = this.chunks[this.chunks.length - 1];
    const tail = last?.[last.length - 1];
    if (last === undefined || tail === undefined) {
      this.chunks = [[entry]];
    } else if (this.order(tail, entry) < 0) {
      last.push(entry); // the usual case: a new login is the newest
      if (last.length > CHUNK) this.split(this.chunks.length - 1);
    } else {
      const c = this.chunkFor(entry);
      const chunk = this.chunks[c] as E[];
      const at = this.positionIn(chunk, entry);
      if (chunk[at] === entry) return;
      chunk.splice(at, 0, entry);
      if (chunk.length > CHUNK) this.split(c);
    }
    this.count++;
  }

  /** Removes the entry (found by its key); false when it is not there. */
  delete(entry: E): boolean {
    if (this.count === 0) return false;
    const c = this.chunkFor(entry);
    const chunk = this.chunks[c] as E[];
    const at = this.positionIn(chunk, entry);
    if (chunk[at] !== entry) return false;
    chunk.splice(at, 1);
    this.count--;
    this.shrunk(c);
    return true;
  }

  /**
   * Removes many entries at once (a bulk end): each chunk that holds some is filtered once, then
   * emptied chunks go and small ones are merged. O(k log N + chunks touched × CHUNK). Returns how many went.
   */
  deleteMany(entries: readonly E[]): number {
    if (entries.length < 32) return entries.reduce((n, e) => n + (this.delete(e) ? 1 : 0), 0);
    const gone = new Set(entries);
    const touched = new Set<number>();
    for (const e of entries) if (this.count > 0) touched.add(this.chunkFor(e));
    let removed = 0;
    for (const c of touched) {
      const chunk = this.chunks[c] as E[];
      const kept = chunk.filter((e) => !gone.has(e));
      removed += chunk.length - kept.length;
      this.chunks[c] = kept;
    }
    this.count -= removed;
    this.rebalance();
    return removed;
  }

  /** Drops empty chunks and merges each small one into the one before it while they fit in one chunk. */
  private rebalance(): void {
    const out: E[][] = [];
    for (const chunk of this.chunks) {
      if (chunk.length === 0) continue;
      const previous = out[out.length - 1];
      if (previous !== undefined && (chunk.length < CHUNK >> 2 || previous.length < CHUNK >> 2) && previous.length + chunk.length <= CHUNK)
        previous.push(...chunk);
      else out.push(chunk);
    }
    this.chunks = out;
  }

  /** The first entry, if any. */
  first(): E | undefined {
    return this.chunks[0]?.[0];
  }

  /**
   * Walks the entries from position `offset` on, in order, calling `visit` on each until it says
   * `stop` or the entries end; `drop` removes the entry met. The skipped positions cost one number
   * per chunk, never a look at their entries.
   */
  walk(offset: number, visit: (entry: E) => Visit): void {
    let c = 0;
    let skip = Math.max(0, offset);
    while (c < this.chunks.length && skip >= (this.chunks[c] as E[]).length) skip -= (this.chunks[c++] as E[]).length;
    let at = skip;
    while (c < this.chunks.length) {
      const chunk = this.chunks[c] as E[];
      if (at >= chunk.length) {
        c++;
        at = 0;
        continue;
      }
      const what = visit(chunk[at] as E);
      if (what === 'stop') return;
      if (what === 'next') {
        at++;
        continue;
      }
      chunk.splice(at, 1);
      this.count--;
      if (chunk.length === 0) this.chunks.splice(c, 1);
    }
  }

  /** Every entry in order (a copy: the index may change while the caller goes through it). */
  toArray(): E[] {
    const out: E[] = new Array<E>(this.count);
    let i = 0;
    for (const chunk of this.chunks) for (const e of chunk) out[i++] = e;
    return out;
  }

  /** The index of the chunk that holds (or would hold) the entry: the last whose first entry is not after it. */
  private chunkFor(entry: E): number {
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.order((this.chunks[mid] as E[])[0] as E, entry) <= 0) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first position in the chunk whose entry is not before `entry`. */
  private positionIn(chunk: readonly E[], entry: E): number {
    let lo = 0;
    let hi = chunk.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(chunk[mid] as E, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private split(c: number): void {
    const chunk = this.chunks[c] as E[];
    this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1));
  }

  /** After a removal from chunk c: drop it when empty, merge it into a neighbour when small. */
  private shrunk(c: number): void {
    const chunk = this.chunks[c] as E[];
    if (chunk.length === 0) {
      this.chunks.splice(c, 1);
      return;
    }
    if (chunk.length >= CHUNK >> 2) return;
    const next = this.chunks[c + 1];
    if (next !== undefined && chunk.length + next.length <= CHUNK) {
      chunk.push(...next);
      this.chunks.splice(c + 1, 1);
      return;
    }
    const previous = this.chunks[c - 1];
    if (previous !== undefined && chunk.length + previous.length <= CHUNK) {
      previous.push(...chunk);
      this.chunks.splice(c, 1);
    }
  }
}
