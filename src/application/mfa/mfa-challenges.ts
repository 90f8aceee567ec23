/**
 * The `mfaToken` of a login waiting for its second factor: 32 random bytes (base64url), stored only
 * as its SHA-256 with the account it was issued for, living svc.mfa.challenge-ttl-seconds. An answer
 * takes it before its proof is checked (of concurrent answers exactly one); a wrong proof puts it back
 * for the rest of its lifetime (wrong codes spend the account's failure budget instead), a right one
 * keeps it, so it is single-use.
 */
import { createHash, randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { parseJsonObject } from '../../domain/json-record';
import type { LoginType } from '../../domain/login-type';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { MfaSettings } from './mfa-settings';

export interface MfaChallenge {
  readonly userId: string;
  readonly username: string;
  /** When the account was read for the password check (ms): a cut-off since then ends the login. */
  readonly passwordAt: number;
  /** When the challenge expires (ms): checked on the clock too, not only by the store's TTL. */
  readonly expiresAt: number;
  /** The login's device type (its body's, or its User-Agent's): the session the second step creates has it. */
  readonly deviceType?: string;
  /** The login's remember-me (absent: true). */
  readonly rememberMe?: boolean;
}

/** What the first step of a login chose for the session the second step creates. */
export interface LoginChoices {
  readonly deviceType?: string | undefined;
  readonly rememberMe?: boolean | undefined;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const keyOf = (loginType: LoginType, token: string) => `mfa:${loginType}:${createHash('sha256').update(token).digest('hex')}`;

export const mfaTokenInvalid = (loginType: LoginType): DomainError =>
  new DomainError('mfa-token-invalid', 'The mfaToken is unknown, used or expired: log in again.', { loginType });

@injectable()
export class MfaChallenges {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.MfaSettings) private readonly settings: MfaSettings,
  ) {}

  async issue(
    loginType: LoginType,
    user: { readonly id: string; readonly username: string },
    readAt: number,
    choices: LoginChoices = {},
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const ttlMs = this.settings.challengeTtlSeconds * 1000;
    const value: MfaChallenge = {
      userId: user.id,
      username: user.username,
      passwordAt: readAt,
      expiresAt: this.clock.now() + ttlMs,
      ...(choices.deviceType !== undefined ? { deviceType: choices.deviceType } : {}),
      ...(choices.rememberMe === false ? { rememberMe: false } : {}),
    };
    await this.kv.set(keyOf(loginType, token), JSON.stringify(value), ttlMs);
    return token;
  }

  /** The challenge, still valid and left in place; 401 mfa-token-invalid otherwise. */
  async read(loginType: LoginType, token: string): Promise<MfaChallenge> {
    const raw = TOKEN.test(token) ? await this.kv.get(keyOf(loginType, token)) : null;
    const challenge = raw === null ? null : readChallenge(raw);
    if (challenge === null || challenge.expiresAt <= this.clock.now()) throw mfaTokenInvalid(loginType);
    return challenge;
  }

  /**
   * Takes the challenge before its proof is checked; null when it is gone (another request holds or used it) or
   * expired. Of concurrent callers at most one gets it: only that one checks (and spends) its proof.
   */
  async take(loginType: LoginType, token: string): Promise<MfaChallenge | null> {
    const raw = TOKEN.test(token) ? await this.kv.getAndDelete(keyOf(loginType, token)) : null;
    const challenge = raw === null ? null : readChallenge(raw);
    return challenge === null || challenge.expiresAt <= this.clock.now() ? null : challenge;
  }

  /** Puts a taken challenge back for the rest of its lifetime (its proof was wrong: the user may try again). */
  async putBack(loginType: LoginType, token: string, challenge: MfaChallenge): Promise<void> {
    const leftMs = challenge.expiresAt - this.clock.now();
    if (leftMs > 0) await this.kv.setIfAbsent(keyOf(loginType, token), JSON.stringify(challenge), leftMs);
  }
}

function readChallenge(raw: string): MfaChallenge | null {
  const o = parseJsonObject(raw);
  if (o === null || typeof o.userId !== 'string' || typeof o.username !== 'string') return null;
  if (typeof o.passwordAt !== 'number' || typeof o.expiresAt !== 'number') return null;
  return {
    userId: o.userId,
    username: o.username,
    passwordAt: o.passwordAt,
    expiresAt: o.expiresAt,
    ...(typeof o.deviceType === 'string' ? { deviceType: o.deviceType } : {}),
    ...(o.rememberMe === false ? { rememberMe: false } : {}),
  };
}
