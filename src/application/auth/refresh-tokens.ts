/**
 * Refresh tokens and their families (RFC 9700 §4.14.2), on the KeyValueStore only:
 *
 *   rt:<type>:<sha256(token)>      -> {u: userId, f: family, a: access-token hash}   TTL refresh TTL
 *   rtused:<type>:<sha256(token)>  -> {f: family, t: consumed at}   (presenting it again is reuse)
 *   rtfam:<type>:<family>          -> {r: current refresh hash, a: current access hash}
 *   rtrev:<type>:<family>          -> "1"      (the family was revoked)
 *   rtacc:<type>:<access hash>     -> family   (which family an access token belongs to)
 *   rtcut:<type>:<user id>         -> ms      ("log out everywhere" cut-off, TTL refresh TTL)
 *
 * A family id is `<ms it was created>.<uuid>`: its birth time travels with it through every
 * rotation at no store cost. A family born before the user's cut-off is refused when its token is
 * consumed (and re-checked after rotation), which reaches the families no session index lists any
 * more (devices whose access token lapsed). The comparison is strict: a login in the very
 * millisecond of the cut-off survives it (LogoutAll also revokes every family it can list).
 * Family ids from before this format count as born at 0 (refused by any cut-off).
 *
 * Consumption is one atomic getAndDelete, so of N concurrent refreshes with one token exactly one
 * gets the record. Rotation logs out the previous access token, so a family has at most one live
 * refresh token and one live access token at any time; `rtfam` points at them, which is all a
 * family revocation needs to delete. Only the SHA-256 of a refresh token is ever stored.
 *
 * Concurrent duplicates: a token presented again within REUSE_GRACE_MS of its rotation is
 * answered 401 "invalid" without revoking the family (two tabs refreshing at once must not log
 * the user out, and the one winner's new pair must stay valid). Any later presentation is reuse.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { SessionManager } from '../session/session-manager';

export interface RefreshRecord {
  readonly u: string;
  readonly f: string;
  readonly a: string;
}

export type ConsumeResult =
  | { readonly kind: 'ok'; readonly record: RefreshRecord }
  | { readonly kind: 'reused'; readonly family: string }
  | { readonly kind: 'invalid' };

/** How long after a rotation a second presentation counts as a concurrent duplicate, not reuse. */
export const REUSE_GRACE_MS = 2000;

const REFRESH_FORMAT = /^[0-9a-f]{32}$/;
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export class RefreshTokenRegistry {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly ttlSeconds: number,
    private readonly clock: Clock,
  ) {}

  private get ttlMs(): number {
    return this.ttlSeconds * 1000;
  }

  newFamily(): string {
    return `${this.clock.now()}.${randomUUID()}`;
  }

  /** When the family was created (ms); 0 for a family id without a birth time. */
  static bornAt(family: string): number {
    const m = /^(\d{1,15})\./.exec(family);
    return m ? Number(m[1]) : 0;
  }

  /**
   * "Revoke everything before now" for one user: every family of theirs created before this
   * moment is refused at its next refresh, whether or not a live session still lists it.
   */
  async revokeAllOfUser(loginType: string, userId: string): Promise<void> {
    await this.kv.set(`rtcut:${loginType}:${userId}`, String(this.clock.now()), this.ttlMs);
  }

  /** Whether the user's cut-off (if any) is later than the family's birth. One GET. */
  async isCutOff(loginType: string, userId: string, family: string): Promise<boolean> {
    const raw = await this.kv.get(`rtcut:${loginType}:${userId}`);
    return raw !== null && RefreshTokenRegistry.bornAt(family) < Number(raw);
  }

  /** Issues the family's next refresh token, bound to the access token `accessHash`. */
  async issue(loginType: string, userId: string, family: string, accessHash: string): Promise<string> {
    const token = randomUUID().replace(/-/g, '');
    const hash = sha256(token);
    const rec: RefreshRecord = { u: userId, f: family, a: accessHash };
    await this.kv.set(`rt:${loginType}:${hash}`, JSON.stringify(rec), this.ttlMs);
    await this.kv.set(`rtfam:${loginType}:${family}`, JSON.stringify({ r: hash, a: accessHash }), this.ttlMs);
    await this.kv.set(`rtacc:${loginType}:${accessHash}`, family, this.ttlMs);
    return token;
  }

  async consume(loginType: string, token: string): Promise<ConsumeResult> {
    if (!REFRESH_FORMAT.test(token)) return { kind: 'invalid' };
    const hash = sha256(token);
    const raw = await this.kv.getAndDelete(`rt:${loginType}:${hash}`);
    if (raw !== null) {
      const record = JSON.parse(raw) as RefreshRecord;
      await this.kv.set(`rtused:${loginType}:${hash}`, JSON.stringify({ f: record.f, t: this.clock.now() }), this.ttlMs);
      return { kind: 'ok', record };
    }
    const used = await this.kv.get(`rtused:${loginType}:${hash}`);
    if (used === null) return { kind: 'invalid' };
    const { f, t } = JSON.parse(used) as { f: string; t: number };
    return this.clock.now() - t < REUSE_GRACE_MS ? { kind: 'invalid' } : { kind: 'reused', family: f };
  }

  familyOfAccess(loginType: string, accessHash: string): Promise<string | null> {
    return this.kv.get(`rtacc:${loginType}:${accessHash}`);
  }

  async isRevoked(loginType: string, family: string): Promise<boolean> {
    return (await this.kv.get(`rtrev:${loginType}:${family}`)) !== null;
  }

  /**
   * Revokes the whole family: its live refresh token and its live access token (except
   * `keepAccessHash`, which the caller ends itself, e.g. to leave a "kicked out" tombstone).
   * The revocation marker is written first, so a refresh that consumed the family's token just
   * before this call sees it in its post-rotation re-check and ends the pair it minted.
   */
  async revokeFamily(manager: SessionManager, family: string, keepAccessHash?: string): Promise<void> {
    const type = manager.loginType;
    await this.kv.set(`rtrev:${type}:${family}`, '1', this.ttlMs);
    const raw = await this.kv.getAndDelete(`rtfam:${type}:${family}`);
    if (raw === null) return;
    const fam = JSON.parse(raw) as { r: string; a: string };
    await this.kv.delete(`rt:${type}:${fam.r}`);
    if (fam.a !== keepAccessHash) await manager.logoutByHash(fam.a);
  }
}
