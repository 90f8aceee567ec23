/** The `store` sink: batches appended to the AuditStore, which removes what is older than the retention. */
import type { AuditStore } from '../ports/audit-store';
import type { AuditSink } from '../ports/audit-trail';
import type { SecurityEvent } from './security-event';

export class StoreAuditSink implements AuditSink {
  readonly name = 'store';
  constructor(
    private readonly store: AuditStore,
    private readonly retentionMs: number,
  ) {}

  write(events: readonly SecurityEvent[]): Promise<void> {
    return this.store.append(events, this.retentionMs);
  }
}
