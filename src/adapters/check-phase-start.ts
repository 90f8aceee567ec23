/**
 * Holds callers back to the check phase of the current event-loop turn and releases them all
 * together there (one setImmediate for all of them), the way a network client resolves the replies
 * that arrived in one read. The callers' continuations then run one step at a time across all of
 * them (the microtask queue is breadth-first) instead of each running to its end before the next
 * starts: the same code runs back to back, and there is one macrotask per turn instead of one per
 * caller. It batches no work and sends nothing: it only decides *when* callers resume. (Not to be
 * confused with CommandPerTick, src/adapters/redis/command-per-tick.ts, which merges the store reads
 * asked for in one tick into one Redis command.) The local session cache's 'caller' hit ordering
 * relies on requestContext starting every request through one of these (checked at start).
 */
export class CheckPhaseStart {
  /** resolve, value, resolve, value, ... (flat: no object per answer). */
  private queue: unknown[] = [];

  answer<T>(value: T): Promise<T> {
    return new Promise<T>((resolve) => {
      if (this.queue.length === 0) setImmediate(this.flush);
      this.queue.push(resolve, value);
    });
  }

  private readonly flush = (): void => {
    const q = this.queue;
    this.queue = [];
    for (let i = 0; i < q.length; i += 2) (q[i] as (v: unknown) => void)(q[i + 1]);
  };
}
