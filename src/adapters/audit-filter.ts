/** What the AuditStore adapters share: whether an event matches a query's filters. */
import type { SecurityEvent } from '../application/audit/security-event';
import type { AuditQuery } from '../application/ports/audit-store';

/** Whether `e` passes every filter of `q` (login type and log are the store's choice of log, checked by it). */
export function matchesAuditQuery(e: SecurityEvent, q: AuditQuery): boolean {
  return (
    (q.username === undefined || e.username === q.username) &&
    (q.userId === undefined || e.userId === q.userId) &&
    (q.ip === undefined || e.ip === q.ip) &&
    (q.outcome === undefined || e.outcome === q.outcome) &&
    (q.types === undefined || q.types.includes(e.type)) &&
    (q.actor === undefined || e.actor === q.actor) &&
    (q.action === undefined || e.action === q.action) &&
    (q.target === undefined || e.target === q.target) &&
    (q.from === undefined || e.time >= q.from) &&
    (q.to === undefined || e.time <= q.to)
  );
}

/** Events a page reads at most before it answers (with a cursor where it stopped): a search's cost is bounded. */
export const AUDIT_SCAN_LIMIT = 5_000;
