/** KeyValueStore in memory: every call is synchronous inside, so atomic on the event loop. TTLs on the store clock. */
import type { Clock } from '../../application/ports/clock';
import type { KeyValueEntry, KeyValueStore } from '../../application/ports/key-value-store';
import { deadlineAfter, ExpiringMap, LoopPacer, type Sweepable } from './expiring-map';

export class InMemoryKeyValueStore implements KeyValueStore, Sweepable {
  private readonly kv: ExpiringMap<string>;

  /** `pacer`: lets the event loop turn during a long loop of awaited calls (LoopPacer). */
  constructor(
    private readonly clock: Clock,
    private readonly pacer = new LoopPacer(),
  ) {
    this.kv = new ExpiringMap(clock);
  }

  async get(key: string): Promise<string | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    return this.kv.live(key)?.value ?? null;
  }

  async delete(key: string): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const existed = this.kv.live(key) !== undefined;
    this.kv.delete(key);
    return existed;
  }

  async set(key: string, value: string, ttlMs: number | null): Promise<void> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    this.kv.set(key, value, deadlineAfter(this.clock, ttlMs));
  }

  async setMany(entries: readonly KeyValueEntry[]): Promise<void> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    for (const e of entries) this.kv.set(e.key, e.value, deadlineAfter(this.clock, e.ttlMs));
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    if (this.kv.live(key) !== undefined) return false;
    this.kv.set(key, value, deadlineAfter(this.clock, ttlMs));
    return true;
  }

  async getAndDelete(key: string): Promise<string | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.kv.live(key);
    if (entry === undefined) return null;
    this.kv.delete(key);
    return entry.value;
  }

  async deleteIfEquals(key: string, expected: string): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.kv.live(key);
    if (entry === undefined || entry.value !== expected) return false;
    this.kv.delete(key);
    return true;
  }

  async deleteIfEqualsAndSet(key: string, expected: string, next: KeyValueEntry): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.kv.live(key);
    if (entry === undefined || entry.value !== expected) return false;
    this.kv.delete(key);
    this.kv.set(next.key, next.value, deadlineAfter(this.clock, next.ttlMs));
    return true;
  }

  async setIfAbsentOrGet(key: string, value: string, ttlMs: number): Promise<string | null> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.kv.live(key);
    if (entry !== undefined) return entry.value;
    this.kv.set(key, value, deadlineAfter(this.clock, ttlMs));
    return null;
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const entry = this.kv.live(key);
    if (entry === undefined || entry.value !== expected) return false;
    this.kv.set(key, value, deadlineAfter(this.clock, ttlMs));
    return true;
  }

  async increment(key: string, ttlMs: number): Promise<{ count: number; ttlMs: number }> {
    const wait = this.pacer.pace();
    if (wait) await wait;
    const now = this.clock.now();
    let entry = this.kv.live(key);
    // A new counter gets the TTL, and so does one that has none: a counter must not live forever
    // (the Redis script does the same).
    if (entry === undefined) entry = this.kv.set(key, '0', deadlineAfter(this.clock, ttlMs));
    else if (entry.deadline === null) entry = this.kv.set(key, entry.value, deadlineAfter(this.clock, ttlMs));
    if (!/^-?\d+$/.test(entry.value)) throw new Error(`increment: value of ${key} is not an integer`);
    const count = Number(entry.value) + 1;
    entry.value = String(count);
    return { count, ttlMs: (entry.deadline ?? now) - now };
  }

  sweep(): number {
    return this.kv.sweep();
  }

  sweepStep(): boolean {
    return this.kv.sweepStep();
  }

  size(): number {
    return this.kv.size();
  }
}
