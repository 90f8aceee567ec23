/**
 * AuditStore on Redis: one Stream per login type and log (key-layout.ts: `<p>ev:<type>:<log>`,
 * tagged on a cluster). Each entry holds the event's encoding (audit-codec.ts) in field `e` and its
 * chain hash (hash-chain.ts) in `h`, under an id whose ms is the event's time. A batch for one
 * stream is one script (audit-append.lua), which also trims what is older than the retention
 * (MINID) and appends a batch sent again only once (at-least-once by the trail, once in the
 * stream). A search reads newest first with XREVRANGE, skipping unparsed the entries without its
 * filters' text, at most AUDIT_SCAN_LIMIT entries per page; the cursor is the stream id where it stopped.
 */
import { ChainVerifier, type ChainReport } from '../../application/audit/hash-chain';
import type { AuditLogName, SecurityEvent } from '../../application/audit/security-event';
import type { AuditPage, AuditQuery, AuditStore } from '../../application/ports/audit-store';
import type { LoginType } from '../../domain/login-type';
import { AUDIT_SCAN_LIMIT, matchesAuditQuery } from '../audit-filter';
import { decodeEvent, encodeEvent, needles } from './audit-codec';
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
/**
 * How far past `to` an entry's id may lie: an event appended after a newer one takes that one's ms
 * (clocks of instances a little apart). Small, since every entry past `to` read is a read for nothing.
 */
const LATE_MS = 5_000;

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
        const events = list.flatMap((e) => [e.time, encodeEvent(e)]);
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
        const json = field(fields, 'e') ?? '';
        const eventId = decodeEvent(json, loginType, log)?.id ?? null;
        if (!verifier.add({ position: id, json, hash: field(fields, 'h') ?? '', eventId })) return verifier.report();
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
    const must = needles(q);
    let scanned = 0;
    for (;;) {
      const entries = (await this.client.xrevrange(key, end, start, 'COUNT', CHUNK)) as Array<[string, string[]]>;
      for (const [id, fields] of entries) {
        scanned++;
        const text = field(fields, 'e') ?? '';
        const e = must.every((n) => text.includes(n)) ? decodeEvent(text, q.loginType, q.log) : null;
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
