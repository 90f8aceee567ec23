/**
 * AuditStore in process: one ring per login type and log, of at most `capacity` events (the
 * oldest go first; older than the retention removed on append), in the order appended, each with
 * its chain hash (hash-chain.ts). A position counts the log's appends, the cursor is one (like a
 * Redis stream id); an event id already held is not appended again.
 */
import { chainHash, ChainVerifier, type ChainReport } from '../../application/audit/hash-chain';
import type { AuditLogName, SecurityEvent } from '../../application/audit/security-event';
import type { AuditPage, AuditQuery, AuditStore } from '../../application/ports/audit-store';
import type { LoginType } from '../../domain/login-type';
import { AUDIT_SCAN_LIMIT, matchesAuditQuery } from '../audit-filter';

/** Events kept per login type and log. */
export const MEMORY_AUDIT_CAPACITY = 10_000;

interface Stored {
  readonly seq: number;
  readonly event: SecurityEvent;
  readonly json: string;
  readonly hash: string;
}

interface Ring {
  readonly entries: Stored[];
  readonly ids: Set<string>;
  next: number;
  hash: string;
}

export class InMemoryAuditStore implements AuditStore {
  private readonly logs = new Map<string, Ring>();

  constructor(private readonly capacity = MEMORY_AUDIT_CAPACITY) {}

  private ring(loginType: LoginType, log: AuditLogName): Ring {
    const key = `${loginType}:${log}`;
    let r = this.logs.get(key);
    if (r === undefined) {
      r = { entries: [], ids: new Set(), next: 1, hash: '' };
      this.logs.set(key, r);
    }
    return r;
  }

  async append(events: readonly SecurityEvent[], retentionMs: number): Promise<void> {
    const touched = new Set<Ring>();
    for (const event of events) {
      const r = this.ring(event.loginType, event.log);
      if (r.ids.has(event.id)) continue; // a batch appended again
      const json = JSON.stringify(event);
      r.hash = chainHash(r.hash, json);
      r.entries.push({ seq: r.next++, event, json, hash: r.hash });
      r.ids.add(event.id);
      touched.add(r);
    }
    const cutOff = events.reduce((t, e) => Math.max(t, e.time), -Infinity) - retentionMs;
    for (const r of touched) {
      let drop = Math.max(0, r.entries.length - this.capacity);
      while (drop < r.entries.length && (r.entries[drop] as Stored).event.time < cutOff) drop++;
      for (const gone of r.entries.splice(0, drop)) r.ids.delete(gone.event.id);
    }
  }

  async query(q: AuditQuery): Promise<AuditPage> {
    const entries = this.logs.get(`${q.loginType}:${q.log}`)?.entries ?? [];
    const before = q.cursor !== undefined && /^\d{1,15}$/.test(q.cursor) ? Number(q.cursor) : Infinity;
    const list: SecurityEvent[] = [];
    let scanned = 0;
    for (let i = entries.length - 1; i >= 0; i--) {
      const { seq, event } = entries[i] as Stored;
      if (seq >= before) continue;
      if (matchesAuditQuery(event, q)) {
        list.push(event);
        if (list.length === q.limit) return { list, nextCursor: i > 0 ? String(seq) : null };
      }
      if (++scanned === AUDIT_SCAN_LIMIT) return { list, nextCursor: i > 0 ? String(seq) : null };
    }
    return { list, nextCursor: null };
  }

  async verifyChain(loginType: LoginType, log: AuditLogName, range: { from?: number; to?: number } = {}): Promise<ChainReport> {
    const verifier = new ChainVerifier();
    for (const s of this.logs.get(`${loginType}:${log}`)?.entries ?? []) {
      if ((range.from !== undefined && s.event.time < range.from) || (range.to !== undefined && s.event.time > range.to)) continue;
      if (!verifier.add({ position: String(s.seq), json: s.json, hash: s.hash, eventId: s.event.id })) break;
    }
    return verifier.report();
  }
}
