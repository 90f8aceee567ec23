/**
 * Session policy and session values: the rules the seed's `session.*` settings express (Sa-Token's, the Java session library it follows),
 * as pure data and functions (no store, no clock, no HTTP).
 */
import type { Reason } from './errors';
import type { LoginType } from './login-type';

export type TokenStyle = 'uuid' | 'simple-uuid' | 'random-64';

/** The `session.*` settings, in the units of the seed specification (seconds; -1 means "never"/"off"). */
export interface SessionPolicy {
  readonly tokenName: string;
  readonly tokenPrefix: string;
  readonly timeout: number;
  readonly activeTimeout: number;
  readonly isConcurrent: boolean;
  readonly isShare: boolean;
  readonly isReadCookie: boolean;
  readonly tokenStyle: TokenStyle;
  readonly isLog: boolean;
  readonly isPrint: boolean;
  /** is-concurrent=false: whose sessions a login replaces (Sa-Token's `replacedRange`). */
  readonly replacedRange: ReplacedRange;
  /** is-concurrent=false: who gives way, the sessions there are or the new login (Sa-Token 1.45's `replacedLoginExitMode`). */
  readonly replacedLoginExitMode: ReplacedLoginExitMode;
  /** Most live sessions of one account and login type, -1 no cap (Sa-Token's `maxLoginCount`; is-concurrent and not is-share only). */
  readonly maxLoginCount: number;
  /** How the sessions over `maxLoginCount` end (Sa-Token's `overflowLogoutMode`). */
  readonly overflowLogoutMode: OverflowLogoutMode;
  /** Lifetime in seconds of a session logged in without remember-me (at most `timeout`). */
  readonly noRememberTimeout: number;
  /**
   * Seconds a tombstone (a kicked-out, replaced or over-the-cap session) is kept at most, answering
   * `token-kicked-out` / `token-replaced`; after it the token reads as unknown (`token-invalid`).
   */
  readonly tombstoneRetention: number;
}

/** `CURR_DEVICE_TYPE`: the sessions of the new login's device type; `ALL_DEVICE_TYPE`: every session of the account. */
export type ReplacedRange = 'CURR_DEVICE_TYPE' | 'ALL_DEVICE_TYPE';
/** `OLD_DEVICE`: the new login wins, the others end "replaced"; `NEW_DEVICE`: the new login is refused while one is live. */
export type ReplacedLoginExitMode = 'OLD_DEVICE' | 'NEW_DEVICE';
/** Sa-Token's SaLogoutMode: `LOGOUT` (token-invalid), `KICKOUT` (token-kicked-out), `REPLACED` (token-replaced). */
export type OverflowLogoutMode = 'LOGOUT' | 'KICKOUT' | 'REPLACED';

export const DEFAULT_SESSION_POLICY: SessionPolicy = {
  tokenName: 'Authorization',
  tokenPrefix: 'Bearer',
  timeout: 604800,
  activeTimeout: -1,
  isConcurrent: true,
  isShare: false,
  isReadCookie: false,
  tokenStyle: 'uuid',
  isLog: false,
  isPrint: false,
  replacedRange: 'CURR_DEVICE_TYPE',
  replacedLoginExitMode: 'OLD_DEVICE',
  maxLoginCount: 12,
  overflowLogoutMode: 'LOGOUT',
  noRememberTimeout: 86400,
  tombstoneRetention: 86400,
};

/**
 * How long a record is kept past its expiry so that a late request is told "expired"
 * rather than "invalid". Tombstones (kicked out / replaced) keep the session's own TTL, cut to
 * `tombstoneRetention`.
 */
export const EXPIRED_GRACE_MS = 60 * 60 * 1000;

/** Who is logged in and what they may do: the snapshot carried by every session. */
export interface Principal {
  readonly userId: string;
  readonly username: string;
  readonly nickname?: string;
  readonly avatar?: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
}

export interface ClientInfo {
  readonly ip?: string;
  readonly userAgent?: string;
  readonly device?: string;
  /** The User-Agent read once at login (never per listing): OS and browser names. Absent on older sessions. */
  readonly os?: string;
  readonly browser?: string;
  /**
   * The login's device type (Sa-Token's `deviceType`: `PC`, `APP`, `H5`, ...): the login body's, else
   * derived from the User-Agent at login (device-type.ts). Absent on sessions written before it existed: `DEF`.
   */
  readonly deviceType?: string;
}

/** What the store keeps for one live token (keyed by the SHA-256 of the token, never the token). */
export interface SessionRecord {
  readonly v: 1;
  readonly loginType: LoginType;
  readonly tokenId: string;
  readonly createdAt: number;
  /** Absolute expiry in ms since epoch; null = never (timeout -1). */
  readonly expiresAt: number | null;
  readonly principal: Principal;
  readonly client: ClientInfo;
  /** Free-form string attributes (e.g. the refresh-token family of an admin login). */
  readonly attrs: Readonly<Record<string, string>>;
  /**
   * Required actions still pending (Keycloak's term): while any is, the session is restricted to
   * the routes that fulfil them plus `GET /auth/me` and `POST /auth/logout`; every other route
   * answers 403 with the action's reason. Absent or empty: a full session.
   */
  readonly requiredActions?: readonly RequiredAction[];
  /** When the user last proved who they are on this session (login, step-up), ms since epoch; absent: `createdAt`. */
  readonly authTime?: number;
  /** How (RFC 8176 `amr` values: `pwd`, `otp`, `hwk`, `swk`, `mfa`); absent: `['pwd']`. */
  readonly amr?: readonly AuthMethod[];
  /** False for a login without remember-me (`session.no-remember-timeout`, no refresh token); absent: true. */
  readonly rememberMe?: false;
  /**
   * The login's device type (`sessionDeviceType`); absent on records of releases before device
   * types: `DEF` (their `client.deviceType` is the User-Agent's platform, no device type).
   */
  readonly deviceType?: string;
}

/** RFC 8176 authentication method references this service records. */
export type AuthMethod = 'pwd' | 'otp' | 'hwk' | 'swk' | 'mfa';

/** Something the user must do before the session is a full one. */
export type RequiredAction = 'update-password' | 'mfa-enrolment';

/** The answer a restricted session gets on any other route, per pending action. */
export const REQUIRED_ACTION_REASONS: Readonly<Record<RequiredAction, Reason>> = {
  'update-password': 'password-change-required',
  'mfa-enrolment': 'mfa-enrolment-required',
};

/**
 * What is left where a revoked session was: kicked out, replaced, or logged out by the cap on
 * concurrent sessions (`session.overflow-logout-mode=LOGOUT`: it reads as an unknown token, and
 * keeps a refresh token from bringing the session back).
 */
export type TombstoneState = 'kicked-out' | 'replaced' | 'logged-out';

/** The tombstone each overflow mode leaves. */
export const OVERFLOW_TOMBSTONES: Readonly<Record<OverflowLogoutMode, TombstoneState>> = {
  LOGOUT: 'logged-out',
  KICKOUT: 'kicked-out',
  REPLACED: 'replaced',
};

/** The 401 reason a tombstone answers. */
const TOMBSTONE_REASONS: Readonly<Record<TombstoneState, ResolveFailure>> = {
  'kicked-out': 'token-kicked-out',
  replaced: 'token-replaced',
  'logged-out': 'token-invalid',
};

export type StoredSession =
  { readonly state: 'active'; readonly record: SessionRecord; readonly lastActiveAt: number } | { readonly state: TombstoneState };

export type ResolveFailure = Extract<
  Reason,
  'token-missing' | 'token-bad-prefix' | 'token-invalid' | 'token-expired' | 'token-frozen' | 'token-kicked-out' | 'token-replaced'
>;

export type ReadTokenResult = { ok: true; token: string } | { ok: false; reason: ResolveFailure };

const TOKEN_PATTERNS: Record<TokenStyle, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
  'simple-uuid': /^[0-9a-f]{32}$/,
  'random-64': /^[A-Za-z0-9]{64}$/,
};

export function tokenLooksValid(style: TokenStyle, token: string): boolean {
  return TOKEN_PATTERNS[style].test(token);
}

/**
 * Extracts the token from the configured header value (`<prefix> <token>`; the scheme is
 * case-insensitive, RFC 7235). A token that cannot be one of ours is "invalid" without a store lookup.
 */
export function readTokenFromHeader(policy: SessionPolicy, headerValue: string | undefined): ReadTokenResult {
  if (headerValue === undefined) return { ok: false, reason: 'token-missing' };
  const value = headerValue.trim();
  if (value === '') return { ok: false, reason: 'token-missing' };
  let token = value;
  if (policy.tokenPrefix !== '') {
    const sp = value.indexOf(' ');
    const scheme = sp === -1 ? value : value.slice(0, sp);
    if (scheme.toLowerCase() !== policy.tokenPrefix.toLowerCase()) return { ok: false, reason: 'token-bad-prefix' };
    token = sp === -1 ? '' : value.slice(sp + 1).trim();
    if (token === '') return { ok: false, reason: 'token-missing' };
  }
  if (!tokenLooksValid(policy.tokenStyle, token)) return { ok: false, reason: 'token-invalid' };
  return { ok: true, token };
}

/** Milliseconds the store should keep a record created now, or null for no expiry. */
/** Ms the store keeps a record that expires at `expiresAt` (plus the "expired" grace), null = forever. */
export function retentionUntil(expiresAt: number | null, now: number): number | null {
  return expiresAt === null ? null : Math.max(1, expiresAt + EXPIRED_GRACE_MS - now);
}

export function expiresAtFor(policy: Pick<SessionPolicy, 'timeout'>, now: number): number | null {
  return policy.timeout < 0 ? null : now + policy.timeout * 1000;
}

/** Idle limit in ms, or null when `active-timeout` is -1 (off). */
export function idleLimitMs(policy: SessionPolicy): number | null {
  return policy.activeTimeout < 0 ? null : policy.activeTimeout * 1000;
}

/** Decides what a stored value means at time `now`. */
export function judgeSession(
  policy: SessionPolicy,
  stored: StoredSession | null,
  now: number,
): { ok: true; record: SessionRecord } | { ok: false; reason: ResolveFailure } {
  if (stored === null) return { ok: false, reason: 'token-invalid' };
  if (stored.state !== 'active') return { ok: false, reason: TOMBSTONE_REASONS[stored.state] };
  const { record, lastActiveAt } = stored;
  if (record.expiresAt !== null && now >= record.expiresAt) return { ok: false, reason: 'token-expired' };
  const idle = idleLimitMs(policy);
  if (idle !== null && now - lastActiveAt > idle) return { ok: false, reason: 'token-frozen' };
  return { ok: true, record };
}
