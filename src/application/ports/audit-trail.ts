/**
 * Where security events go. `AuditTrail.record` is what a recorder calls: it returns at once, never
 * throws and never waits for a sink (the trail queues the event and writes it in batches later).
 * An `AuditSink` is one destination of those batches (the log, the store); a sink that fails is
 * retried by the trail, never by the request that made the event.
 */
import type { SecurityEvent, SecurityEventInput } from '../audit/security-event';

export interface AuditTrail {
  record(event: SecurityEventInput): void;
}

export interface AuditSink {
  /** Names the sink in metrics and logs (`log`, `store`, ...). */
  readonly name: string;
  /** Writes a batch, oldest first; rejects when nothing of it may be taken as written. */
  write(events: readonly SecurityEvent[]): Promise<void>;
}
