/**
 * AuditStore on Redis: one Stream per login type and log (key-layout.ts: `<p>ev:<type>:<log>`,
 * tagged on a cluster), each entry one field `e` holding the event's JSON under an id whose ms is
 * the event's time. A batch for one stream is one script (audit-append.lua), which also trims what
 * is older than the retention (MINID), and appends a batch sent again only once (at-least-once
 * delivery by the trail, exactly once in the stream). A search reads newest first with XREVRANGE, at most
 * AUDIT_SCAN_LIMIT entries per page; the cursor is the stream id where the page stopped.
 */
import { ChainVerifier, type ChainReport } from '../../application/audit/hash-chain';
import type { AuditLogName, SecurityEvent } from '../../application/audit/security-event';
import type { AuditPage, AuditQuery, AuditStore } from '../../application/ports/audit-store';
import type { LoginType } from '../../domain/login-type';
import { AUDIT_SCAN_LIMIT, matchesAuditQuery } from '../audit-filter';
import type { KeyLayoutKind } from './key-layout';
import type { LuaScript } from './lua-scripts';
import type { RedisClient } from './redis-client';
import { ScriptedRedisStore } from './scripted-store';

const SCRIPTS = {
  agAuditAppend: { file: 'audit-append.lua', keys: 2 },
} satisfies Record<string, LuaScript>;

/** Entries per XREVRANGE. */
const CHUNK = 200;
/** A stream id: `<ms>-<seq>`. */
const STREAM_ID = /^\d{1,16}-\d{1,20}$/;
/** How far past `to` an entry's id may lie (an event written after a newer one takes that one's ms). */
const LATE_MS = 60_000;

export class RedisAuditStore extends ScriptedRedisStore<keyof typeof SCRIPTS> implements AuditStore {
  constructor(client: RedisClient, keyPrefix: string, layout?: KeyLayoutKind) {
    super(client, keyPrefix, SCRIPTS, layout);
  }

  private streamOf(loginType: LoginType, log: AuditLogName): string {
    return this.keys.auditLog(loginType, log);
  }

  async append(events: readonly SecurityEvent[], retentionMs: number): Promise<void> {
    const byStream = new Map<string, SecurityEvent[]>();
    for (const e of events) {
      const key = `${e.loginType}:${e.log}`;
      byStream.set(key, [...(byStream.get(key) ?? []), e]);
    }
    const newest = events.reduce((t, e) => Math.max(t, e.time), 0);
    const minId = Math.max(0, newest - retentionMs);
    await Promise.all(
      [...byStream.values()].map((list) => {
        const { loginType, log, id } = list[0] as SecurityEvent;
        // The batch's marker: its first id and its size (the same events sent again make the same marker).
        const recent = this.keys.auditBatches(loginType, log);
        const events = list.flatMap((e) => [e.time, JSON.stringify(e)]);
        return this.run('agAuditAppend', this.streamOf(loginType, log), recent, minId, `${id}:${list.length}`, ...events);
      }),
    );
  }

  async verifyChain(loginType: LoginType, log: AuditLogName, range: { from?: number; to?: number } = {}): Promise<ChainReport> {
    const key = this.streamOf(loginType, log);
    const verifier = new ChainVerifier();
    let start = range.from === undefined ? '-' : String(range.from);
    const end = range.to === undefined ? '+' : String(range.to);
    for (;;) {
      const entries = (await this.client.xrange(key, start, end, 'COUNT', CHUNK)) as Array<[string, string[]]>;
      for (const [id, fields] of entries) {
        if (!verifier.add({ position: id, json: field(fields, 'e') ?? '', hash: field(fields, 'h') ?? '' })) return verifier.report();
      }
      if (entries.length < CHUNK) return verifier.report();
      start = `(${(entries[entries.length - 1] as [string, string[]])[0]}`;
    }
  }

  async query(q: AuditQuery): Promise<AuditPage> {
    const key = this.streamOf(q.loginType, q.log);
    const start = q.from === undefined ? '-' : String(q.from);
    let end = q.to === undefined ? '+' : String(q.to + LATE_MS);
    if (q.cursor !== undefined && STREAM_ID.test(q.cursor)) end = `(${q.cursor}`;
    const list: SecurityEvent[] = [];
    let scanned = 0;
    for (;;) {
      const entries = (await this.client.xrevrange(key, end, start, 'COUNT', CHUNK)) as Array<[string, string[]]>;
      for (const [id, fields] of entries) {
        scanned++;
        const e = decode(fields);
        if (e !== null && matchesAuditQuery(e, q)) {
          list.push(e);
          if (list.length === q.limit) return { list, nextCursor: id };
        }
        if (scanned >= AUDIT_SCAN_LIMIT) return { list, nextCursor: id };
      }
      if (entries.length < CHUNK) return { list, nextCursor: null };
      end = `(${(entries[entries.length - 1] as [string, string[]])[0]}`;
    }
  }
}

/** The value of `name` among an entry's fields. */
function field(fields: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

/** The event of an entry's fields (`e`, JSON); null for an entry that is not one. */
function decode(fields: readonly string[]): SecurityEvent | null {
  const json = field(fields, 'e');
  if (json === undefined) return null;
  try {
    const e = JSON.parse(json) as SecurityEvent;
    return typeof e === 'object' && e !== null && typeof e.id === 'string' ? e : null;
  } catch {
    return null;
  }
}
