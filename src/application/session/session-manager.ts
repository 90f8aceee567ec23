/**
 * The session core (the role Sa-Token plays in the spec): one SessionManager per login type.
 * Tokens are opaque; the store only ever sees SHA-256(token). Every `session.*` setting is
 * honoured here; the store keeps the data atomic.
 */
import * as nodeCrypto from 'node:crypto';
import { createHash, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  expiresAtFor,
  idleLimitMs,
  judgeSession,
  readTokenFromHeader,
  retentionUntil,
  tokenLooksValid,
  type ClientInfo,
  type Principal,
  type ResolveFailure,
  type SessionPolicy,
  type SessionRecord,
  type StoredSession,
  type TokenStyle,
} from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { Logger } from '../ports/logger';
import type { ListedSession, SessionStore } from '../ports/session-store';

export interface SessionSettings extends SessionPolicy {
  /** Secret from which shared tokens are re-derived (is-share=true only). */
  readonly shareSecret: string;
}

export interface ResolvedSession {
  readonly tokenHash: string;
  readonly record: SessionRecord;
}

export type ResolveResult = { ok: true; session: ResolvedSession } | { ok: false; reason: ResolveFailure; tokenPresented: boolean };

export interface LoginResult {
  readonly token: string;
  readonly tokenId: string;
  readonly record: SessionRecord;
  /** True when is-share handed out an existing token instead of creating one. */
  readonly reused: boolean;
}

/**
 * One-shot crypto.hash (Node >= 20.12): ~0.25 µs against ~0.8 µs for a Hash object, once per
 * request. Older Node (engines says >= 20.12, but npm does not enforce it) gets the Hash object.
 */
const sha256Hex: (s: string) => string =
  typeof (nodeCrypto as { hash?: unknown }).hash === 'function'
    ? (s) => nodeCrypto.hash('sha256', s, 'hex')
    : (s) => createHash('sha256').update(s, 'utf8').digest('hex');

export function hashToken(token: string): string {
  return sha256Hex(token);
}

/** Whether two token hashes (hex SHA-256) are equal, compared in constant time on equal-length buffers. */
export function sameTokenHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

/** Short, non-secret session identifier shown to users and admins (derived from the hash). */
export function tokenIdOf(tokenHash: string): string {
  return tokenHash.slice(0, 16);
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Writes `bytes` in the token style; random-64 draws more bytes from `more` if needed. */
function formatToken(style: TokenStyle, bytes: Buffer, more: () => Buffer = () => randomBytes(64)): string {
  switch (style) {
    case 'uuid': {
      const b = Buffer.from(bytes.subarray(0, 16));
      b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
      b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
      const h = b.toString('hex');
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
    }
    case 'simple-uuid':
      return formatToken('uuid', bytes).replace(/-/g, '');
    case 'random-64': {
      // 64 characters from 62 symbols; rejection sampling keeps the distribution uniform.
      let out = '';
      let pool = bytes;
      let i = 0;
      while (out.length < 64) {
        if (i >= pool.length) {
          pool = more();
          i = 0;
        }
        const v = pool[i++] as number;
        if (v < 248) out += ALNUM[v % 62];
      }
      return out;
    }
  }
}

export function generateToken(style: TokenStyle): string {
  return style === 'uuid' ? randomUUID() : formatToken(style, randomBytes(style === 'random-64' ? 96 : 16));
}

export class SessionManager {
  private readonly idleMs: number | null;

  constructor(
    readonly loginType: string,
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

  /** Creates a session for `principal` (the spec's `StpAdminUtil.login(userId)`). */
  async login(principal: Principal, client: ClientInfo = {}, attrs: Record<string, string> = {}): Promise<LoginResult> {
    const now = this.clock.now();
    const p = this.policy;

    if (p.isConcurrent && p.isShare) {
      const reusable = (await this.store.listByUser(this.loginType, principal.userId, now)).find((s) => s.record.attrs.shareSeed !== undefined);
      if (reusable) {
        const token = this.deriveSharedToken(reusable.record.attrs.shareSeed as string);
        if (sameTokenHash(hashToken(token), reusable.tokenHash)) {
          this.debug({ tokenId: reusable.record.tokenId, userId: principal.userId }, 'login reused shared token');
          return { token, tokenId: reusable.record.tokenId, record: reusable.record, reused: true };
        }
      }
    }

    let token: string;
    let allAttrs = attrs;
    if (p.isConcurrent && p.isShare) {
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
      expiresAt: expiresAtFor(p, now),
      principal,
      client,
      attrs: allAttrs,
    };
    const { replaced } = await this.store.create({
      loginType: this.loginType,
      tokenHash,
      record,
      retentionMs: retentionUntil(record.expiresAt, now),
      replaceOthers: !p.isConcurrent,
      now,
    });
    this.debug({ tokenId: record.tokenId, userId: principal.userId, replaced }, 'login');
    return { token, tokenId: record.tokenId, record, reused: false };
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

  /** Ends every session of the user ("log out everywhere"); their tokens become invalid. */
  async logoutAll(userId: string): Promise<number> {
    const sessions = await this.store.listByUser(this.loginType, userId, this.clock.now());
    let n = 0;
    for (const s of sessions) if (await this.store.deleteSession(this.loginType, s.tokenHash)) n++;
    this.debug({ userId, count: n }, 'logout all');
    return n;
  }

  /** Kicks every session of the user out; their tokens then report "kicked out". */
  async kickoutUser(userId: string): Promise<number> {
    const sessions = await this.store.listByUser(this.loginType, userId, this.clock.now());
    const n = await this.store.mark(this.loginType, sessions.map((s) => s.tokenHash), 'kicked-out');
    this.debug({ userId, count: n }, 'kickout user');
    return n;
  }

  /** Kicks one session out by its short token id. */
  async kickoutTokenId(tokenId: string): Promise<boolean> {
    const hash = await this.findByTokenId(tokenId);
    if (hash === null) return false;
    const n = await this.store.mark(this.loginType, [hash], 'kicked-out');
    this.debug({ tokenId, kicked: n }, 'kickout token');
    return n > 0;
  }

  async findByTokenId(tokenId: string): Promise<string | null> {
    if (!/^[0-9a-f]{16}$/.test(tokenId)) return null;
    return this.store.findByTokenId(this.loginType, tokenId);
  }

  listSessions(userId: string): Promise<ListedSession[]> {
    return this.store.listByUser(this.loginType, userId, this.clock.now());
  }

  listAll(limit = 1000): Promise<ListedSession[]> {
    return this.store.listAll(this.loginType, this.clock.now(), limit);
  }

  /** Extends a session's lifetime to `timeoutSeconds` from now (default: session.timeout). */
  async renew(session: ResolvedSession, timeoutSeconds = this.policy.timeout): Promise<SessionRecord | null> {
    const now = this.clock.now();
    const record: SessionRecord = { ...session.record, expiresAt: expiresAtFor({ timeout: timeoutSeconds }, now) };
    const ok = await this.store.update(this.loginType, session.tokenHash, record, retentionUntil(record.expiresAt, now));
    return ok ? record : null;
  }

  /** Replaces the principal snapshot (roles, permissions) of every live session of a user. */
  async updatePrincipal(userId: string, principal: Principal): Promise<number> {
    const now = this.clock.now();
    const sessions = await this.store.listByUser(this.loginType, userId, now);
    let n = 0;
    for (const s of sessions) {
      const left = retentionUntil(s.record.expiresAt, now);
      if (await this.store.update(this.loginType, s.tokenHash, { ...s.record, principal }, left)) n++;
    }
    return n;
  }
}

/** Both login types, registered at start-up (no lazy registration). */
export class SessionManagers {
  private readonly byType = new Map<string, SessionManager>();
  constructor(managers: readonly SessionManager[]) {
    for (const m of managers) this.byType.set(m.loginType, m);
  }
  get(loginType: string): SessionManager {
    const m = this.byType.get(loginType);
    if (!m) throw new Error(`login type "${loginType}" is not registered`);
    return m;
  }
  types(): string[] {
    return [...this.byType.keys()];
  }
}
