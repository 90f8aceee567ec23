/**
 * Refresh tokens and their families (RFC 9700 §4.14.2), on the KeyValueStore only:
 *
 *   rt:<type>:<sha256(token)>      -> {userId, family, accessHash, deviceType}   TTL refresh TTL
 *   rtused:<type>:<sha256(token)>  -> {family, usedAt}               (presenting it again is reuse)
 *   rtfam:<type>:<family>          -> {refreshHash, accessHash}      (the family's live pair)
 *   rtrev:<type>:<family>          -> "1"      (the family was revoked)
 *   rtacc:<type>:<access hash>     -> family   (which family an access token belongs to)
 *   rtcut:<type>:<user id>         -> cut-offs ("log out everywhere", replacements: refresh-cut-offs.ts)
 *
 * The readers also accept the one-letter field names of the previous record format
 * (`{u, f, a}`, `{f, t}`, `{r, a}`), so refresh tokens issued before an upgrade keep working.
 *
 * A family id is `<ms it was created>.<uuid>`: its birth time travels with it through every
 * rotation at no store cost. A family born before the user's cut-off is refused when its token is
 * consumed (and re-checked after rotation), which reaches the families no session index lists any
 * more (devices whose access token lapsed). The comparison is strict: a login in the very
 * millisecond of the cut-off survives it (LogoutAll also revokes every family it can list).
 * A family id without a birth time counts as born at 0 (refused by any cut-off).
 *
 * A family lives svc.refresh-token.absolute-ttl-seconds from its birth, however often it rotates:
 * each refresh token (and its `rtfam`/`rtacc` records) is kept no longer than the family has left,
 * IssueTokens caps the access token likewise, and a token consumed after the family's end is
 * answered "expired" (the caller revokes the family, ending its live access token).
 *
 * Every write that must not be seen half done is one atomic store step: issuing writes `rt`,
 * `rtfam` and `rtacc` together (setMany), and consuming deletes `rt` and writes its `rtused`
 * marker together (deleteIfEqualsAndSet, after one GET of the record: the marker carries the
 * family). So no crash or store error leaves a family without its pointer, and a consumed token
 * always has its marker: presenting it again reads as reuse, never as unknown. Of N concurrent
 * refreshes with one token exactly one takes the record. On a sharded store (Redis Cluster) keys
 * about one subject share a shard: `rt` and `rtused` of a token do (the take and its marker stay
 * one step); issuing writes the family pointer and the access index before the token itself, so
 * no prefix of it hands out a token outside its family.
 * Rotation logs out the previous access token, so a family has at most one live
 * refresh token and one live access token at any time; `rtfam` points at them, which is all a
 * family revocation needs to delete. Only the SHA-256 of a refresh token is ever stored.
 *
 * Concurrent duplicates: a token presented again within REUSE_GRACE_MS of its rotation is
 * answered 401 "invalid" without revoking the family (two tabs refreshing at once must not log
 * the user out, and the one winner's new pair must stay valid). Any later presentation is reuse.
 */
import { createHash, randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { parseJsonObject } from '../../domain/json-record';
import type { AuthSettings } from '../auth/auth-settings';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import { DEFAULT_DEVICE_TYPE } from '../../domain/device-type';
import { EVERY_DEVICE_TYPE, RefreshCutOffs } from './refresh-cut-offs';
import { SessionManagers } from './session-manager';
import type { LoginType } from '../../domain/login-type';

/** What a live refresh token stands for. */
export interface RefreshRecord {
  readonly userId: string;
  readonly family: string;
  /** Hash of the access token issued with it. */
  readonly accessHash: string;
  /** The device type of its login (a refresh keeps it); absent in records of earlier releases: `DEF`. */
  readonly deviceType?: string;
}

export type ConsumeResult =
  | { readonly kind: 'ok'; readonly record: RefreshRecord }
  | { readonly kind: 'reused'; readonly family: string }
  /** Presented again within REUSE_GRACE_MS of its rotation: refused as invalid, the family kept. */
  | { readonly kind: 'concurrent'; readonly family: string }
  | { readonly kind: 'expired'; readonly family: string }
  | { readonly kind: 'invalid' };

/** How long after a rotation a second presentation counts as a concurrent duplicate, not reuse. */
export const REUSE_GRACE_MS = 2000;

const REFRESH_FORMAT = /^[0-9a-f]{32}$/;
const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** Reads a stored JSON object; the first of each field-name pair that holds a value of `type` wins. */
function readFields<K extends string>(
  raw: string,
  names: Record<K, readonly [string, string]>,
  type: 'string' | 'number',
): Record<K, unknown> | null {
  const o = parseJsonObject(raw);
  if (o === null) return null;
  const out = {} as Record<K, unknown>;
  for (const k of Object.keys(names) as K[]) {
    const [name, legacy] = names[k];
    const value = o[name] ?? o[legacy];
    if (typeof value !== type && !(type === 'number' && typeof value === 'string')) return null;
    out[k] = value;
  }
  return out;
}

function readRefresh(raw: string): RefreshRecord | null {
  const r = readFields(raw, { userId: ['userId', 'u'], family: ['family', 'f'], accessHash: ['accessHash', 'a'] }, 'string');
  if (r === null) return null;
  const deviceType = parseJsonObject(raw)?.deviceType;
  return { ...(r as unknown as RefreshRecord), ...(typeof deviceType === 'string' ? { deviceType } : {}) };
}

function readUsed(raw: string): { family: string; usedAt: number } | null {
  const r = readFields(raw, { family: ['family', 'f'] }, 'string');
  const t = readFields(raw, { usedAt: ['usedAt', 't'] }, 'number');
  return r === null || t === null ? null : { family: String(r.family), usedAt: Number(t.usedAt) };
}

function readFamily(raw: string): { refreshHash: string; accessHash: string } | null {
  const r = readFields(raw, { refreshHash: ['refreshHash', 'r'], accessHash: ['accessHash', 'a'] }, 'string');
  return r === null ? null : (r as unknown as { refreshHash: string; accessHash: string });
}

@injectable()
export class RefreshTokenRegistry {
  private readonly ttlMs: number;
  private readonly absoluteMs: number;
  private readonly cutOffs: RefreshCutOffs;

  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.AuthSettings) settings: AuthSettings,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(SessionManagers) private readonly managers: SessionManagers,
  ) {
    this.ttlMs = settings.refreshTokenTtlSeconds * 1000;
    this.absoluteMs = settings.refreshTokenAbsoluteTtlSeconds * 1000;
    this.cutOffs = new RefreshCutOffs(kv, this.ttlMs);
  }

  /** When the family's absolute lifetime ends (ms). */
  endOf(family: string): number {
    return RefreshTokenRegistry.bornAt(family) + this.absoluteMs;
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
   * Marks families revoked (their sessions were ended by a login: replaced, or over the cap): a
   * refresh of one is refused (at the latest in its post-rotation re-check). In parallel, one round trip.
   */
  async markRevoked(loginType: LoginType, families: readonly string[]): Promise<void> {
    await Promise.all(families.map((f) => this.kv.set(`rtrev:${loginType}:${f}`, '1', this.ttlMs)));
  }

  /**
   * Issues the family's next refresh token, bound to the access token `accessHash`: its record,
   * the family pointer and the access index in one atomic write (never a half family).
   */
  async issue(loginType: LoginType, userId: string, family: string, accessHash: string, deviceType?: string): Promise<string> {
    const token = randomUUID().replace(/-/g, '');
    const hash = sha256(token);
    const record: RefreshRecord = { userId, family, accessHash, ...(deviceType !== undefined ? { deviceType } : {}) };
    const ttlMs = Math.max(1, Math.min(this.ttlMs, this.endOf(family) - this.clock.now()));
    // The pointers first, the token last: on a sharded store each subject is its own step, and a
    // family pointer to a token not yet written is harmless (the token was never handed out).
    await this.kv.setMany([
      { key: `rtfam:${loginType}:${family}`, value: JSON.stringify({ refreshHash: hash, accessHash }), ttlMs },
      { key: `rtacc:${loginType}:${accessHash}`, value: family, ttlMs },
      { key: `rt:${loginType}:${hash}`, value: JSON.stringify(record), ttlMs },
    ]);
    return token;
  }

  /**
   * Reads the token's record, then takes it and writes its `rtused` marker in one atomic step.
   * A record that is unreadable or past its family's lifetime is taken without a marker. Losing
   * the take to a concurrent presentation reads that presentation's marker (within the grace
   * period: "concurrent").
   */
  async consume(loginType: LoginType, token: string): Promise<ConsumeResult> {
    if (!REFRESH_FORMAT.test(token)) return { kind: 'invalid' };
    const hash = sha256(token);
    const key = `rt:${loginType}:${hash}`;
    const raw = await this.kv.get(key);
    if (raw !== null) {
      const record = readRefresh(raw);
      if (record === null || this.clock.now() >= this.endOf(record.family)) {
        await this.kv.deleteIfEquals(key, raw);
        return record === null ? { kind: 'invalid' } : { kind: 'expired', family: record.family };
      }
      const used = {
        key: `rtused:${loginType}:${hash}`,
        value: JSON.stringify({ family: record.family, usedAt: this.clock.now() }),
        ttlMs: this.ttlMs,
      };
      if (await this.kv.deleteIfEqualsAndSet(key, raw, used)) return { kind: 'ok', record };
    }
    const usedRaw = await this.kv.get(`rtused:${loginType}:${hash}`);
    const used = usedRaw === null ? null : readUsed(usedRaw);
    if (used === null) return { kind: 'invalid' };
    return { kind: this.clock.now() - used.usedAt < REUSE_GRACE_MS ? 'concurrent' : 'reused', family: used.family };
  }

  /** The refresh-token family of a session: the one its record names (attrs.rtFamily), else the access index's. */
  async familyOfSession(loginType: LoginType, accessHash: string, recorded: string | undefined): Promise<string | null> {
    return recorded ?? (await this.familyOfAccess(loginType, accessHash));
  }

  familyOfAccess(loginType: LoginType, accessHash: string): Promise<string | null> {
    return this.kv.get(`rtacc:${loginType}:${accessHash}`);
  }

  async isRevoked(loginType: LoginType, family: string): Promise<boolean> {
    return (await this.kv.get(`rtrev:${loginType}:${family}`)) !== null;
  }

  /**
   * Revokes the whole family: its live refresh token and its live access token (except
   * `keepAccessHash`, which the caller ends itself, e.g. to leave a "kicked out" tombstone).
   * The revocation marker is written first, so a refresh that consumed the family's token just
   * before this call sees it in its post-rotation re-check and ends the pair it minted.
   */
  async revokeFamily(loginType: LoginType, family: string, keepAccessHash?: string): Promise<void> {
    await this.kv.set(`rtrev:${loginType}:${family}`, '1', this.ttlMs);
    const raw = await this.kv.getAndDelete(`rtfam:${loginType}:${family}`);
    const live = raw === null ? null : readFamily(raw);
    if (live === null) return;
    await this.kv.delete(`rt:${loginType}:${live.refreshHash}`);
    if (live.accessHash !== keepAccessHash) await this.managers.get(loginType).logoutByHash(live.accessHash);
  }
}
