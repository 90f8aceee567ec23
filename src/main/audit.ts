/**
 * An app's audit trail (docs/audit.md): the sinks svc.audit.sinks names, each behind its own
 * bounded queue, counted in the app's metrics; written out when the infrastructure closes. With
 * `webhook`, the app also delivers the webhook outbox (only an app that serves requests: the
 * command-line tools record nothing and deliver nothing).
 */
import { DEFAULT_AUDIT_QUEUE, QueuedAuditTrail } from '../application/audit/queued-audit-trail';
import { StoreAuditSink } from '../application/audit/store-audit-sink';
import { DEFAULT_WEBHOOK_DISPATCH, WebhookDispatcher, type DispatchEndpoint } from '../application/audit/webhook-dispatcher';
import { WebhookSink } from '../application/audit/webhook-sink';
import { endpointIdOf, webhookKey } from '../application/audit/webhooks';
import type { SecurityEventType } from '../application/audit/security-event';
import type { AuditSink } from '../application/ports/audit-trail';
import type { Metrics } from '../application/ports/metrics';
import { BowserUserAgentParser } from '../adapters/audit/bowser-user-agent-parser';
import { FetchWebhookTransport } from '../adapters/audit/fetch-webhook-transport';
import { LogAuditSink } from '../adapters/audit/log-audit-sink';
import { createMySqlPool } from '../adapters/sql/mysql-pool';
import { SqlAuditSink } from '../adapters/sql/sql-audit-sink';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import type { StorePorts } from './store-ports';

const DAY_MS = 86_400_000;

/** The `webhook` sink and its dispatcher, or null without endpoints. */
function webhookSinkOf(
  config: AppConfig,
  infra: Infrastructure,
  metrics: Metrics,
  stores: StorePorts,
): { sink: WebhookSink; dispatcher: WebhookDispatcher } | null {
  const endpoints: Array<DispatchEndpoint & { types?: readonly SecurityEventType[] }> = Object.entries(
    config.raw['svc.audit.webhooks'],
  ).map(([url, e]) => ({ id: endpointIdOf(url), url, key: webhookKey(e.secret) as Buffer, ...(e.types ? { types: e.types } : {}) }));
  if (endpoints.length === 0) {
    infra.log.warn({}, "svc.audit.sinks names 'webhook' but svc.audit.webhooks has no endpoint: no webhook is sent");
    return null;
  }
  const dispatcher = new WebhookDispatcher(endpoints, {
    outbox: stores.webhooks,
    transport: new FetchWebhookTransport(),
    clock: infra.clock,
    log: infra.log,
    metrics,
    settings: { ...DEFAULT_WEBHOOK_DISPATCH, maxAttempts: config.raw['svc.audit.webhook-max-attempts'] },
  });
  return { sink: new WebhookSink(endpoints, stores.webhooks, dispatcher, metrics), dispatcher };
}

/** `stores`: the app's store ports (through its per-app layers); `serving`: an HTTP app (not a tool). */
export function auditTrailOf(
  config: AppConfig,
  infra: Infrastructure,
  metrics: Metrics,
  stores: StorePorts,
  serving: boolean,
): QueuedAuditTrail {
  const sinks: AuditSink[] = [];
  let dispatcher: WebhookDispatcher | null = null;
  const closers: Array<() => Promise<void>> = [];
  for (const name of new Set(config.raw['svc.audit.sinks'])) {
    switch (name) {
      case 'log':
        sinks.push(new LogAuditSink(infra.log));
        break;
      case 'store':
        sinks.push(new StoreAuditSink(stores.audit, config.raw['svc.audit.retention-days'] * DAY_MS));
        break;
      case 'sql': {
        // A small pool of its own: the sink writes one batch at a time.
        const pool = createMySqlPool(config.datasource, { connectionLimit: 2 });
        sinks.push(new SqlAuditSink(pool, infra.clock, config.raw['svc.audit.retention-days'] * DAY_MS));
        closers.push(() => pool.end());
        break;
      }
      case 'webhook': {
        const made = webhookSinkOf(config, infra, metrics, stores);
        if (made !== null) sinks.push(made.sink);
        dispatcher = made?.dispatcher ?? null;
        break;
      }
    }
  }
  const trail = new QueuedAuditTrail(sinks, {
    clock: infra.clock,
    log: infra.log,
    metrics,
    userAgents: new BowserUserAgentParser(),
    settings: { ...DEFAULT_AUDIT_QUEUE, queueSize: config.raw['svc.audit.queue-size'] },
  });
  // Closers run in order: the trail's last batch reaches the outbox before the dispatcher stops.
  infra.onClose(() => trail.close());
  for (const close of closers) infra.onClose(close);
  if (dispatcher !== null && serving) {
    const d = dispatcher;
    d.start();
    infra.onClose(() => d.stop());
  }
  return trail;
}
