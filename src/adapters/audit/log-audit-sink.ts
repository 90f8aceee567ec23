/** The `log` sink: one structured line per event (`msg: "security event"`, the event under `audit`). */
import type { SecurityEvent } from '../../application/audit/security-event';
import type { AuditSink } from '../../application/ports/audit-trail';
import type { Logger } from '../../application/ports/logger';

export class LogAuditSink implements AuditSink {
  readonly name = 'log';
  constructor(private readonly log: Logger) {}

  async write(events: readonly SecurityEvent[]): Promise<void> {
    for (const audit of events) this.log.info({ audit }, 'security event');
  }
}
