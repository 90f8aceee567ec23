/**
 * The audit trail's one event model: every security-relevant fact (a login, a refusal, an
 * administrator's change) is a SecurityEvent. An event names who (user id and name, the session's
 * token id, never a token), from where (client IP, the user agent parsed into OS, browser and
 * device type), what (type, outcome, reason; for an operation: actor, action, target and a
 * summary of the request, never the request itself) and when (a sortable id and the time).
 *
 * `eventOf` is the only way to make one: it copies the known fields and nothing else, each checked
 * against its own shape (a reason from the catalogue, a token id of 32 hex digits (16 for a session of
 * an earlier release), an IP of IP
 * characters) and clipped, so no password, token, code, cookie, secret or signature reaches an
 * event whatever the recorder was handed.
 */
import { REASONS, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

/** The kinds of fact the trail records. */
export const SECURITY_EVENT_TYPES = [
  // the login log: a user's own sessions
  'login',
  'logout',
  'logout-all',
  'session-ended',
  'refresh-rotated',
  'refresh-reused',
  'session-refused',
  'registered',
  'email-verified',
  'password-reset-requested',
  // refusals at the edge, on any route
  'access-denied',
  'rate-limited',
  'signature-refused',
  'nonce-replayed',
  'idempotency-conflict',
  // the operation log: what an administrator changed
  'kickout',
  'user-created',
  'roles-changed',
  'user-disabled',
  'user-enabled',
  'account-unlocked',
  'password-reset',
  'password-changed',
  // strong authentication (appended: stored events keep their codes)
  'mfa-verified',
  'step-up',
  'mfa-enrolled',
  'mfa-removed',
  // an administrator's reset of an account's second factors (appended)
  'mfa-reset',
  // user administration, complete (appended)
  'user-updated',
  'user-deleted',
  'user-kicked-out',
  // role and menu administration (appended)
  'role-created',
  'role-changed',
  'role-menus-changed',
  'role-deleted',
  'menu-created',
  'menu-changed',
  'menu-deleted',
] as const;

export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** Which log an event belongs to: a user's login log, or the operation log of administrators' changes. */
export type AuditLogName = 'login' | 'operation';

export type EventOutcome = 'success' | 'failure';

/** A user agent as the trail keeps it: names only, never the raw header. */
export interface ParsedUserAgent {
  readonly os: string;
  readonly browser: string;
  /** desktop, mobile, tablet, tv, bot or unknown. */
  readonly deviceType: string;
}

export interface SecurityEvent {
  /** A UUIDv7: sorting ids sorts events by time. */
  readonly id: string;
  /** ms since epoch, when the fact happened (not when it was written). */
  readonly time: number;
  readonly type: SecurityEventType;
  /** `operation` when the event has an action (an administrator's change), else `login`. */
  readonly log: AuditLogName;
  readonly loginType: LoginType;
  readonly outcome: EventOutcome;
  /** The refusal's reason (failures only). */
  readonly reason?: Reason;
  readonly userId?: string;
  readonly username?: string;
  /** The session's token id (`SessionRecord.tokenId`), never the token. */
  readonly tokenId?: string;
  readonly ip?: string;
  readonly userAgent?: ParsedUserAgent;
  readonly requestId?: string;
  /** Operations: who acted (the administrator's username). */
  readonly actor?: string;
  /** Operations: what was done, dotted (`user.disable`). */
  readonly action?: string;
  /** Operations: what it was done to (a user id, a token id). */
  readonly target?: string;
  /** Operations: the request summarised by its route (field names, chosen values), never copied. */
  readonly summary?: string;
}

/** What a recorder knows when the fact happens; the trail adds id and time, and parses the user agent off the request path. */
export interface SecurityEventInput {
  readonly type: SecurityEventType;
  readonly loginType: LoginType;
  readonly outcome: EventOutcome;
  readonly reason?: Reason;
  readonly userId?: string;
  readonly username?: string;
  readonly tokenId?: string;
  readonly ip?: string;
  /** The raw User-Agent header: only its parsed names are kept. */
  readonly userAgent?: string;
  readonly requestId?: string;
  readonly actor?: string;
  readonly action?: string;
  readonly target?: string;
  readonly summary?: string;
}

const TYPES: ReadonlySet<string> = new Set(SECURITY_EVENT_TYPES);
const REASON_SET: ReadonlySet<string> = new Set(REASONS);
const TOKEN_ID = /^(?:[0-9a-f]{16}|[0-9a-f]{32})$/;
const IP = /^[0-9A-Fa-f:.]{2,45}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ACTION = /^[a-z][a-z-]*(\.[a-z][a-z-]*){0,3}$/;

/** Printable text only (no control characters, which could forge lines in a log), clipped to `max` characters. */
export function clip(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const printable = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim();
  if (printable === '') return undefined;
  return printable.length > max ? printable.slice(0, max) : printable;
}

const matching = (value: unknown, pattern: RegExp): string | undefined =>
  typeof value === 'string' && pattern.test(value) ? value : undefined;

/** A user agent's names, each clipped (a parser hands back what the header said). */
function agentOf(ua: ParsedUserAgent | undefined): ParsedUserAgent | undefined {
  if (ua === undefined) return undefined;
  return { os: clip(ua.os, 40) ?? 'unknown', browser: clip(ua.browser, 40) ?? 'unknown', deviceType: clip(ua.deviceType, 16) ?? 'unknown' };
}

/** Drops the fields left undefined (an event is written as JSON: absent, not null). */
function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

/**
 * The event of `input`, made at `time` with `id`: the known fields only, each checked and clipped.
 * Throws only on a recorder's bug (an unknown type or login type), which the trail logs and drops.
 */
export function eventOf(input: SecurityEventInput, id: string, time: number, userAgent?: ParsedUserAgent): SecurityEvent {
  if (!TYPES.has(input.type)) throw new Error(`unknown security event type "${String(input.type)}"`);
  if (input.loginType !== 'admin' && input.loginType !== 'web') throw new Error(`unknown login type "${String(input.loginType)}"`);
  const action = matching(input.action, ACTION);
  const event: SecurityEvent = {
    id,
    time,
    type: input.type,
    log: action === undefined ? 'login' : 'operation',
    loginType: input.loginType,
    outcome: input.outcome === 'success' ? 'success' : 'failure',
    reason: input.outcome === 'success' ? undefined : (matching(input.reason, /^[a-z-]+$/) as Reason | undefined),
    userId: clip(input.userId, 64),
    username: clip(input.username, 64),
    tokenId: matching(input.tokenId, TOKEN_ID),
    ip: matching(input.ip, IP),
    userAgent: agentOf(userAgent),
    requestId: matching(input.requestId, REQUEST_ID),
    actor: clip(input.actor, 64),
    action,
    target: clip(input.target, 128),
    summary: clip(input.summary, 256),
  };
  if (event.reason !== undefined && !REASON_SET.has(event.reason)) return compact({ ...event, reason: undefined });
  return compact(event);
}
