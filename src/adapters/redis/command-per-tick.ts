/**
 * The session reads of one tick as one command (merges work; CheckPhaseStart, by contrast, only
 * decides when callers resume). The edge starts the requests read in one
 * event-loop turn together (CheckPhaseStart), so their session lookups are asked for within one run of
 * the microtask queue; instead of one command each (auto-pipelined into one write, but still a
 * command, a reply and a promise each in ioredis, and a command each for Redis), they leave as one
 * command at the next tick (the MGET of all their keys, or one read-and-touch script over all the
 * sessions) and each caller gets its own part of the reply.
 *
 * Standalone and Sentinel only: on a cluster the keys of different sessions live in different slots
 * (one command may not span them), so the session store reads each session on its own there.
 * One MGET or script is atomic, so a batched read sees each session exactly as a read of its own.
 * A failed command rejects every read of its batch (each caller fails closed, as it would alone); an
 * Error in one item's place of the answer (a script's per-session error reply) rejects that read only.
 */

/** Items per command at most; a batch that is full is sent and a new one begun. */
export const MAX_BATCH_ITEMS = 256;

interface Waiter<O> {
  resolve(value: O): void;
  reject(e: unknown): void;
}

export class CommandPerTick<I, O> {
  private items: I[] = [];
  private waiters: Waiter<O>[] = [];

  /** `send` answers one output per item, in order (an Error in an item's place fails that item). */
  constructor(
    private readonly send: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly maxItems = MAX_BATCH_ITEMS,
  ) {}

  /** The answer for `item`, from the next tick's command together with the other items of this tick. */
  run(item: I): Promise<O> {
    if (this.items.length >= this.maxItems) this.flush();
    return new Promise<O>((resolve, reject) => {
      if (this.items.length === 0) process.nextTick(this.flush);
      this.items.push(item);
      this.waiters.push({ resolve, reject });
    });
  }

  private readonly flush = (): void => {
    if (this.items.length === 0) return; // already sent (the batch was full)
    const items = this.items;
    const waiters = this.waiters;
    this.items = [];
    this.waiters = [];
    let sent: Promise<readonly O[]>;
    try {
      sent = this.send(items);
    } catch (e) {
      sent = Promise.reject(e);
    }
    sent.then(
      (out) => {
        if (!Array.isArray(out) || out.length !== waiters.length) {
          const e = new Error(
            `a batched command answered ${Array.isArray(out) ? out.length : typeof out} results for ${waiters.length} items`,
          );
          for (const w of waiters) w.reject(e);
          return;
        }
        for (let i = 0; i < waiters.length; i++) {
          const o: unknown = out[i];
          // An error in an item's place (a script's per-item error reply) fails that item only.
          if (o instanceof Error) (waiters[i] as Waiter<O>).reject(o);
          else (waiters[i] as Waiter<O>).resolve(o as O);
        }
      },
      (e: unknown) => {
        for (const w of waiters) w.reject(e);
      },
    );
  };
}
