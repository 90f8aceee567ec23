/**
 * An app's audit trail (docs/audit.md): the sinks svc.audit.sinks names, each behind its own
 * bounded queue, counted in the app's metrics; written out when the infrastructure closes.
 */
import { DEFAULT_AUDIT_QUEUE, QueuedAuditTrail } from '../application/audit/queued-audit-trail';
import { StoreAuditSink } from '../application/audit/store-audit-sink';
import type { AuditStore } from '../application/ports/audit-store';
import type { AuditSink } from '../application/ports/audit-trail';
import type { Metrics } from '../application/ports/metrics';
import { BowserUserAgentParser } from '../adapters/audit/bowser-user-agent-parser';
import { LogAuditSink } from '../adapters/audit/log-audit-sink';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';

const DAY_MS = 86_400_000;

/** `store`: the app's AuditStore (through its per-app layers). */
export function auditTrailOf(config: AppConfig, infra: Infrastructure, metrics: Metrics, store: AuditStore): QueuedAuditTrail {
  const sinks: AuditSink[] = [];
  for (const name of new Set(config.raw['svc.audit.sinks'])) {
    switch (name) {
      case 'log':
        sinks.push(new LogAuditSink(infra.log));
        break;
      case 'store':
        sinks.push(new StoreAuditSink(store, config.raw['svc.audit.retention-days'] * DAY_MS));
        break;
    }
  }
  const trail = new QueuedAuditTrail(sinks, {
    clock: infra.clock,
    log: infra.log,
    metrics,
    userAgents: new BowserUserAgentParser(),
    settings: { ...DEFAULT_AUDIT_QUEUE, queueSize: config.raw['svc.audit.queue-size'] },
  });
  infra.onClose(() => trail.close());
  return trail;
}
