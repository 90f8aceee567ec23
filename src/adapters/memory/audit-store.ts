/**
 * AuditStore in process: one ring per login type and log, of at most `capacity` events (the
 * oldest go first), ordered by id (UUIDv7: by time), older than the retention removed on append.
 * The cursor is the id of a page's last event.
 */
import type { AuditLogName, SecurityEvent } from '../../application/audit/security-event';
import type { AuditPage, AuditQuery, AuditStore } from '../../application/ports/audit-store';
import type { LoginType } from '../../domain/login-type';
import { AUDIT_SCAN_LIMIT, matchesAuditQuery } from '../audit-filter';

/** Events kept per login type and log. */
export const MEMORY_AUDIT_CAPACITY = 10_000;

export class InMemoryAuditStore implements AuditStore {
  private readonly logs = new Map<string, SecurityEvent[]>();

  constructor(private readonly capacity = MEMORY_AUDIT_CAPACITY) {}

  private logOf(loginType: LoginType, log: AuditLogName): SecurityEvent[] {
    const key = `${loginType}:${log}`;
    let events = this.logs.get(key);
    if (events === undefined) {
      events = [];
      this.logs.set(key, events);
    }
    return events;
  }

  async append(events: readonly SecurityEvent[], retentionMs: number): Promise<void> {
    const touched = new Set<SecurityEvent[]>();
    for (const e of events) {
      const log = this.logOf(e.loginType, e.log);
      let i = log.length;
      while (i > 0 && (log[i - 1] as SecurityEvent).id > e.id) i--; // nearly always at the end
      if (i > 0 && (log[i - 1] as SecurityEvent).id === e.id) continue; // a batch appended again
      log.splice(i, 0, e);
      touched.add(log);
    }
    const newest = events.reduce((t, e) => Math.max(t, e.time), -Infinity);
    for (const log of touched) {
      let drop = Math.max(0, log.length - this.capacity);
      while (drop < log.length && (log[drop] as SecurityEvent).time < newest - retentionMs) drop++;
      if (drop > 0) log.splice(0, drop);
    }
  }

  async query(q: AuditQuery): Promise<AuditPage> {
    const log = this.logs.get(`${q.loginType}:${q.log}`) ?? [];
    const list: SecurityEvent[] = [];
    let scanned = 0;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i] as SecurityEvent;
      if (q.cursor !== undefined && e.id >= q.cursor) continue;
      if (q.from !== undefined && e.time < q.from) break;
      if (matchesAuditQuery(e, q)) {
        list.push(e);
        if (list.length === q.limit) return { list, nextCursor: i > 0 ? e.id : null };
      }
      if (++scanned === AUDIT_SCAN_LIMIT) return { list, nextCursor: i > 0 ? e.id : null };
    }
    return { list, nextCursor: null };
  }
}
