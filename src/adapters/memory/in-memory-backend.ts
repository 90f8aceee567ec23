/**
 * The in-process store backend, for tests, local development and single-instance deployments:
 * one store class per port, all on one Clock, behaving like the Redis stores (same contract
 * suites). Store-owned TTLs (retention, key-value, list and captcha TTLs) run on that clock;
 * expired entries are evicted when read, by `sweep()`, and by one unref'd interval timer, so
 * memory stays bounded even for keys that are never read again. Its StoreHealth is always up.
 */
import type { Clock } from '../../application/ports/clock';
import type { StoreHealth } from '../../application/ports/store-health';
import { InMemoryAuditStore } from './audit-store';
import { InMemoryWebhookOutbox } from './webhook-outbox';
import { InMemoryCaptchaStore } from './captcha-store';
import { setImmediate } from 'node:timers';
import { LoopPacer, type Sweepable } from './expiring-map';
import { InMemoryKeyValueStore } from './key-value-store';
import { InMemoryListStore } from './list-store';
import { InMemoryRateLimitStore } from './rate-limit-store';
import { InMemorySessionStore } from './session-store';

export interface InMemoryBackendOptions {
  /** How often the background sweep runs; 0 disables the timer (call `sweep()` yourself). Default 60 s. */
  readonly sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

export class InMemoryBackend implements StoreHealth {
  readonly sessions: InMemorySessionStore;
  readonly kv: InMemoryKeyValueStore;
  readonly lists: InMemoryListStore;
  readonly rateLimits: InMemoryRateLimitStore;
  readonly captchas: InMemoryCaptchaStore;
  /** Security events: a bounded ring per login type and log (not swept, not counted by size(): its bound is its own). */
  readonly audit = new InMemoryAuditStore();
  /** Pending webhook deliveries (bounded per endpoint by the sink's maxPending). */
  readonly webhooks: InMemoryWebhookOutbox;
  private readonly stores: readonly Sweepable[];
  private timer: NodeJS.Timeout | undefined;

  constructor(clock: Clock, opts: InMemoryBackendOptions = {}) {
    // One pacer for the stores a bulk operation loops over (sessions, refresh state): LoopPacer.
    const pacer = new LoopPacer();
    this.sessions = new InMemorySessionStore(clock, pacer);
    this.kv = new InMemoryKeyValueStore(clock, pacer);
    this.lists = new InMemoryListStore(clock);
    this.rateLimits = new InMemoryRateLimitStore(clock);
    this.captchas = new InMemoryCaptchaStore(clock);
    this.webhooks = new InMemoryWebhookOutbox(clock);
    this.stores = [this.sessions, this.kv, this.lists, this.rateLimits, this.captchas];
    const interval = opts.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    if (interval > 0) {
      this.timer = setInterval(() => this.backgroundSweep(), interval);
      this.timer.unref(); // never keeps the process alive
    }
  }

  /**
   * Evicts every entry whose TTL has passed on the store clock (sessions, tombstones,
   * key-value entries, lists, idle rate-limit logs, captcha answers) together with its index entries.
   * Returns how many top-level entries were removed.
   */
  sweep(): number {
    return this.stores.reduce((n, store) => n + store.sweep(), 0);
  }

  /**
   * The timer's sweep: the stores that sweep in steps (sessions, key-value entries: they read only
   * what is due, SWEEP_STEP entries a step, one turn of the event loop apart, so a login peak
   * expiring at once does not stall the process), the others at once.
   */
  private backgroundSweep(): void {
    for (const store of this.stores) {
      if (store.sweepStep === undefined) {
        store.sweep();
        continue;
      }
      const step = (): void => {
        if (this.timer !== undefined && store.sweepStep?.() === true) setImmediate(step);
      };
      step();
    }
  }

  /**
   * Entries currently held across every store, index entries included (expired entries count
   * until they are evicted). 0 when the backend holds nothing: what a memory-bound test watches.
   */
  size(): number {
    return this.stores.reduce((n, store) => n + store.size(), 0);
  }

  async ping(): Promise<{ up: boolean; latencyMs: number; detail?: string }> {
    return { up: true, latencyMs: 0 };
  }

  /** Stops the sweep timer; the stores stay usable. Safe to call twice. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
