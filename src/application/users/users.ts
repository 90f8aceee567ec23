/** Directory administration: create and list users of the app's login type. */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import type { UserDirectory } from '../ports/user-directory';
import { TOKENS } from '../tokens';
import type { AuthSettings } from '../auth/auth-settings';
import { utf8Length } from '../auth/format';
import { BCRYPT_MAX_BYTES } from '../../domain/password';

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;

/** Password rules (ASVS 6.2): 8-64 characters and at most 72 UTF-8 bytes (BCrypt's limit; never truncated). */
export function passwordProblem(password: string): string | null {
  const chars = [...password].length;
  if (chars < 8) return 'must be at least 8 characters';
  if (chars > 64) return 'must be at most 64 characters';
  if (utf8Length(password) > BCRYPT_MAX_BYTES) return 'must be at most 72 bytes in UTF-8 (BCrypt reads no further)';
  return null;
}

export interface UserView {
  readonly userId: string;
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly enabled: boolean;
  readonly roles: readonly string[];
}

@injectable()
export class CreateUser {
  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async execute(input: { username: string; password: string; encrypted: boolean; nickname?: string | undefined; roles: readonly string[] }): Promise<UserView> {
    const password = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;
    if (password === null) {
      throw new DomainError('validation-failed', 'The password could not be decrypted.', { errors: [{ pointer: '/password', detail: 'must be encrypted with the public key from /auth/getConfig' }] });
    }
    const problem = passwordProblem(password);
    if (problem !== null) throw new DomainError('validation-failed', 'The request body is not valid.', { errors: [{ pointer: '/password', detail: problem }] });
    // Checked before the expensive hash; create() checks again atomically.
    if ((await this.directory.findByUsername(input.username)) !== null) throw new DomainError('username-taken', `The username "${input.username}" is already taken.`);
    const passwordHash = await this.hasher.hash(password, this.settings.bcryptCost);
    const result = await this.directory.create({ username: input.username, passwordHash, nickname: input.nickname ?? input.username, roles: input.roles });
    if (!result.ok) {
      if (result.reason === 'username-taken') throw new DomainError('username-taken', `The username "${input.username}" is already taken.`);
      throw new DomainError('validation-failed', 'The request body is not valid.', { errors: [{ pointer: '/roles', detail: result.detail }] });
    }
    const u = result.user;
    return { userId: u.id, username: u.username, nickname: u.nickname, avatar: u.avatar, enabled: u.enabled, roles: u.roles };
  }
}

@injectable()
export class ListUsers {
  constructor(@inject(TOKENS.UserDirectory) private readonly directory: UserDirectory) {}

  async execute(input: { page: number; pageSize: number }): Promise<{ total: number; page: number; pageSize: number; list: UserView[] }> {
    const { total, users } = await this.directory.list((input.page - 1) * input.pageSize, input.pageSize);
    return {
      total,
      page: input.page,
      pageSize: input.pageSize,
      list: users.map((u) => ({ userId: u.id, username: u.username, nickname: u.nickname, avatar: u.avatar, enabled: u.enabled, roles: u.roles })),
    };
  }
}
