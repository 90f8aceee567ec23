/**
 * Refresh tokens of earlier releases (32 hex characters), read in their own layout so that they
 * keep working after the upgrade; nothing here is written for new tokens:
 *
 *   rt:<type>:<sha256(token)>      -> {userId, family, accessHash, deviceType}  (or `{u, f, a}`)
 *   rtused:<type>:<sha256(token)>  -> {family, usedAt}                          (or `{f, t}`)
 *   rtfam:<type>:<family>          -> {refreshHash, accessHash}                 (or `{r, a}`)
 *   rtacc:<type>:<access hash>     -> family
 *   rtrev:<type>:<family>          -> "1": the family was revoked. That release's revocation by a login
 *                                   (sessions replaced, or over session.max-login-count) wrote only this
 *                                   marker and left the family's `rt`: a token of a marked family is
 *                                   refused and its keys removed (a cap has no cut-off to refuse it).
 *
 * Consuming one migrates its family: the token is taken with its `rtused` marker (one atomic step,
 * as before: presenting it again is still reuse), the family's record is written in the new layout
 * in its "rotation under way" state (refresh-family.ts), and the old pointers are removed. The
 * rotation then completes on the new record like any other. A revocation (RefreshTokenRegistry)
 * that finds no new record, or one in this first "rotation under way" state, takes `rtfam` and
 * then the new record again: so a migration that finds `rtfam` gone was revoked (and removes what
 * it wrote), and one that found it had written its record before the revocation deletes it.
 */
import { createHash } from 'node:crypto';
import { parseJsonObject } from '../../domain/json-record';
import type { LoginType } from '../../domain/login-type';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { encodeFamily, familyKey, newFamilyKey, ROTATION_WINDOW_MS, type FamilyState } from './refresh-family';

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
  /** `rotation`: the family record as the consumption left it, for the rotation to complete (RefreshTokenRegistry.complete). */
  | { readonly kind: 'ok'; readonly record: RefreshRecord; readonly rotation: string }
  | { readonly kind: 'reused'; readonly family: string }
  /** Presented again within REUSE_GRACE_MS of its rotation: refused as invalid, the family kept. */
  | { readonly kind: 'concurrent'; readonly family: string }
  | { readonly kind: 'expired'; readonly family: string }
  | { readonly kind: 'invalid' };

/** How long after a rotation a second presentation counts as a concurrent duplicate, not reuse. */
export const REUSE_GRACE_MS = 2000;

const LEGACY_FORMAT = /^[0-9a-f]{32}$/;
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

function readPointer(raw: string): { refreshHash: string; accessHash: string } | null {
  const r = readFields(raw, { refreshHash: ['refreshHash', 'r'], accessHash: ['accessHash', 'a'] }, 'string');
  return r === null ? null : (r as unknown as { refreshHash: string; accessHash: string });
}

export class LegacyRefreshTokens {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly clock: Clock,
    /** How long a record of the family may be kept from now (ms): the refresh TTL, capped by the family's end. */
    private readonly ttlFor: (family: string) => number,
    private readonly endOf: (family: string) => number,
  ) {}

  static isLegacy(token: string): boolean {
    return LEGACY_FORMAT.test(token);
  }

  async consume(loginType: LoginType, token: string): Promise<ConsumeResult> {
    const hash = sha256(token);
    const key = `rt:${loginType}:${hash}`;
    const raw = await this.kv.get(key);
    const now = this.clock.now();
    if (raw !== null) {
      const record = readRefresh(raw);
      if (record === null || now >= this.endOf(record.family)) {
        await this.kv.deleteIfEquals(key, raw);
        return record === null ? { kind: 'invalid' } : { kind: 'expired', family: record.family };
      }
      if ((await this.kv.get(`rtrev:${loginType}:${record.family}`)) !== null) {
        await this.kv.deleteIfEquals(key, raw);
        await this.drop(loginType, record.family);
        await this.kv.delete(`rtrev:${loginType}:${record.family}`);
        return { kind: 'invalid' };
      }
      const used = {
        key: `rtused:${loginType}:${hash}`,
        value: JSON.stringify({ family: record.family, usedAt: now }),
        ttlMs: this.ttlFor(record.family),
      };
      if (await this.kv.deleteIfEqualsAndSet(key, raw, used)) return this.migrate(loginType, record, now);
    }
    const usedRaw = await this.kv.get(`rtused:${loginType}:${hash}`);
    const used = usedRaw === null ? null : readUsed(usedRaw);
    if (used === null) return { kind: 'invalid' };
    return { kind: now - used.usedAt < REUSE_GRACE_MS ? 'concurrent' : 'reused', family: used.family };
  }

  /** The family's record in the new layout (its rotation under way), then the old pointers removed. */
  private async migrate(loginType: LoginType, record: RefreshRecord, now: number): Promise<ConsumeResult> {
    const state: FamilyState = {
      userId: record.userId,
      deviceType: record.deviceType ?? '',
      gen: 1,
      hash: '',
      accessHash: record.accessHash,
      rotatedAt: now,
      key: newFamilyKey(),
    };
    const rotation = encodeFamily(state);
    const rf = familyKey(loginType, record.family);
    await this.kv.set(rf, rotation, Math.max(ROTATION_WINDOW_MS, this.ttlFor(record.family)));
    const [pointer] = await Promise.all([
      this.kv.getAndDelete(`rtfam:${loginType}:${record.family}`),
      this.kv.delete(`rtacc:${loginType}:${record.accessHash}`),
    ]);
    if (pointer === null) {
      // revoked while we took the token: the revocation may have missed the record just written
      await this.kv.deleteIfEquals(rf, rotation);
      return { kind: 'invalid' };
    }
    return { kind: 'ok', record, rotation };
  }

  /** Removes the family's old-layout pointer, its live token and its access index; the access hash it named (null: none). */
  async drop(loginType: LoginType, family: string): Promise<string | null> {
    const raw = await this.kv.getAndDelete(`rtfam:${loginType}:${family}`);
    const live = raw === null ? null : readPointer(raw);
    if (live === null) return null;
    await Promise.all([this.kv.delete(`rt:${loginType}:${live.refreshHash}`), this.kv.delete(`rtacc:${loginType}:${live.accessHash}`)]);
    return live.accessHash;
  }

  /** The family of an access token, from the access index of earlier releases (sessions whose record does not name it). */
  familyOfAccess(loginType: LoginType, accessHash: string): Promise<string | null> {
    return this.kv.get(`rtacc:${loginType}:${accessHash}`);
  }
}
