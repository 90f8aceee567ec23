/**
 * Self-registration of a member (web), with an e-mail address when one is given or
 * svc.web.require-email asks for it. With an address, mail must be sendable before anything is
 * created (503 mail-unavailable, no account), the address must be free (409 email-taken, compared
 * case-insensitively; checked again atomically by the directory), and the new account is sent a
 * verification code (VerificationCodes) before the answer.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import { DeliverMail } from '../mail/deliver-mail';
import type { AccountStore } from '../ports/account-store';
import { TOKENS } from '../tokens';
import type { AccountSettings } from './account-settings';
import { CreateUser } from './create-user';
import { VerificationCodes } from './verification-codes';

export interface RegisterMemberInput {
  readonly loginType: LoginType;
  readonly username: string;
  /** Plain text (the web app's passwords arrive over TLS). */
  readonly password: string;
  readonly nickname?: string | undefined;
  /** Trimmed; undefined when the request has none. */
  readonly email?: string | undefined;
}

export interface RegisteredMember {
  readonly userId: string;
  readonly username: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
}

@injectable()
export class RegisterMember {
  static readonly reasons: readonly Reason[] = [...CreateUser.reasons, ...DeliverMail.reasons, 'store-unavailable'];

  constructor(
    @inject(CreateUser) private readonly create: CreateUser,
    @inject(TOKENS.AccountStore) private readonly accounts: AccountStore,
    @inject(TOKENS.AccountSettings) private readonly settings: AccountSettings,
    @inject(DeliverMail) private readonly mail: DeliverMail,
    @inject(VerificationCodes) private readonly codes: VerificationCodes,
  ) {}

  async execute(input: RegisterMemberInput): Promise<RegisteredMember> {
    const { email } = input;
    if (email === undefined && this.settings.requireEmail) {
      throw new DomainError('validation-failed', 'The request body is not valid.', {
        errors: [{ pointer: '/email', detail: 'is required (svc.web.require-email)' }],
      });
    }
    if (email !== undefined) {
      this.mail.ensureAvailable();
      // Before the expensive hash; the directory checks again when it creates the account.
      if ((await this.accounts.findByEmail(email)) !== null) {
        throw new DomainError('email-taken', 'The e-mail address is already in use (addresses are unique whatever their case).');
      }
    }
    const created = await this.create.execute({
      username: input.username,
      password: input.password,
      encrypted: false,
      nickname: input.nickname,
      roles: [],
      actor: null,
      email,
    });
    if (email !== undefined) await this.codes.issue(input.loginType, { userId: created.userId, username: created.username, email });
    return { userId: created.userId, username: created.username, email: email ?? null, emailVerified: false };
  }
}
