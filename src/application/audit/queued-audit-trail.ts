/**
 * The audit trail as the apps use it: `record` stamps an event (id, time) and queues it for every
 * sink, and returns; nothing on the request path waits for a sink or can fail because of one.
 * Each sink has its own bounded queue, drained in batches off the request path (the next turn of
 * the event loop; while a write is in flight the next batch gathers). A sink that fails keeps its
 * batch and is retried with exponential backoff (with jitter), counted as `failed`; an event that
 * finds its sink's queue full is dropped, counted as `dropped` and logged (at most once a minute
 * per sink, with the count). The user agent is parsed when the batch is made, not in the request.
 */
import type { AuditSink, AuditTrail } from '../ports/audit-trail';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { UserAgentParser } from '../ports/user-agent-parser';
import { UuidV7 } from './event-id';
import { eventOf, type SecurityEvent, type SecurityEventInput } from './security-event';

export interface AuditQueueSettings {
  /** Events waiting per sink at most (svc.audit.queue-size). */
  readonly queueSize: number;
  /** Events per write. */
  readonly batchSize: number;
  /** First retry delay of a failing sink; doubled per failure up to `retryMaxMs`. */
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export const DEFAULT_AUDIT_QUEUE: Omit<AuditQueueSettings, 'queueSize'> = { batchSize: 200, retryBaseMs: 250, retryMaxMs: 30_000 };

/** What the trail counts (authguard_audit_events_total{sink,outcome}, authguard_audit_queue_depth{sink}). */
export interface AuditMetrics {
  auditEvents(sink: string, outcome: 'written' | 'failed' | 'dropped', count: number): void;
  auditQueueDepth(sink: string, depth: number): void;
}

export interface AuditTrailDeps {
  readonly clock: Clock;
  readonly log: Logger;
  readonly metrics: AuditMetrics;
  readonly userAgents: UserAgentParser;
  readonly settings: AuditQueueSettings;
}

/** An event as recorded, made into a SecurityEvent once, when a sink first needs it (null: a recorder's bug). */
class Pending {
  private made: SecurityEvent | null | undefined;
  constructor(
    private readonly input: SecurityEventInput,
    private readonly id: string,
    private readonly time: number,
  ) {}

  event(userAgents: UserAgentParser, log: Logger): SecurityEvent | null {
    if (this.made === undefined) {
      try {
        const ua = this.input.userAgent === undefined ? undefined : userAgents.parse(this.input.userAgent);
        this.made = eventOf(this.input, this.id, this.time, ua);
      } catch (e) {
        log.error({ err: e, type: this.input.type }, 'audit: an event could not be made; dropped');
        this.made = null;
      }
    }
    return this.made;
  }
}

const DROP_LOG_INTERVAL_MS = 60_000;
/** How long closing waits for the sinks to take what is queued. */
const CLOSE_WAIT_MS = 5_000;

class SinkQueue {
  private items: Pending[] = [];
  /** The batch being written: retried as it is until it is written (so a store can tell it is the same batch). */
  private batch: SecurityEvent[] | null = null;
  private batchLength = 0;
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private droppedSinceLog = 0;
  private lastDropLog = -Infinity;

  constructor(
    readonly sink: AuditSink,
    private readonly deps: AuditTrailDeps,
  ) {}

  get depth(): number {
    return this.items.length;
  }

  push(p: Pending): void {
    const { metrics, settings, clock, log } = this.deps;
    if (this.items.length >= settings.queueSize) {
      metrics.auditEvents(this.sink.name, 'dropped', 1);
      this.droppedSinceLog++;
      const now = clock.now();
      if (now - this.lastDropLog >= DROP_LOG_INTERVAL_MS) {
        log.warn(
          { sink: this.sink.name, dropped: this.droppedSinceLog, queueSize: settings.queueSize },
          'audit: queue full, events dropped',
        );
        this.lastDropLog = now;
        this.droppedSinceLog = 0;
      }
      return;
    }
    this.items.push(p);
    metrics.auditQueueDepth(this.sink.name, this.items.length);
    if (this.draining === null && this.timer === undefined) {
      this.timer = setTimeout(() => this.start(), 0);
      this.timer.unref();
    }
  }

  /** Writes until the queue is empty or the sink fails (then a retry is scheduled). */
  start(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async drain(): Promise<void> {
    const { metrics, settings, log, userAgents } = this.deps;
    while (this.items.length > 0) {
      if (this.batch === null) {
        const taken = this.items.slice(0, settings.batchSize);
        this.batch = taken.map((p) => p.event(userAgents, log)).filter((e): e is SecurityEvent => e !== null);
        this.batchLength = taken.length;
      }
      const events = this.batch;
      try {
        if (events.length > 0) await this.sink.write(events);
      } catch (e) {
        this.failed(e, events.length);
        return;
      }
      this.items = this.items.slice(this.batchLength);
      this.batch = null;
      if (this.failures > 0) log.info({ sink: this.sink.name, failures: this.failures }, 'audit: sink writes again');
      this.failures = 0;
      metrics.auditEvents(this.sink.name, 'written', events.length);
      metrics.auditQueueDepth(this.sink.name, this.items.length);
    }
  }

  private failed(e: unknown, count: number): void {
    const { metrics, settings, log } = this.deps;
    this.failures++;
    metrics.auditEvents(this.sink.name, 'failed', count);
    const delay = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(this.failures - 1, 20));
    const jittered = Math.round(delay * (0.5 + Math.random() / 2));
    if (this.failures === 1 || this.failures % 10 === 0) {
      const message = e instanceof Error ? e.message : String(e);
      log.warn(
        { sink: this.sink.name, failures: this.failures, retryMs: jittered, queued: this.items.length, err: { message } },
        'audit: sink write failed',
      );
    }
    this.timer = setTimeout(() => void this.start(), jittered);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export class QueuedAuditTrail implements AuditTrail {
  private readonly ids = new UuidV7();
  private readonly queues: readonly SinkQueue[];
  private closed = false;

  constructor(
    sinks: readonly AuditSink[],
    private readonly deps: AuditTrailDeps,
  ) {
    this.queues = sinks.map((s) => new SinkQueue(s, deps));
  }

  /** Whether any sink is configured (none: recording is skipped at once). */
  get enabled(): boolean {
    return this.queues.length > 0;
  }

  record(input: SecurityEventInput): void {
    if (this.closed || this.queues.length === 0) return;
    try {
      const time = this.deps.clock.now();
      const pending = new Pending(input, this.ids.next(time), time);
      for (const q of this.queues) q.push(pending);
    } catch (e) {
      this.deps.log.error({ err: e }, 'audit: recording failed');
    }
  }

  /** Events waiting per sink. */
  depths(): Readonly<Record<string, number>> {
    return Object.fromEntries(this.queues.map((q) => [q.sink.name, q.depth]));
  }

  /** Writes what is queued now, once per sink (a failing sink keeps its events and its retry). */
  async flush(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.start()));
  }

  /**
   * A last flush (waiting at most CLOSE_WAIT_MS for a slow sink); then nothing more is recorded, and
   * what a failing sink still holds is reported as lost.
   */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_WAIT_MS);
      timer.unref();
    });
    await Promise.race([this.flush(), waited]);
    clearTimeout(timer);
    this.closed = true;
    for (const q of this.queues) {
      q.stop();
      if (q.depth > 0) this.deps.log.warn({ sink: q.sink.name, lost: q.depth }, 'audit: closed with events not written');
    }
  }
}
