/**
 * Refresh tokens and their families (RFC 9700 §4.14.2), on the KeyValueStore only. One key per
 * family, whatever its number of rotations, and one per user with cut-offs:
 *
 *   rf:<type>:<family>     -> the family record (refresh-family.ts): user, device type, the live
 *                             token's rotation count and hash, the live access token's hash, when it
 *                             last rotated, the tag key that recognises its earlier tokens.
 *                             TTL: the refresh TTL from its last write, capped by the family's end.
 *   rtcut:<type>:<user id> -> cut-offs ("log out everywhere", replacements: refresh-cut-offs.ts),
 *                             TTL: min(refresh TTL, family lifetime) from the last cut.
 *
 * A token is `<family>.<gen>.<secret>`: it names its family, so consuming it is one GET and one
 * compare-and-set of that record. Tokens of earlier releases (32 hex) are read in their old layout
 * and migrated at their rotation (legacy-refresh-tokens.ts). The session record names its family
 * (attrs.rtFamily), so no access-token index is kept.
 *
 * Nothing outlives its purpose: a family's record lives while its live token may be presented (its
 * TTL follows each rotation and never passes the family's end); a revocation (logout, kick,
 * replacement, logout-all, reuse, expiry) deletes it; a cut-off lives as long as a family born
 * before it can still present a token. Once these pass, no key of the refresh side is left.
 *
 * A family id is `<ms it was created>.<16 random bytes, base64url>` (earlier releases: a uuid
 * after the dot): its birth time travels with it through every rotation at no store cost. A
 * family born before the user's cut-off is refused when its token is consumed (and re-checked
 * after rotation), which reaches the families no session index lists any more (devices whose
 * access token lapsed). The comparison is strict: a login in the very
 * millisecond of the cut-off survives it (LogoutAll also revokes every family it can list).
 * A family id without a birth time counts as born at 0 (refused by any cut-off).
 *
 * A family lives svc.refresh-token.absolute-ttl-seconds from its birth, however often it rotates:
 * its record is kept no longer than the family has left, IssueTokens caps the access token
 * likewise, and a token consumed after the family's end is answered "expired" (the caller revokes
 * the family, ending its live access token).
 *
 * Rotation, atomic on one key: consuming the live token compare-and-sets the record to "rotation
 * under way" (the count moved on, no live hash, the previous access token still named); completing
 * it compare-and-sets that state to the new token's hash and access token. Of N concurrent
 * presentations of one token exactly one wins the first step; a revocation in between deletes the
 * record, so the second step fails and the caller ends the session it minted (nothing is
 * resurrected). A family has at most one live refresh token and one live access token at any time.
 *
 * Reuse: a token of an earlier rotation (its tag verifies under the family key) revokes the family,
 * however long ago it was rotated; presented within REUSE_GRACE_MS of the last rotation (the token
 * just rotated out: two tabs refreshing at once), it is answered 401 "invalid" without revoking. A
 * token of a revoked, expired or unknown family is invalid.
 */
import { randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { AuthSettings } from '../auth/auth-settings';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { ListedSession } from '../ports/session-store';
import { TOKENS } from '../tokens';
import { DEFAULT_DEVICE_TYPE } from '../../domain/device-type';
import { EVERY_DEVICE_TYPE, RefreshCutOffs } from './refresh-cut-offs';
import { SessionManagers } from './session-manager';
import type { LoginType } from '../../domain/login-type';
import { LegacyRefreshTokens, REUSE_GRACE_MS, type ConsumeResult, type RefreshRecord } from './legacy-refresh-tokens';
import {
  decodeFamily,
  encodeFamily,
  familyKey,
  isEarlier,
  isLive,
  mintToken,
  newFamilyKey,
  parseToken,
  ROTATION_WINDOW_MS,
  type FamilyState,
} from './refresh-family';

export { REUSE_GRACE_MS, type ConsumeResult, type RefreshRecord };

/** How often consume re-reads a record another presentation changed under it. */
const CAS_ATTEMPTS = 8;
/** How many families revokeFamilies revokes at once. */
const REVOKE_BATCH = 200;

@injectable()
export class RefreshTokenRegistry {
  private readonly ttlMs: number;
  private readonly absoluteMs: number;
  private readonly cutOffs: RefreshCutOffs;
  private readonly legacy: LegacyRefreshTokens;

  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.AuthSettings) settings: AuthSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(SessionManagers) private readonly managers: SessionManagers,
  ) {
    this.ttlMs = settings.refreshTokenTtlSeconds * 1000;
    this.absoluteMs = settings.refreshTokenAbsoluteTtlSeconds * 1000;
    // A cut-off refuses families born before it: none of them presents a token later than the
    // refresh TTL (its last token was issued before the cut) or the family lifetime after it.
    this.cutOffs = new RefreshCutOffs(kv, Math.min(this.ttlMs, this.absoluteMs));
    this.legacy = new LegacyRefreshTokens(
      kv,
      clock,
      (f) => this.ttlFor(f),
      (f) => this.endOf(f),
    );
  }

  /** When the family's absolute lifetime ends (ms). */
  endOf(family: string): number {
    return RefreshTokenRegistry.bornAt(family) + this.absoluteMs;
  }

  /** `<ms now>.<16 random bytes, base64url>` (families of earlier releases have a uuid after the dot: both are read alike). */
  newFamily(): string {
    return `${this.clock.now()}.${randomBytes(16).toString('base64url')}`;
  }

  /** When the family was created (ms); 0 for a family id without a birth time. */
  static bornAt(family: string): number {
    const m = /^(\d{1,15})\./.exec(family);
    return m ? Number(m[1]) : 0;
  }

  /** How long a record of the family written now may be kept: the refresh TTL, capped by the family's end (at least 1 ms). */
  private ttlFor(family: string): number {
    return Math.max(1, Math.min(this.ttlMs, this.endOf(family) - this.clock.now()));
  }

  /**
   * "Revoke everything before now" for one user: every family of theirs created before this
   * moment is refused at its next refresh, whether or not a live session still lists it.
   */
  async revokeAllOfUser(loginType: LoginType, userId: string): Promise<number> {
    const at = this.clock.now();
    await this.cutOffs.cutAccount(loginType, userId, at);
    return at;
  }

  /**
   * A login under is-concurrent=false replaces the user's sessions of `deviceType` (null: of every
   * device type): every family of theirs of that range created before now is refused at its next
   * refresh. A login does not take this for an account change (cutOffOf).
   */
  async revokeDeviceOfUser(loginType: LoginType, userId: string, deviceType: string | null): Promise<void> {
    await this.cutOffs.cutDevice(loginType, userId, deviceType ?? EVERY_DEVICE_TYPE, this.clock.now());
  }

  /** The user's account cut-off (ms): every family born before it is refused; null when there is none. One GET. */
  async cutOffOf(loginType: LoginType, userId: string): Promise<number | null> {
    return this.cutOffs.ofAccount(loginType, userId);
  }

  /** Whether a cut-off of the user that applies to the family (its device type's, or the account's) is later than its birth. One GET. */
  async isCutOff(loginType: LoginType, record: RefreshRecord): Promise<boolean> {
    const cut = await this.cutOffs.forDevice(loginType, record.userId, record.deviceType ?? DEFAULT_DEVICE_TYPE);
    return RefreshTokenRegistry.bornAt(record.family) < cut;
  }

  /**
   * Issues the first refresh token of a new family, bound to the access token `accessHash`: the
   * family's record, one write.
   */
  async issue(loginType: LoginType, userId: string, family: string, accessHash: string, deviceType?: string): Promise<string> {
    const state = { userId, deviceType: deviceType ?? '', gen: 0, accessHash, rotatedAt: 0, key: newFamilyKey() };
    const { token, hash } = mintToken(family, state);
    await this.kv.set(familyKey(loginType, family), encodeFamily({ ...state, hash }), this.ttlFor(family));
    return token;
  }

  /**
   * Completes a rotation that `consume` began (`rotation`, the record it left): the family's next
   * token, bound to the access token `accessHash`. Null when the family was revoked meanwhile (the
   * caller ends the session it minted for it).
   */
  async complete(loginType: LoginType, family: string, rotation: string, accessHash: string): Promise<string | null> {
    const state = decodeFamily(rotation);
    if (state === null) return null;
    const { token, hash } = mintToken(family, state);
    const next = encodeFamily({ ...state, hash, accessHash });
    return (await this.kv.replaceIfEquals(familyKey(loginType, family), rotation, next, this.ttlFor(family))) ? token : null;
  }

  /**
   * Consumes a refresh token: when it is its family's live one, the family's record moves to
   * "rotation under way" by compare-and-set (`ok`, with that record to complete the rotation).
   * That state is kept at least ROTATION_WINDOW_MS, so a rotation begun just before the family's
   * end can complete (its new token then lives only what the family has left).
   */
  async consume(loginType: LoginType, token: string): Promise<ConsumeResult> {
    if (LegacyRefreshTokens.isLegacy(token)) return this.legacy.consume(loginType, token);
    const t = parseToken(token);
    if (t === null) return { kind: 'invalid' };
    const key = familyKey(loginType, t.family);
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const raw = await this.kv.get(key);
      const state = decodeFamily(raw);
      if (raw === null || state === null) return { kind: 'invalid' };
      const now = this.clock.now();
      if (now >= this.endOf(t.family)) return { kind: 'expired', family: t.family };
      if (isEarlier(state, t)) {
        const concurrent = t.gen === state.gen - 1 && now - state.rotatedAt < REUSE_GRACE_MS;
        return { kind: concurrent ? 'concurrent' : 'reused', family: t.family };
      }
      if (!isLive(state, t)) return { kind: 'invalid' };
      const rotation = encodeFamily({ ...state, gen: state.gen + 1, hash: '', rotatedAt: now });
      if (await this.kv.replaceIfEquals(key, raw, rotation, Math.max(ROTATION_WINDOW_MS, this.ttlFor(t.family)))) {
        return { kind: 'ok', record: recordOf(t.family, state), rotation };
      }
    }
    return { kind: 'invalid' };
  }

  /** The refresh-token family of a session: the one its record names (attrs.rtFamily), else the access index of earlier releases. */
  async familyOfSession(loginType: LoginType, accessHash: string, recorded: string | undefined): Promise<string | null> {
    return recorded ?? (await this.legacy.familyOfAccess(loginType, accessHash));
  }

  familyOfAccess(loginType: LoginType, accessHash: string): Promise<string | null> {
    return this.legacy.familyOfAccess(loginType, accessHash);
  }

  /**
   * Revokes the whole family: deletes its record (its live refresh token with it; a rotation under
   * way then fails to complete) and logs out its live access token (except `keepAccessHash`, which
   * the caller ends itself, e.g. to leave a "kicked out" tombstone). One GETDEL for a family of the
   * new layout; when there is none, or its record may be a migration under way (a first rotation),
   * the old-layout pointer is taken too, then the record again (the order a migration needs: see
   * legacy-refresh-tokens.ts).
   */
  async revokeFamily(loginType: LoginType, family: string, keepAccessHash?: string): Promise<void> {
    const key = familyKey(loginType, family);
    const first = decodeFamily(await this.kv.getAndDelete(key));
    const live = new Set([first?.accessHash]);
    if (first === null || (first.gen === 1 && first.hash === '')) {
      live.add((await this.legacy.drop(loginType, family)) ?? undefined);
      live.add(decodeFamily(await this.kv.getAndDelete(key))?.accessHash);
    }
    for (const access of live) {
      if (access !== undefined && access !== '' && access !== keepAccessHash) await this.managers.get(loginType).logoutByHash(access);
    }
  }

  /**
   * Revokes families in parallel (the families of sessions a login just ended: replaced, or over
   * session.max-login-count); each entry's `keepAccessHash` is the ended session, left as it was.
   */
  async revokeFamilies(loginType: LoginType, families: readonly { family: string; keepAccessHash?: string }[]): Promise<void> {
    for (let i = 0; i < families.length; i += REVOKE_BATCH) {
      await Promise.all(families.slice(i, i + REVOKE_BATCH).map((f) => this.revokeFamily(loginType, f.family, f.keepAccessHash)));
    }
  }

  /**
   * Deletes the records of the families of sessions the caller ends itself (kick-all, logout-all):
   * their access tokens are left to the caller. Batched in parallel; sessions without a family
   * (no remember-me) cost nothing.
   */
  async revokeFamiliesOfSessions(loginType: LoginType, sessions: readonly ListedSession[]): Promise<void> {
    const families = sessions.flatMap((s) =>
      s.record.attrs.rtFamily !== undefined ? [{ family: s.record.attrs.rtFamily, keepAccessHash: s.tokenHash }] : [],
    );
    await this.revokeFamilies(loginType, families);
  }
}

function recordOf(family: string, state: FamilyState): RefreshRecord {
  return {
    userId: state.userId,
    family,
    accessHash: state.accessHash,
    ...(state.deviceType !== '' ? { deviceType: state.deviceType } : {}),
  };
}
