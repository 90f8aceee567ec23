/**
 * The audit trail's `sql` sink (migration 006): login-log events into sys_login_log, operations
 * into sys_oper_log, one multi-row INSERT IGNORE per table and batch (event_id is unique, so a batch
 * written again is kept once). At most once an hour, after a write, rows older than the retention
 * are deleted, a bounded number per statement, so the purge never holds the tables long.
 */
import type { Pool } from 'mysql2/promise';
import type { SecurityEvent } from '../../application/audit/security-event';
import type { AuditSink } from '../../application/ports/audit-trail';
import type { Clock } from '../../application/ports/clock';

const LOGIN_COLUMNS = [
  'event_id',
  'login_type',
  'event_type',
  'status',
  'reason',
  'user_id',
  'username',
  'token_id',
  'ipaddr',
  'os',
  'browser',
  'device_type',
  'request_id',
  'target',
  'event_time',
];
const OPER_COLUMNS = [
  'event_id',
  'login_type',
  'event_type',
  'action',
  'actor',
  'target',
  'summary',
  'status',
  'reason',
  'user_id',
  'username',
  'ipaddr',
  'os',
  'browser',
  'device_type',
  'request_id',
  'event_time',
];

/** A column's value. */
type Cell = string | Date | null;

const PURGE_EVERY_MS = 3_600_000;
const PURGE_ROWS = 10_000;

/** The columns both tables share, in their order after each table's own. */
function common(e: SecurityEvent): [Cell, Cell, Cell, Cell, Cell, Cell, Cell] {
  const ua = e.userAgent;
  return [
    e.userId ?? null,
    e.username ?? null,
    e.ip ?? null,
    ua?.os ?? null,
    ua?.browser ?? null,
    ua?.deviceType ?? null,
    e.requestId ?? null,
  ];
}

function loginRow(e: SecurityEvent): Cell[] {
  const [userId, username, ip, os, browser, device, requestId] = common(e);
  const status = e.outcome === 'success' ? '0' : '1';
  return [
    e.id,
    e.loginType,
    e.type,
    status,
    e.reason ?? null,
    userId,
    username,
    e.tokenId ?? null,
    ip,
    os,
    browser,
    device,
    requestId,
    e.target ?? null,
    new Date(e.time),
  ];
}

function operRow(e: SecurityEvent): Cell[] {
  const status = e.outcome === 'success' ? '0' : '1';
  return [
    e.id,
    e.loginType,
    e.type,
    e.action ?? '',
    e.actor ?? null,
    e.target ?? null,
    e.summary ?? null,
    status,
    e.reason ?? null,
    ...common(e),
    new Date(e.time),
  ];
}

export class SqlAuditSink implements AuditSink {
  readonly name = 'sql';
  private lastPurge = -Infinity;

  constructor(
    private readonly pool: Pool,
    private readonly clock: Clock,
    private readonly retentionMs: number,
  ) {}

  async write(events: readonly SecurityEvent[]): Promise<void> {
    await this.insert('sys_login_log', LOGIN_COLUMNS, events.filter((e) => e.log === 'login').map(loginRow));
    await this.insert('sys_oper_log', OPER_COLUMNS, events.filter((e) => e.log === 'operation').map(operRow));
    const now = this.clock.now();
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await this.purge(new Date(now - this.retentionMs));
    }
  }

  /** Deletes the rows older than `before` (UTC), PURGE_ROWS per statement; returns how many. */
  async purge(before: Date): Promise<number> {
    let removed = 0;
    for (const table of ['sys_login_log', 'sys_oper_log']) {
      for (;;) {
        const [r] = await this.pool.execute(`DELETE FROM ${table} WHERE event_time < ? ORDER BY event_time LIMIT ${PURGE_ROWS}`, [before]);
        const n = (r as { affectedRows: number }).affectedRows;
        removed += n;
        if (n < PURGE_ROWS) break;
      }
    }
    return removed;
  }

  private async insert(table: string, columns: readonly string[], rows: Cell[][]): Promise<void> {
    if (rows.length === 0) return;
    const one = `(${columns.map(() => '?').join(', ')})`;
    const sql = `INSERT IGNORE INTO ${table} (${columns.join(', ')}) VALUES ${rows.map(() => one).join(', ')}`;
    await this.pool.execute(sql, rows.flat());
  }
}
