/** A security event as the log routes show it: its time in svc.time-zone, absent fields as null. */
import { formatDateTime } from '../shared/date-time';
import type { LoginType } from '../../domain/login-type';
import type { EventOutcome, SecurityEvent, SecurityEventType } from './security-event';

export interface AuditEntry {
  readonly id: string;
  readonly time: string;
  readonly type: SecurityEventType;
  readonly loginType: LoginType;
  readonly outcome: EventOutcome;
  readonly reason: string | null;
  readonly userId: string | null;
  readonly username: string | null;
  readonly tokenId: string | null;
  readonly ip: string | null;
  readonly os: string | null;
  readonly browser: string | null;
  readonly deviceType: string | null;
  readonly requestId: string | null;
  readonly actor: string | null;
  readonly action: string | null;
  readonly target: string | null;
  readonly summary: string | null;
}

export function auditEntryOf(e: SecurityEvent, timeZone: string): AuditEntry {
  return {
    id: e.id,
    time: formatDateTime(e.time, timeZone),
    type: e.type,
    loginType: e.loginType,
    outcome: e.outcome,
    reason: e.reason ?? null,
    userId: e.userId ?? null,
    username: e.username ?? null,
    tokenId: e.tokenId ?? null,
    ip: e.ip ?? null,
    os: e.userAgent?.os ?? null,
    browser: e.userAgent?.browser ?? null,
    deviceType: e.userAgent?.deviceType ?? null,
    requestId: e.requestId ?? null,
    actor: e.actor ?? null,
    action: e.action ?? null,
    target: e.target ?? null,
    summary: e.summary ?? null,
  };
}
