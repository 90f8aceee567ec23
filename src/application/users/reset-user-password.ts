/**
 * An administrator resets another account's password (RuoYi's `/system/user/resetPwd`, ASVS 6.2
 * level 2: forced change after an admin reset). The new password is the administrator's (RSA-
 * encrypted like a login password) or drawn by the service (`generate`, returned once). It must
 * pass the policy; the account is marked "must change password", so its next login gets a
 * restricted session; every login of the account ends at once.
 */
import { randomInt } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { AuthSettings } from '../auth/auth-settings';
import type { AccountStore } from '../ports/account-store';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { CheckPasswordPolicy } from './check-password-policy';
import { Delegation, type Actor } from './delegation';
import { EndUserSessions } from './end-user-sessions';
import { ADMIN_LOGIN_TYPE } from './live-sessions';

export interface ResetUserPasswordInput {
  readonly actor: Actor;
  readonly userId: string;
  /** RSA ciphertext of the new password; absent when `generate`. */
  readonly newPassword?: string;
  readonly generate: boolean;
}

export interface ResetUserPasswordOutput {
  readonly userId: string;
  readonly username: string;
  readonly sessionsEnded: number;
  /** The drawn password (only with `generate`; shown once, never stored in clear). */
  readonly temporaryPassword: string | null;
}

/** No 0/O, 1/l/I: a temporary password is read aloud or typed from a screen. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
/** 16 characters of 57: about 93 bits, never a common password. */
const GENERATED_LENGTH = 16;

export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < GENERATED_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

@injectable()
export class ResetUserPassword {
  static readonly reasons: readonly Reason[] = [
    ...Delegation.reasons,
    ...CheckPasswordPolicy.reasons,
    ...EndUserSessions.reasons,
    'validation-failed',
    'user-not-found',
    'directory-read-only',
    'directory-unavailable',
    'server-busy',
  ];

  constructor(
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.AuthSettings) private readonly auth: AuthSettings,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(CheckPasswordPolicy) private readonly policy: CheckPasswordPolicy,
    @inject(EndUserSessions) private readonly sessions: EndUserSessions,
  ) {}

  async execute(input: ResetUserPasswordInput): Promise<ResetUserPasswordOutput> {
    const target = await this.delegation.assertMayManage(input.actor, input.userId, 'reset the password of');
    const password = input.generate ? generatePassword() : await this.decrypt(input.newPassword);
    await this.policy.execute({
      password,
      username: target.username,
      pointer: '/newPassword',
      userId: target.id,
      currentHash: target.passwordHash,
    });
    const passwordHash = await this.hasher.hash(password, this.auth.bcryptCost);
    const keepHistory = Math.max(0, this.settings.passwordHistory - 1);
    const user = await this.accounts.setPassword(target.id, { passwordHash, mustChange: true, keepHistory });
    if (user === null) throw new DomainError('user-not-found', `No user with id "${input.userId}".`);
    const sessionsEnded = await this.sessions.execute({ loginType: ADMIN_LOGIN_TYPE, userId: user.id, username: user.username });
    return { userId: user.id, username: user.username, sessionsEnded, temporaryPassword: input.generate ? password : null };
  }

  private async decrypt(ciphertext: string | undefined): Promise<string> {
    const plain = ciphertext === undefined ? null : await this.rsa.decrypt(ciphertext);
    if (plain === null) {
      const detail =
        ciphertext === undefined ? 'send newPassword or generate: true' : 'cannot be decrypted with the key of /auth/getConfig';
      throw new DomainError('validation-failed', 'The new password is missing or cannot be decrypted.', {
        errors: [{ pointer: '/newPassword', detail }],
      });
    }
    return plain;
  }
}
