/**
 * How a security event is stored in a Redis stream: its JSON with one- or two-letter keys and
 * without what the stream's key already says (its log and login type): about 100 bytes less per
 * event than the event's own JSON (docs/audit.md#measured). A search can test an entry's text for
 * a filter's `"key":value` before parsing it (needles), since the encoding writes no spaces.
 */
import type { AuditLogName, SecurityEvent } from '../../application/audit/security-event';
import type { AuditQuery } from '../../application/ports/audit-store';
import type { LoginType } from '../../domain/login-type';

/** Each field's short key, in the order written. */
const KEYS = {
  id: 'i',
  time: 't',
  type: 'y',
  outcome: 'o',
  reason: 'r',
  userId: 'u',
  username: 'n',
  tokenId: 'k',
  ip: 'p',
  userAgent: 'a',
  requestId: 'q',
  actor: 'c',
  action: 'x',
  target: 'g',
  summary: 'm',
} as const satisfies Partial<Record<keyof SecurityEvent, string>>;

type Field = keyof typeof KEYS;
const FIELDS = Object.keys(KEYS) as Field[];

export function encodeEvent(e: SecurityEvent): string {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = e[f];
    if (v === undefined) continue;
    out[KEYS[f]] = f === 'userAgent' && typeof v === 'object' ? { o: v.os, b: v.browser, d: v.deviceType } : v;
  }
  return JSON.stringify(out);
}

/** The event stored as `text` in the stream of `loginType`'s `log`; null when it is not one. */
export function decodeEvent(text: string, loginType: LoginType, log: AuditLogName): SecurityEvent | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null || typeof raw.i !== 'string') return null;
  const e: Record<string, unknown> = { log, loginType };
  for (const f of FIELDS) {
    const v = raw[KEYS[f]];
    if (v === undefined) continue;
    const ua = v as { o?: string; b?: string; d?: string };
    e[f] = f === 'userAgent' ? { os: ua.o, browser: ua.b, deviceType: ua.d } : v;
  }
  return e as unknown as SecurityEvent;
}

/** Text every entry that matches `q` contains (each filter's `"key":value`): entries without one are skipped unparsed. */
export function needles(q: AuditQuery): string[] {
  const pairs: Array<[Field, string | undefined]> = [
    ['username', q.username],
    ['userId', q.userId],
    ['ip', q.ip],
    ['outcome', q.outcome],
    ['actor', q.actor],
    ['action', q.action],
    ['target', q.target],
  ];
  const out = pairs.filter((p): p is [Field, string] => p[1] !== undefined).map(([f, v]) => `"${KEYS[f]}":${JSON.stringify(v)}`);
  if (q.types?.length === 1) out.push(`"${KEYS.type}":${JSON.stringify(q.types[0])}`);
  return out;
}
