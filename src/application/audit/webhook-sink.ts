/**
 * The `webhook` sink: each endpoint's share of a batch (the types it asked for) is queued in the
 * store's outbox, and the dispatcher is told to deliver. Queuing, not sending, is what the trail
 * retries: an endpoint that is down holds up nothing but its own queue.
 */
import type { AuditSink } from '../ports/audit-trail';
import type { WebhookOutbox } from '../ports/webhook-outbox';
import type { SecurityEvent, SecurityEventType } from './security-event';
import type { WebhookDispatcher, WebhookMetrics } from './webhook-dispatcher';
import { webhookBody } from './webhooks';

export interface SinkEndpoint {
  readonly id: string;
  readonly types?: readonly SecurityEventType[];
}

/** Messages an endpoint's queue holds at most; more are dropped (counted). */
export const MAX_PENDING_DELIVERIES = 100_000;

export class WebhookSink implements AuditSink {
  readonly name = 'webhook';

  constructor(
    private readonly endpoints: readonly SinkEndpoint[],
    private readonly outbox: WebhookOutbox,
    private readonly dispatcher: WebhookDispatcher,
    private readonly metrics: WebhookMetrics,
  ) {}

  async write(events: readonly SecurityEvent[]): Promise<void> {
    for (const ep of this.endpoints) {
      const wanted = ep.types === undefined ? events : events.filter((e) => ep.types?.includes(e.type));
      if (wanted.length === 0) continue;
      // The batch id names these events (the trail retries a failed batch as it was), so an endpoint
      // that took them before another endpoint failed does not queue them twice.
      const batchId = `${(wanted[0] as SecurityEvent).id}:${wanted.length}`;
      const messages = wanted.map((e) => ({ id: e.id, body: webhookBody(e) }));
      const taken = await this.outbox.enqueue(ep.id, batchId, messages, MAX_PENDING_DELIVERIES);
      if (taken < wanted.length) this.metrics.webhookDeliveries('dropped', wanted.length - taken);
      this.dispatcher.nudge(ep.id);
    }
  }
}
