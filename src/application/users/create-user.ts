/** Creates an account of the app's login type (admin user creation, web registration, the CLI). */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { AuthSettings } from '../auth/auth-settings';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import { CheckPasswordPolicy } from './check-password-policy';
import { Delegation, type Actor } from './delegation';
import { userViewOf, type UserView } from './user-view';

export interface CreateUserInput {
  readonly username: string;
  /** RSA ciphertext (base64) when `encrypted`, else plain text. */
  readonly password: string;
  readonly encrypted: boolean;
  readonly nickname?: string | undefined;
  readonly roles: readonly string[];
  /** Members: an e-mail address (stored unverified; one account per address, whatever its case). */
  readonly email?: string | undefined;
  /**
   * The administrator creating the account, who may grant only what it holds (delegation rules:
   * src/application/users/delegation.ts); null for self-registration and the operator's CLI.
   */
  readonly actor: Actor | null;
}

const taken = (username: string): DomainError =>
  new DomainError('username-taken', `The username "${username}" is already taken (usernames are unique whatever their case).`);
const emailTaken = (): DomainError =>
  new DomainError('email-taken', 'The e-mail address is already in use (addresses are unique whatever their case).');
const invalidField = (pointer: string, detail: string, message = 'The request body is not valid.'): DomainError =>
  new DomainError('validation-failed', message, { errors: [{ pointer, detail }] });

@injectable()
export class CreateUser {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    'validation-failed',
    'password-policy',
    'username-taken',
    'email-taken',
    'directory-unavailable',
    'directory-read-only',
    'server-busy',
  ];
  /** The failures of an administrator's creation: no e-mail address (so never email-taken), the delegation check added. */
  static readonly delegatedReasons: readonly Reason[] = [...CreateUser.reasons.filter((r) => r !== 'email-taken'), ...Delegation.reasons];

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(Delegation) private readonly delegation: Delegation,
    @inject(CheckPasswordPolicy) private readonly policy: CheckPasswordPolicy,
  ) {}

  async execute(input: CreateUserInput): Promise<UserView> {
    if (input.actor !== null) await this.delegation.assertMayGrant(input.actor, input.roles);
    const password = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;
    if (password === null)
      throw invalidField('/password', 'must be encrypted with the public key from /auth/getConfig', 'The password could not be decrypted.');
    // The password policy (every broken rule at once); a new account has no history to compare.
    await this.policy.execute({ password, username: input.username, pointer: '/password' });
    // Checked (by folded name) before the expensive hash; create() checks again atomically.
    if ((await this.directory.findByUsername(input.username)) !== null) throw taken(input.username);
    const passwordHash = await this.hasher.hash(password, this.settings.bcryptCost);
    const result = await this.directory.create({
      username: input.username,
      passwordHash,
      nickname: input.nickname ?? input.username,
      roles: input.roles,
      ...(input.email === undefined ? {} : { email: input.email }),
    });
    if (!result.ok) {
      if (result.reason === 'email-taken') throw emailTaken();
      throw result.reason === 'username-taken' ? taken(input.username) : invalidField('/roles', result.detail);
    }
    return userViewOf(result.user);
  }
}
