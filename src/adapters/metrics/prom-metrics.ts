/**
 * The Metrics port on prom-client. Each app owns a Registry (two apps in one process never
 * clash, and each is labelled with its name); Node process metrics live in one process-wide
 * registry, collected once, and are appended to every app's exposition.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Metrics } from '../../application/ports/metrics';
import { FastHistogram, type HistogramSeries } from './fast-histogram';
import type { LoginType } from '../../domain/login-type';

let processMetrics: Registry | undefined;

/** Node/process metrics (CPU, memory, event loop lag, GC), registered once per process. */
export function processRegistry(): Registry {
  if (processMetrics === undefined) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

export class PromMetrics implements Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: FastHistogram<'method' | 'route' | 'status'>;
  private readonly logins: Counter<'login_type' | 'outcome'>;
  private readonly rateLimited: Counter<'limiter'>;
  private readonly signFailures: Counter<'reason'>;
  private readonly idempotency: Counter<'mode' | 'reason'>;
  private readonly storeDuration: FastHistogram<'store' | 'operation' | 'outcome'>;
  private readonly cacheLookups: Counter<'result'>;
  private readonly cacheInvalidations: Counter;
  private readonly cacheFlushes: Counter<'reason'>;
  private readonly cacheTracking: Gauge;
  private readonly mails: Counter<'kind' | 'outcome'>;
  private readonly audit = new Counter({
    name: 'authguard_audit_events_total',
    help: 'Security events per audit sink: written, failed (the write is retried with backoff) or dropped (the queue was full)',
    labelNames: ['sink', 'outcome'] as const,
    registers: [this.registry],
  });
  private readonly webhooks = new Counter({
    name: 'authguard_audit_webhook_deliveries_total',
    help: 'Webhook messages: delivered, failed (an attempt, retried with backoff), abandoned (after the last try), dropped (queue full)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly auditDepth = new Gauge({
    name: 'authguard_audit_queue_depth',
    help: 'Security events waiting for an audit sink',
    labelNames: ['sink'] as const,
    registers: [this.registry],
  });

  constructor(opts: { app: string }) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ app: opts.app });
    this.httpDuration = new FastHistogram({
      name: 'http_server_request_duration_seconds',
      help: 'HTTP request duration by route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.logins = new Counter({
      name: 'authguard_logins_total',
      help: 'Login attempts by login type and outcome',
      labelNames: ['login_type', 'outcome'],
      registers,
    });
    this.rateLimited = new Counter({
      name: 'authguard_rate_limit_rejections_total',
      help: 'Requests refused by a rate limiter',
      labelNames: ['limiter'],
      registers,
    });
    this.signFailures = new Counter({
      name: 'authguard_signature_failures_total',
      help: 'Signed requests that failed the check, by reason',
      labelNames: ['reason'],
      registers,
    });
    this.idempotency = new Counter({
      name: 'authguard_idempotency_conflicts_total',
      help: 'Duplicate submissions and idempotency conflicts',
      labelNames: ['mode', 'reason'],
      registers,
    });
    this.storeDuration = new FastHistogram({
      name: 'authguard_store_call_duration_seconds',
      help: 'Latency of store calls by store port, operation and outcome',
      labelNames: ['store', 'operation', 'outcome'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'authguard_session_cache_lookups_total',
      help: 'Session reads with the local session cache on: hit, miss (read from Redis) or bypass (tracking link down)',
      labelNames: ['result'],
      registers,
    });
    this.cacheInvalidations = new Counter({
      name: 'authguard_session_cache_invalidations_total',
      help: 'Cached sessions dropped by Redis invalidation messages',
      registers,
    });
    this.cacheFlushes = new Counter({
      name: 'authguard_session_cache_flushes_total',
      help: 'Whole-cache flushes: a Redis database flush, or the tracking link went down',
      labelNames: ['reason'],
      registers,
    });
    this.mails = new Counter({
      name: 'authguard_mail_total',
      help: 'E-mails handed to the mailer, by kind (reset, verify) and outcome (sent, failed, timeout)',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.cacheTracking = new Gauge({
      name: 'authguard_session_cache_tracking',
      help: '1 while the local session cache is in use (tracking link up), 0 while it is bypassed',
      registers,
    });
  }

  /**
   * The series of each label combination, made once and kept, found through nested maps keyed by
   * the (interned) label strings and the status number: no key string is built per observation.
   * The label sets are bounded (methods, route templates, statuses, store operations), so the maps are too.
   */
  private readonly httpSeries = new Map<string, Map<string, Map<number, HistogramSeries>>>();
  private readonly storeSeries = new Map<string, Map<string, { ok: HistogramSeries; error: HistogramSeries }>>();

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const byStatus = inner(
      inner(this.httpSeries, method, () => new Map()),
      route,
      () => new Map<number, HistogramSeries>(),
    );
    let series = byStatus.get(status);
    if (series === undefined) {
      series = this.httpDuration.seriesOf({ method, route, status: String(status) });
      byStatus.set(status, series);
    }
    series.observe(seconds);
  }

  loginAttempt(loginType: LoginType, outcome: string): void {
    this.logins.inc({ login_type: loginType, outcome });
  }
  rateLimitRejected(limiter: string): void {
    this.rateLimited.inc({ limiter });
  }
  signatureFailed(reason: string): void {
    this.signFailures.inc({ reason });
  }
  idempotencyConflict(mode: string, reason: string): void {
    this.idempotency.inc({ mode, reason });
  }
  mailSent(kind: string, outcome: 'sent' | 'failed' | 'timeout'): void {
    this.mails.inc({ kind, outcome });
  }
  auditEvents(sink: string, outcome: 'written' | 'failed' | 'dropped', count: number): void {
    this.audit.inc({ sink, outcome }, count);
  }
  webhookDeliveries(outcome: 'delivered' | 'failed' | 'abandoned' | 'dropped', count: number): void {
    this.webhooks.inc({ outcome }, count);
  }
  auditQueueDepth(sink: string, depth: number): void {
    this.auditDepth.set({ sink }, depth);
  }
  storeCall(store: string, operation: string, seconds: number, ok: boolean): void {
    const byOperation = inner(this.storeSeries, store, () => new Map<string, { ok: HistogramSeries; error: HistogramSeries }>());
    let pair = byOperation.get(operation);
    if (pair === undefined) {
      pair = {
        ok: this.storeDuration.seriesOf({ store, operation, outcome: 'ok' }),
        error: this.storeDuration.seriesOf({ store, operation, outcome: 'error' }),
      };
      byOperation.set(operation, pair);
    }
    (ok ? pair.ok : pair.error).observe(seconds);
  }

  private readonly lookupChildren = new Map<string, { inc(): void }>();

  sessionCacheLookup(result: 'hit' | 'miss' | 'bypass'): void {
    let child = this.lookupChildren.get(result);
    if (child === undefined) {
      child = this.cacheLookups.labels({ result });
      this.lookupChildren.set(result, child);
    }
    child.inc();
  }
  sessionCacheInvalidated(entries: number): void {
    this.cacheInvalidations.inc(entries);
  }
  sessionCacheFlushed(reason: 'server-flush' | 'link-down'): void {
    this.cacheFlushes.inc({ reason });
  }
  sessionCacheTracking(up: boolean): void {
    this.cacheTracking.set(up ? 1 : 0);
  }

  /** The Prometheus text exposition: this app's metrics, then the process metrics. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const [own, proc] = await Promise.all([this.registry.metrics(), processRegistry().metrics()]);
    return { contentType: this.registry.contentType, body: `${own.trimEnd()}\n${proc}` };
  }
}

/** The value under `key`, made by `make` the first time. */
function inner<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}
