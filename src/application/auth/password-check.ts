/**
 * The one BCrypt compare every password check makes (login, password change, step-up): the same work
 * whatever the case, so its time tells nothing about the account.
 */
import { inject, injectable } from 'inversify';
import { BCRYPT_MAX_BYTES, isBcryptHash, utf8Length } from '../../domain/password';
import type { Clock } from '../ports/clock';
import type { PasswordHasher } from '../ports/password-hasher';
import type { DirectoryUser, UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';

@injectable()
export class PasswordCheck {
  private dummyHash: Promise<string> | undefined;

  constructor(
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /**
   * One BCrypt compare whatever the case: an unknown user, an unusable password or a stored hash
   * that is not BCrypt (a broken row, which would fail instantly) is compared against a dummy
   * hash, so every failure costs the same time.
   */
  async matches(user: DirectoryUser | null, password: string | null): Promise<boolean> {
    const usable = password !== null && password !== '' && utf8Length(password) <= BCRYPT_MAX_BYTES;
    const storedHash = user !== null && isBcryptHash(user.passwordHash) ? user.passwordHash : null;
    const matches = await this.hasher.verify(usable ? password : 'x', storedHash ?? (await this.dummy()));
    return usable && storedHash !== null && matches;
  }

  /**
   * A signed-in user's password (a password change's current one, a step-up's): the account
   * `userId` when `password` is its password, else null (no such account, a wrong password). One
   * compare whatever the case, as `matches`.
   */
  async accountWith(userId: string, password: string | null): Promise<DirectoryUser | null> {
    const user = await this.directory.findById(userId);
    return (await this.matches(user, password)) ? user : null;
  }

  /** A hash of a random password at the configured cost: unknown users cost one real compare too. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.hasher.hash(`dummy-${this.clock.now()}-${Math.random()}`, this.settings.bcryptCost);
    return this.dummyHash;
  }
}
