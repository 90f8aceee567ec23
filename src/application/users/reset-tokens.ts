/**
 * Password-reset tokens: 32 random bytes (256 bits, base64url), valid
 * svc.web.reset-token-ttl-seconds, single use, and only the newest one of an account is valid.
 *
 * Stored only as the token's SHA-256 (hex) `h`, in the key-value store:
 *   pwreset:<type>:<h>          JSON {userId, email, expiresAt}
 *   pwlatest:<type>:<userId>    h of the account's newest token (the pointer)
 * both with the token's lifetime, the pointer written first (setMany), so a token is never usable
 * before it is the newest. A newer token moves the pointer: the older one is superseded. Spending
 * is `getAndDelete` on the token's key (of concurrent uses, on any number of instances, exactly one
 * gets the record) followed by a check that the pointer still names it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { LoginType } from '../../domain/login-type';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { secretDigest } from './email-digest';

export interface ResetTokenRecord {
  readonly userId: string;
  /** The address the link was sent to. */
  readonly email: string;
  readonly expiresAt: number;
}

/** A valid token as `find` read it: what `spend` and `restore` need. */
export interface FoundResetToken {
  readonly record: ResetTokenRecord;
  readonly hash: string;
  readonly raw: string;
}

/** A token of the right shape: 43 base64url characters (32 bytes); anything else is unknown without a store call. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

const tokenKey = (type: LoginType, hash: string): string => `pwreset:${type}:${hash}`;
const latestKey = (type: LoginType, userId: string): string => `pwlatest:${type}:${userId}`;

function parse(raw: string): ResetTokenRecord | null {
  try {
    const r = JSON.parse(raw) as Partial<ResetTokenRecord>;
    const ok = typeof r.userId === 'string' && typeof r.email === 'string' && typeof r.expiresAt === 'number';
    return ok ? (r as ResetTokenRecord) : null;
  } catch {
    return null;
  }
}

function sameHex(a: string | null, b: string): boolean {
  if (a === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

@injectable()
export class ResetTokens {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
  ) {}

  /** A new token for the account, which supersedes every earlier one; returns the token (to mail, never to store or log). */
  async issue(type: LoginType, account: { userId: string; email: string }): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const hash = secretDigest(token);
    const ttlMs = this.settings.resetTokenTtlSeconds * 1000;
    const record: ResetTokenRecord = { userId: account.userId, email: account.email, expiresAt: this.clock.now() + ttlMs };
    await this.kv.setMany([
      { key: latestKey(type, account.userId), value: hash, ttlMs },
      { key: tokenKey(type, hash), value: JSON.stringify(record), ttlMs },
    ]);
    return token;
  }

  /** The token's record while it is unspent, unexpired and its account's newest; null otherwise. Changes nothing. */
  async find(type: LoginType, token: string): Promise<FoundResetToken | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const hash = secretDigest(token);
    const raw = await this.kv.get(tokenKey(type, hash));
    const record = raw === null ? null : parse(raw);
    if (raw === null || record === null || record.expiresAt <= this.clock.now()) return null;
    if (!(await this.isLatest(type, record.userId, hash))) return null;
    return { record, hash, raw };
  }

  /** Spends a found token: true for exactly one of concurrent callers, and only while it is still the account's newest. */
  async spend(type: LoginType, found: FoundResetToken): Promise<boolean> {
    const taken = await this.kv.getAndDelete(tokenKey(type, found.hash));
    return taken !== null && (await this.isLatest(type, found.record.userId, found.hash));
  }

  /** Gives a spent token back for the rest of its life (the change it was spent for could not be made). */
  async restore(type: LoginType, found: FoundResetToken): Promise<void> {
    const left = found.record.expiresAt - this.clock.now();
    if (left > 0) await this.kv.setIfAbsent(tokenKey(type, found.hash), found.raw, left);
  }

  /** Drops the account's pointer once its token is used (only while it still names that token). */
  async forget(type: LoginType, found: FoundResetToken): Promise<void> {
    await this.kv.deleteIfEquals(latestKey(type, found.record.userId), found.hash);
  }

  private async isLatest(type: LoginType, userId: string, hash: string): Promise<boolean> {
    return sameHex(await this.kv.get(latestKey(type, userId)), hash);
  }
}
