/**
 * Delivers the pending webhook messages of each endpoint (docs/audit.md#webhooks): in order, one
 * at a time, from the head of the endpoint's queue in the store, by the one instance that holds
 * the endpoint's lease. A 2xx answer acknowledges a message; anything else (another status, no
 * answer within the timeout) is a failed attempt, retried with exponential backoff until
 * `maxAttempts`, then given up on (counted and logged). Delivery is at least once: an instance
 * that stops between a send and its acknowledgement leaves the message to be sent again, under the
 * same `webhook-id`, which receivers use to drop duplicates.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { PendingDelivery, WebhookOutbox } from '../ports/webhook-outbox';
import type { WebhookTransport } from '../ports/webhook-transport';
import { webhookHeaders } from './webhooks';

export interface WebhookDispatchSettings {
  /** svc.audit.webhook-max-attempts. */
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  /** Longest wait for an endpoint's answer. */
  readonly timeoutMs: number;
  /** How often an idle endpoint's queue is looked at (messages other instances queued, a lease that lapsed). */
  readonly pollMs: number;
  readonly leaseMs: number;
}

export const DEFAULT_WEBHOOK_DISPATCH: Omit<WebhookDispatchSettings, 'maxAttempts'> = {
  retryBaseMs: 1_000,
  retryMaxMs: 300_000,
  timeoutMs: 5_000,
  pollMs: 1_000,
  leaseMs: 30_000,
};

/** An endpoint as the dispatcher sends to it: its store id, URL and signing key. */
export interface DispatchEndpoint {
  readonly id: string;
  readonly url: string;
  readonly key: Buffer;
}

export interface WebhookMetrics {
  /** Webhook messages delivered, failed attempts, messages given up on after the last attempt, or dropped (queue full). */
  webhookDeliveries(outcome: 'delivered' | 'failed' | 'abandoned' | 'dropped', count: number): void;
}

export interface WebhookDispatcherDeps {
  readonly outbox: WebhookOutbox;
  readonly transport: WebhookTransport;
  readonly clock: Clock;
  readonly log: Logger;
  readonly metrics: WebhookMetrics;
  readonly settings: WebhookDispatchSettings;
}

export class WebhookDispatcher {
  private readonly owner = randomUUID();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<string>();
  private stopped = false;

  constructor(
    private readonly endpoints: readonly DispatchEndpoint[],
    private readonly deps: WebhookDispatcherDeps,
  ) {}

  /** Starts delivering: what is pending from before (a restart, another instance) goes out now. */
  start(): void {
    for (const ep of this.endpoints) this.schedule(ep, 0);
  }

  /** Messages were just queued for `endpointId`: deliver now rather than at the next poll. */
  nudge(endpointId: string): void {
    const ep = this.endpoints.find((e) => e.id === endpointId);
    if (ep !== undefined && !this.running.has(ep.id)) this.schedule(ep, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all(this.endpoints.map((ep) => this.deps.outbox.release(ep.id, this.owner).catch(() => undefined)));
  }

  private schedule(ep: DispatchEndpoint, delayMs: number): void {
    if (this.stopped) return;
    const pending = this.timers.get(ep.id);
    if (pending !== undefined) clearTimeout(pending);
    const timer = setTimeout(
      () => {
        this.timers.delete(ep.id);
        void this.run(ep);
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    this.timers.set(ep.id, timer);
  }

  private async run(ep: DispatchEndpoint): Promise<void> {
    if (this.running.has(ep.id) || this.stopped) return;
    this.running.add(ep.id);
    const { outbox, settings, log } = this.deps;
    let next = settings.pollMs;
    try {
      next = await this.drain(ep);
    } catch (e) {
      log.warn({ endpoint: ep.id, err: { message: e instanceof Error ? e.message : String(e) } }, 'webhook: the outbox could not be read');
    } finally {
      this.running.delete(ep.id);
    }
    if (next === settings.pollMs) await outbox.release(ep.id, this.owner).catch(() => undefined);
    this.schedule(ep, next);
  }

  /** Delivers from the head while it can; returns when to look again. */
  private async drain(ep: DispatchEndpoint): Promise<number> {
    const { outbox, settings, clock } = this.deps;
    for (;;) {
      if (this.stopped || !(await outbox.lease(ep.id, this.owner, settings.leaseMs))) return settings.pollMs;
      const head = await outbox.head(ep.id);
      if (head === null) return settings.pollMs;
      const wait = head.notBefore - clock.now();
      if (wait > 0) return Math.min(wait, settings.pollMs);
      const retryIn = await this.attempt(ep, head);
      if (retryIn !== null) return retryIn;
    }
  }

  /** One attempt at the head: null when it is done with (delivered or given up), else the delay before the next try. */
  private async attempt(ep: DispatchEndpoint, head: PendingDelivery): Promise<number | null> {
    const { outbox, transport, settings, clock, log, metrics } = this.deps;
    const headers = { 'content-type': 'application/json', ...webhookHeaders(ep.key, head.id, clock.now(), head.body) };
    let outcome: string;
    try {
      const status = await transport.post(ep.url, headers, head.body, settings.timeoutMs);
      if (status >= 200 && status < 300) {
        await outbox.ack(ep.id, head.id);
        metrics.webhookDeliveries('delivered', 1);
        return null;
      }
      outcome = `status ${status}`;
    } catch (e) {
      outcome = e instanceof Error ? e.message : String(e);
    }
    const attempts = head.attempts + 1;
    metrics.webhookDeliveries('failed', 1);
    if (attempts >= settings.maxAttempts) {
      await outbox.ack(ep.id, head.id);
      metrics.webhookDeliveries('abandoned', 1);
      log.error({ endpoint: ep.id, url: ep.url, id: head.id, attempts, outcome }, 'webhook: message given up after its last attempt');
      return null;
    }
    const delay = Math.min(settings.retryMaxMs, settings.retryBaseMs * 2 ** Math.min(attempts - 1, 20));
    await outbox.defer(ep.id, head.id, attempts, clock.now() + delay);
    if (attempts === 1 || attempts % 5 === 0)
      log.warn({ endpoint: ep.id, url: ep.url, attempts, retryMs: delay, outcome }, 'webhook: delivery failed');
    return delay;
  }
}
