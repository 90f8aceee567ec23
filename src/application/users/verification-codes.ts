/**
 * E-mail verification codes of members: six random digits, single use, valid
 * svc.web.verify-code-ttl-seconds, at most MAX_TRIES wrong entries.
 *
 * One live code per address, in the key-value store under `everify:<type>:<digest of the folded
 * address>`: JSON {userId, email, nonce, codeHash, expiresAt}, where codeHash is the SHA-256 of
 * `<nonce>:<code>` (the code itself is stored nowhere). A new code replaces the old one. Every
 * entry counts first (`evtries:<type>:<digest>.<nonce>`, an atomic increment, so concurrent
 * guesses are all counted), then compares in constant time; a right code is spent with a
 * compare-and-delete, so of concurrent right entries exactly one verifies.
 */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { LoginType } from '../../domain/login-type';
import { DeliverMail } from '../mail/deliver-mail';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { emailDigest, secretDigest } from './email-digest';

/** Wrong entries that spend a code. */
export const MAX_TRIES = 5;

interface CodeRecord {
  readonly userId: string;
  /** The address the code was sent to, as the account holds it. */
  readonly email: string;
  readonly nonce: string;
  readonly codeHash: string;
  readonly expiresAt: number;
}

/** What a right code proves: this account holds this address. */
export interface VerifiedAddress {
  readonly userId: string;
  readonly email: string;
}

const codeKey = (type: LoginType, email: string): string => `everify:${type}:${emailDigest(email)}`;
const triesKey = (type: LoginType, email: string, nonce: string): string => `evtries:${type}:${emailDigest(email)}.${nonce}`;
const hashOf = (nonce: string, code: string): string => secretDigest(`${nonce}:${code}`);

function parse(raw: string): CodeRecord | null {
  try {
    const r = JSON.parse(raw) as Partial<CodeRecord>;
    const strings = [r.userId, r.email, r.nonce, r.codeHash].every((v) => typeof v === 'string');
    return strings && typeof r.expiresAt === 'number' ? (r as CodeRecord) : null;
  } catch {
    return null;
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

@injectable()
export class VerificationCodes {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(DeliverMail) private readonly mail: DeliverMail,
  ) {}

  /** Stores a new code for the account's address (replacing any earlier one) and mails it. */
  async issue(type: LoginType, account: { userId: string; username: string; email: string }): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const nonce = randomBytes(12).toString('base64url');
    const ttlSeconds = this.settings.verifyCodeTtlSeconds;
    const record: CodeRecord = {
      userId: account.userId,
      email: account.email,
      nonce,
      codeHash: hashOf(nonce, code),
      expiresAt: this.clock.now() + ttlSeconds * 1000,
    };
    await this.kv.set(codeKey(type, account.email), JSON.stringify(record), ttlSeconds * 1000);
    const minutes = Math.round(ttlSeconds / 60);
    await this.mail.send('verify-email', {
      to: account.email,
      subject: 'Your e-mail verification code',
      text:
        `Your e-mail verification code is ${code}.\n\n` +
        `Enter it to confirm this address for the account "${account.username}". It is valid for ${minutes} minutes ` +
        'and works once; a newer code replaces it.\n\nIf you did not sign up, ignore this message.\n',
    });
  }

  /** Spends the code when it is right: the account and address it proves, or null (wrong, unknown, expired, spent, tried out). */
  async check(type: LoginType, email: string, code: string): Promise<VerifiedAddress | null> {
    const key = codeKey(type, email);
    const raw = await this.kv.get(key);
    const record = raw === null ? null : parse(raw);
    const left = record === null ? 0 : record.expiresAt - this.clock.now();
    if (raw === null || record === null || left <= 0) return null;
    const { count } = await this.kv.increment(triesKey(type, email, record.nonce), left);
    const right = sameHash(hashOf(record.nonce, code), record.codeHash);
    if (count > MAX_TRIES || (!right && count === MAX_TRIES)) {
      await this.kv.deleteIfEquals(key, raw);
      return null;
    }
    if (!right || !(await this.kv.deleteIfEquals(key, raw))) return null;
    return { userId: record.userId, email: record.email };
  }
}
