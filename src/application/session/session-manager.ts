/**
 * The session core (the role Sa-Token, the Java session library the seed specification is written against, plays
 * there): one SessionManager per login type.
 * Tokens are opaque; the store only ever sees SHA-256(token). Every `session.*` setting is
 * honoured here; the store keeps the data atomic.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { deviceTypeOf, sessionDeviceType } from '../../domain/device-type';
import { DomainError } from '../../domain/errors';
import { LOGIN_TYPES } from '../../domain/login-type';
import {
  OVERFLOW_TOMBSTONES,
  expiresAtFor,
  idleLimitMs,
  judgeSession,
  readTokenFromHeader,
  retentionUntil,
  tokenLooksValid,
  type ClientInfo,
  type Principal,
  type AuthMethod,
  type RequiredAction,
  type SessionPolicy,
  type SessionRecord,
  type StoredSession,
} from '../../domain/session';
import type { SessionPatch } from '../../domain/session-patch';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { Admission, ListedSession, OnlinePage, OnlineQuery, SessionStore } from '../ports/session-store';
import type { UserSessionPage, UserSessionQuery } from '../ports/session-store';
import { TOKENS } from '../tokens';
import { inChunks } from './in-chunks';
import type { SessionSettings } from './session-settings';
import { formatToken, generateToken, hashToken, sameTokenHash, TOKEN_ID_PATTERN, tokenIdOf } from './session-token';
import type { LoginType } from '../../domain/login-type';

export type { LoginResult, ResolvedSession, ResolveResult } from './session-results';
import type { LoginResult, ResolvedSession, ResolveResult } from './session-results';

export class SessionManager {
  private readonly idleMs: number | null;

  constructor(
    readonly loginType: LoginType,
    readonly policy: SessionSettings,
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly log?: Logger,
  ) {
    this.idleMs = idleLimitMs(policy);
  }

  private debug(obj: object, msg: string): void {
    if (this.policy.isLog) this.log?.debug({ loginType: this.loginType, ...obj }, msg);
  }

  /**
   * Creates a session for `principal` (Sa-Token's `StpAdminUtil.login(userId)` in the seed: log a user of the admin login type in).
   * `notAfter` (ms)
   * caps a new session's expiry, e.g. at the end of its refresh-token family's lifetime.
   * `auth`: the session's required actions (a restricted session is never shared: it is always a
   * new token), how and when its user authenticated (authTime defaults to now), remember-me, and
   * whether it continues a login (a refresh).
   *
   * What it does to the user's other sessions (one atomic step of the store, see `admissionOf`):
   * with is-concurrent=false, OLD_DEVICE replaces those in session.replaced-range and NEW_DEVICE
   * refuses the login (409 already-logged-in) while one is live; with concurrency and no sharing,
   * session.max-login-count ends the oldest beyond it by session.overflow-logout-mode.
   */
  async login(
    principal: Principal,
    client: ClientInfo = {},
    attrs: Record<string, string> = {},
    notAfter?: number,
    auth: SessionAuth = {},
  ): Promise<LoginResult> {
    const requiredActions = auth.requiredActions ?? [];
    const now = this.clock.now();
    const p = this.policy;
    const deviceType = deviceTypeOf(client);
    const rememberMe = auth.rememberMe !== false;

    const share = p.isConcurrent && p.isShare && requiredActions.length === 0;
    if (share) {
      const reused = await this.reuseShared(principal.userId, deviceType, rememberMe);
      if (reused !== null) return reused;
    }

    let token: string;
    let allAttrs = attrs;
    if (share) {
      const seed = randomBytes(16).toString('hex');
      token = this.deriveSharedToken(seed);
      allAttrs = { ...attrs, shareSeed: seed };
    } else {
      token = generateToken(p.tokenStyle);
    }
    const tokenHash = hashToken(token);
    const record: SessionRecord = {
      v: 1,
      loginType: this.loginType,
      tokenId: tokenIdOf(tokenHash),
      createdAt: now,
      expiresAt: capExpiry(expiresAtFor({ timeout: rememberMe ? p.timeout : noRememberTimeout(p) }, now), notAfter),
      principal,
      // The device type is the record's own field (sessionDeviceType); the client keeps it too, for
      // readers of the client alone (and instances of the previous release during a rolling upgrade).
      client: { ...client, deviceType },
      deviceType,
      attrs: allAttrs,
      ...(requiredActions.length > 0 ? { requiredActions: [...requiredActions] } : {}),
      ...(auth.authTime !== undefined && auth.authTime !== now ? { authTime: auth.authTime } : {}),
      ...(auth.amr !== undefined && !(auth.amr.length === 1 && auth.amr[0] === 'pwd') ? { amr: [...auth.amr] } : {}),
      ...(rememberMe ? {} : { rememberMe: false as const }),
    };
    const { outcome, ended } = await this.store.create({
      loginType: this.loginType,
      tokenHash,
      record,
      retentionMs: retentionUntil(record.expiresAt, now),
      admission: admissionOf(p, deviceType, share, auth.continuation === true),
      now,
    });
    if (outcome === 'refused') {
      this.debug({ userId: principal.userId, deviceType }, 'login refused: already logged in');
      throw new DomainError('already-logged-in', 'This account is already logged in elsewhere; log out there first.', {
        loginType: this.loginType,
      });
    }
    this.debug({ tokenId: record.tokenId, userId: principal.userId, deviceType, ended: ended.length, outcome }, 'login');
    return { token, tokenHash, tokenId: record.tokenId, record, reused: false, ended, endedBeforeWritten: outcome === 'ended' };
  }

  /** is-share: the live shared token of the user's sessions of this device type and remember-me, if there is one. */
  private async reuseShared(userId: string, deviceType: string, rememberMe: boolean): Promise<LoginResult | null> {
    const reusable = (await this.store.listByUser(this.loginType, userId, this.clock.now())).find(
      (s) =>
        s.record.attrs.shareSeed !== undefined &&
        (s.record.requiredActions ?? []).length === 0 &&
        sessionDeviceType(s.record) === deviceType &&
        (s.record.rememberMe !== false) === rememberMe,
    );
    if (!reusable) return null;
    const token = this.deriveSharedToken(reusable.record.attrs.shareSeed as string);
    if (!sameTokenHash(hashToken(token), reusable.tokenHash)) return null;
    this.debug({ tokenId: reusable.record.tokenId, userId }, 'login reused shared token');
    return {
      token,
      tokenHash: reusable.tokenHash,
      tokenId: reusable.record.tokenId,
      record: reusable.record,
      reused: true,
      ended: [],
      endedBeforeWritten: false,
    };
  }

  /** is-share: the token is re-derived from the server secret and a stored random seed (never stored itself). */
  private deriveSharedToken(seed: string): string {
    const bytes = Buffer.from(hkdfSync('sha256', this.policy.shareSecret, seed, `authguard share ${this.loginType}`, 255));
    return formatToken(this.policy.tokenStyle, bytes, () => {
      throw new Error('shared token derivation ran out of bytes');
    });
  }

  /** Resolves the value of the token header (`Bearer <token>`). */
  async resolveHeader(headerValue: string | undefined): Promise<ResolveResult> {
    const read = readTokenFromHeader(this.policy, headerValue);
    if (!read.ok) return { ok: false, reason: read.reason, tokenPresented: read.reason !== 'token-missing' };
    return this.resolveWellFormed(read.token); // readTokenFromHeader already checked the token's form
  }

  /** Resolves a bare token. One store round trip. */
  async resolveToken(token: string): Promise<ResolveResult> {
    if (!tokenLooksValid(this.policy.tokenStyle, token)) return { ok: false, reason: 'token-invalid', tokenPresented: true };
    return this.resolveWellFormed(token);
  }

  private async resolveWellFormed(token: string): Promise<ResolveResult> {
    const tokenHash = hashToken(token);
    const now = this.clock.now();
    const stored = await this.store.getSession(this.loginType, tokenHash, now, this.idleMs);
    const verdict = judgeSession(this.policy, stored, now);
    if (!verdict.ok) {
      this.debug({ reason: verdict.reason }, 'resolve failed');
      return { ok: false, reason: verdict.reason, tokenPresented: true };
    }
    if (verdict.record.loginType !== this.loginType) return { ok: false, reason: 'token-invalid', tokenPresented: true };
    return { ok: true, session: { tokenHash, record: verdict.record } };
  }

  /**
   * What the store holds for a token hash right now (active, a tombstone, or nothing), without
   * touching its last-active time or judging expiry. One store round trip.
   */
  stateOf(tokenHash: string): Promise<StoredSession | null> {
    return this.store.getSession(this.loginType, tokenHash, this.clock.now(), null);
  }

  async logout(token: string): Promise<boolean> {
    if (!tokenLooksValid(this.policy.tokenStyle, token)) return false;
    return this.logoutByHash(hashToken(token));
  }

  async logoutByHash(tokenHash: string): Promise<boolean> {
    const removed = await this.store.deleteSession(this.loginType, tokenHash);
    this.debug({ tokenId: tokenIdOf(tokenHash), removed }, 'logout');
    return removed;
  }

  /** Ends every session of the user ("log out everywhere"), or those of one device type; their tokens become invalid. */
  async logoutAll(userId: string, deviceType?: string): Promise<number> {
    const n = await this.logoutSessions(await this.listSessions(userId, deviceType));
    this.debug({ userId, count: n }, 'logout all');
    return n;
  }

  /**
   * Ends these sessions (their tokens become invalid), BULK_CHUNK at a time (SessionStore.deleteMany), the event
   * loop yielded between chunks, so thousands of sessions never hold it. Returns how many were removed.
   */
  async logoutSessions(sessions: readonly ListedSession[]): Promise<number> {
    let n = 0;
    await inChunks(sessions, async (chunk) => {
      const hashes = chunk.map((s) => s.tokenHash);
      const removed = await this.store.deleteMany(this.loginType, hashes);
      n += removed;
    });
    return n;
  }

  /** Kicks every session of the user out (or those of one device type); their tokens then report "kicked out". */
  async kickoutUser(userId: string, deviceType?: string): Promise<number> {
    const sessions = await this.listSessions(userId, deviceType);
    let n = 0;
    await inChunks(sessions, async (chunk) => {
      // Chunks run two at a time: the count is added after the await (never `n += await`, which reads n before it).
      const kicked = await this.store.mark(
        this.loginType,
        chunk.map((s) => s.tokenHash),
        'kicked-out',
      );
      n += kicked;
    });
    this.debug({ userId, count: n }, 'kickout user');
    return n;
  }

  /** Kicks one session out by its short token id. */
  async kickoutTokenId(tokenId: string): Promise<boolean> {
    const hash = await this.findByTokenId(tokenId);
    return hash !== null && this.kickoutByHash(hash);
  }

  /** Kicks one session out by its token hash (already found). */
  async kickoutByHash(tokenHash: string): Promise<boolean> {
    const n = await this.store.mark(this.loginType, [tokenHash], 'kicked-out');
    this.debug({ tokenId: tokenIdOf(tokenHash), kicked: n }, 'kickout token');
    return n > 0;
  }

  async findByTokenId(tokenId: string): Promise<string | null> {
    if (!TOKEN_ID_PATTERN.test(tokenId)) return null;
    return this.store.findByTokenId(this.loginType, tokenId);
  }

  /** The user's live sessions, oldest first (only those of `deviceType`, when given). */
  async listSessions(userId: string, deviceType?: string): Promise<ListedSession[]> {
    const all = await this.store.listByUser(this.loginType, userId, this.clock.now());
    return deviceType === undefined ? all : all.filter((s) => sessionDeviceType(s.record) === deviceType);
  }

  /** The user's live session of short token id `tokenId`, else null: two lookups, whatever the user's session count. */
  async findOwnSession(userId: string, tokenId: string): Promise<ListedSession | null> {
    const hash = await this.findByTokenId(tokenId);
    if (hash === null) return null;
    const now = this.clock.now();
    const stored = await this.store.getSession(this.loginType, hash, now, null);
    // The record's own token id: 32 hex (the key id), or the 16 hex of a session of the previous release.
    if (stored?.state !== 'active' || stored.record.tokenId !== tokenId || stored.record.principal.userId !== userId) return null;
    if (stored.record.expiresAt !== null && stored.record.expiresAt <= now) return null;
    return { tokenHash: hash, record: stored.record, lastActiveAt: stored.lastActiveAt };
  }

  /** A page of the user's live sessions, oldest first, with their exact count (SessionStore.listUserPage: O(page)). */
  listSessionPage(userId: string, query: UserSessionQuery): Promise<UserSessionPage> {
    return this.store.listUserPage(this.loginType, userId, this.clock.now(), query);
  }

  /** A page of the login type's current sessions, oldest first (SessionStore.listPage). */
  listPage(query: OnlineQuery): Promise<OnlinePage> {
    return this.store.listPage(this.loginType, this.clock.now(), query);
  }

  /** Extends a session's lifetime to `timeoutSeconds` from now (default: session.timeout). */
  async renew(session: ResolvedSession, timeoutSeconds = this.policy.timeout): Promise<SessionRecord | null> {
    const now = this.clock.now();
    const record: SessionRecord = { ...session.record, expiresAt: expiresAtFor({ timeout: timeoutSeconds }, now) };
    const ok = await this.store.update(this.loginType, session.tokenHash, record, retentionUntil(record.expiresAt, now));
    return ok ? record : null;
  }

  /**
   * Changes some fields of one live session's record as it is stored now (SessionStore.patch, one atomic step): what
   * the caller read earlier is never written back, so a role change or another patch that landed meanwhile stays.
   * The new record, or null when the session is no longer active.
   */
  patchRecord(tokenHash: string, change: (current: SessionRecord) => SessionPatch): Promise<SessionRecord | null> {
    return this.store.patch(this.loginType, tokenHash, change);
  }

  /**
   * Replaces one live session's principal snapshot (its expiry unchanged); false when it is no longer active. A login
   * that re-read its user after writing its session (FinishLogin) brings the snapshot in line with the directory.
   */
  replacePrincipal(tokenHash: string, record: SessionRecord, principal: Principal): Promise<boolean> {
    return this.store.update(this.loginType, tokenHash, { ...record, principal }, retentionUntil(record.expiresAt, this.clock.now()));
  }

  /** Replaces the principal snapshot (roles, permissions) of every live session of a user (in chunks, the loop yielded between). */
  async updatePrincipal(userId: string, principal: Principal): Promise<number> {
    const now = this.clock.now();
    const sessions = await this.store.listByUser(this.loginType, userId, now);
    let n = 0;
    await inChunks(sessions, async (chunk) => {
      const done = await Promise.all(
        chunk.map((s) =>
          this.store.update(this.loginType, s.tokenHash, { ...s.record, principal }, retentionUntil(s.record.expiresAt, now)),
        ),
      );
      n += done.filter(Boolean).length;
    });
    return n;
  }
}

/** What a new session records of its user's authentication (absent fields: no actions, now, `['pwd']`). */
export interface SessionAuth {
  readonly requiredActions?: readonly RequiredAction[];
  readonly amr?: readonly AuthMethod[];
  readonly authTime?: number;
  /** False: the session lives session.no-remember-timeout (at most session.timeout). Absent: true. */
  readonly rememberMe?: boolean;
  /**
   * A refresh: it takes the place of the session it rotates, so it replaces nobody (the cap still
   * holds); under NEW_DEVICE it is refused while another login holds the account.
   */
  readonly continuation?: boolean;
}

/**
 * What a login does to its user's other sessions, as Sa-Token 1.45 decides it: with
 * is-concurrent=false, OLD_DEVICE replaces the sessions in the replaced range and NEW_DEVICE is
 * refused while the account has a live session (Sa-Token's check reads every device type, whatever
 * the range); with concurrency and no sharing, max-login-count ends the oldest beyond it.
 */
export function admissionOf(p: SessionPolicy, deviceType: string, shared: boolean, continuation: boolean): Admission {
  if (!p.isConcurrent) {
    // NEW_DEVICE: a refresh is exclusive too. The session it rotates was logged out before it; any
    // other live session is a login that got in after this one's access token lapsed, and holds the
    // account (OLD_DEVICE needs no check: that login's replacement cut-off refuses this family).
    if (p.replacedLoginExitMode === 'NEW_DEVICE') return { kind: 'exclusive', deviceType: null };
    if (continuation) return { kind: 'add' };
    return { kind: 'replace', deviceType: p.replacedRange === 'CURR_DEVICE_TYPE' ? deviceType : null };
  }
  if (shared || p.isShare || p.maxLoginCount < 0) return { kind: 'add' };
  return { kind: 'cap', max: p.maxLoginCount, state: OVERFLOW_TOMBSTONES[p.overflowLogoutMode] };
}

/** The lifetime (s) of a session without remember-me: session.no-remember-timeout, at most session.timeout. */
export function noRememberTimeout(p: Pick<SessionPolicy, 'timeout' | 'noRememberTimeout'>): number {
  return p.timeout < 0 ? p.noRememberTimeout : Math.min(p.timeout, p.noRememberTimeout);
}

/** The earlier of a session's expiry (null = never) and an optional cap. */
function capExpiry(expiresAt: number | null, notAfter: number | undefined): number | null {
  if (notAfter === undefined) return expiresAt;
  return expiresAt === null ? notAfter : Math.min(expiresAt, notAfter);
}

/** One SessionManager per login type, all created at start-up (a guard naming either never fails lazily). */
@injectable()
export class SessionManagers {
  private readonly byType = new Map<string, SessionManager>();

  constructor(
    @inject(TOKENS.SessionSettings) settings: SessionSettings,
    @inject(TOKENS.SessionStore) store: SessionStore,
    @inject(TOKENS.Clock) clock: Clock,
    @inject(TOKENS.Logger) log: Logger,
  ) {
    for (const type of LOGIN_TYPES) this.byType.set(type, new SessionManager(type, settings, store, clock, log));
  }

  get(loginType: LoginType): SessionManager {
    const m = this.byType.get(loginType);
    if (!m) throw new Error(`login type "${loginType}" is not registered`);
    return m;
  }

  types(): string[] {
    return [...this.byType.keys()];
  }
}
