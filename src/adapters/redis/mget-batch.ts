/**
 * The session reads of one tick as one MGET. The edge starts the requests read in one event-loop
 * turn together (TurnBatch), so their session lookups are asked for within one run of the
 * microtask queue; instead of one MGET each (auto-pipelined into one write, but still a command,
 * a reply and a promise each in ioredis, and a command each for Redis), they leave as one MGET of
 * all their keys at the next tick and each caller gets its slice of the reply.
 *
 * Standalone and Sentinel only: on a cluster the keys of different sessions live in different slots
 * (one MGET may not span them), so the session store reads each session on its own there.
 * One MGET is atomic, so a batched read sees each session exactly as a read of its own would.
 * A failed MGET rejects every read of its batch (each caller fails closed, as it would alone).
 */
import type Redis from 'ioredis';

/** Keys per MGET at most; a batch that would grow past it is sent and a new one begun. */
export const MAX_BATCH_KEYS = 512;

interface Waiter {
  readonly at: number;
  readonly n: number;
  resolve(values: (string | null)[]): void;
  reject(e: unknown): void;
}

export class MgetBatch {
  private keys: string[] = [];
  private waiters: Waiter[] = [];

  constructor(
    private readonly client: Redis,
    private readonly maxKeys = MAX_BATCH_KEYS,
  ) {}

  /** The values of `keys` (in order), read in the next tick's MGET together with the other reads of this tick. */
  read(keys: readonly string[]): Promise<(string | null)[]> {
    if (this.keys.length > 0 && this.keys.length + keys.length > this.maxKeys) this.flush();
    return new Promise((resolve, reject) => {
      if (this.keys.length === 0) process.nextTick(this.flush);
      this.waiters.push({ at: this.keys.length, n: keys.length, resolve, reject });
      for (const k of keys) this.keys.push(k);
    });
  }

  private readonly flush = (): void => {
    if (this.keys.length === 0) return; // already sent (the batch reached the limit)
    const keys = this.keys;
    const waiters = this.waiters;
    this.keys = [];
    this.waiters = [];
    this.client.mget(keys).then(
      (values) => {
        for (const w of waiters) w.resolve(values.slice(w.at, w.at + w.n));
      },
      (e: unknown) => {
        for (const w of waiters) w.reject(e);
      },
    );
  };
}
