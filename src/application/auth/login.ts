/**
 * Login, refresh and logout for either login type. The admin app passes an RSA-encrypted
 * password and requires the captcha; the web app (Step 3) passes a plain password.
 *
 * Login order: (rate limit at the edge) -> (body validation at the edge) -> captcha -> decrypt
 * -> account lock -> look up -> BCrypt compare (a dummy hash for unknown users) -> enabled ->
 * session -> refresh token. Unknown user, wrong password, undecryptable password and disabled
 * account are one failure: same status, code, message and the same BCrypt work.
 */
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { ClientInfo, Principal } from '../../domain/session';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import type { PasswordHasher } from '../ports/password-hasher';
import type { RsaDecryptor } from '../ports/rsa-decryptor';
import type { DirectoryUser, UserDirectory } from '../ports/user-directory';
import { hashToken, type SessionManager, type SessionManagers } from '../session/session-manager';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import { VerifyCaptcha } from './captcha';
import { formatDateTime, utf8Length } from './format';
import { RefreshTokenRegistry } from './refresh-tokens';
import { BCRYPT_MAX_BYTES, isBcryptHash } from '../../domain/password';

export const BAD_CREDENTIALS_MESSAGE = 'Wrong username or password.';

export interface LoginInput {
  readonly loginType: string;
  readonly username: string;
  /** The password: RSA ciphertext (base64) when `encrypted`, else plain text. */
  readonly password: string;
  readonly encrypted: boolean;
  readonly requireCaptcha: boolean;
  readonly captcha?: { readonly uuid?: string | undefined; readonly code?: string | undefined };
  readonly client: ClientInfo;
}

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** `yyyy/MM/dd HH:mm:ss` in svc.time-zone; null when tokens never expire (session.timeout -1). */
  readonly expires: string | null;
}

export interface LoginOutput extends TokenPair {
  readonly username: string;
  readonly nickname: string;
  readonly avatar: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
}

export function principalOf(user: DirectoryUser): Principal {
  return { userId: user.id, username: user.username, nickname: user.nickname, avatar: user.avatar, roles: [...user.roles], permissions: [...user.permissions] };
}

const badCredentials = (): DomainError => new DomainError('bad-credentials', BAD_CREDENTIALS_MESSAGE);

/** Issues a session plus the first (or next) refresh token of a family. */
@injectable()
export class IssueTokens {
  readonly registry: RefreshTokenRegistry;
  constructor(
    @inject(TOKENS.SessionManagers) private readonly managers: SessionManagers,
    @inject(TOKENS.KeyValueStore) kv: KeyValueStore,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.Clock) clock: Clock,
  ) {
    this.registry = new RefreshTokenRegistry(kv, settings.refreshTokenTtlSeconds, clock);
  }

  manager(loginType: string): SessionManager {
    return this.managers.get(loginType);
  }

  async execute(input: { loginType: string; principal: Principal; client: ClientInfo; family?: string }): Promise<TokenPair & { family: string; tokenHash: string }> {
    const manager = this.managers.get(input.loginType);
    if (input.family === undefined && !manager.policy.isConcurrent) {
      // session.is-concurrent=false: this login replaces every other session of the user, so every
      // refresh family born before it is refused too — even one whose replaced session is long purged.
      await this.registry.revokeAllOfUser(input.loginType, input.principal.userId);
    }
    const family = input.family ?? this.registry.newFamily();
    const session = await manager.login(input.principal, input.client, { rtFamily: family });
    const tokenHash = hashToken(session.token);
    const refreshToken = await this.registry.issue(input.loginType, input.principal.userId, family, tokenHash);
    const expiresAt = session.record.expiresAt;
    return {
      accessToken: session.token,
      refreshToken,
      expires: expiresAt === null ? null : formatDateTime(expiresAt, this.settings.timeZone),
      family,
      tokenHash,
    };
  }
}

@injectable()
export class Login {
  private dummyHash: Promise<string> | undefined;

  constructor(
    @inject(TOKENS.UserDirectory) private readonly directory: UserDirectory,
    @inject(TOKENS.PasswordHasher) private readonly hasher: PasswordHasher,
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(VerifyCaptcha) private readonly captcha: VerifyCaptcha,
    @inject(IssueTokens) private readonly issue: IssueTokens,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {}

  /** A hash of a random password at the configured cost: unknown users cost one real compare too. */
  private dummy(): Promise<string> {
    this.dummyHash ??= this.hasher.hash(`dummy-${this.clock.now()}-${Math.random()}`, this.settings.bcryptCost);
    return this.dummyHash;
  }

  /** Counts every attempt by outcome: "success", the failure's domain reason, or "error" (store down, bug). */
  async execute(input: LoginInput): Promise<LoginOutput> {
    try {
      const out = await this.attempt(input);
      this.metrics.loginAttempt(input.loginType, 'success');
      return out;
    } catch (e) {
      this.metrics.loginAttempt(input.loginType, e instanceof DomainError ? e.reason : 'error');
      throw e;
    }
  }

  private async attempt(input: LoginInput): Promise<LoginOutput> {
    if (input.requireCaptcha && this.settings.captcha.enabled) {
      await this.captcha.execute({ scope: input.loginType, uuid: input.captcha?.uuid, code: input.captcha?.code });
    }
    const password = input.encrypted ? await this.rsa.decrypt(input.password) : input.password;

    const lockKey = `loginfail:${input.loginType}:${input.username.toLowerCase()}`;
    await this.checkLock(lockKey);
    // The attempt is counted before the (slow) compare, so a burst of parallel guesses cannot all
    // pass the lock check while their compares are still queued.
    const attempt = await this.reserveAttempt(lockKey);

    const user = await this.directory.findByUsername(input.username);
    const usable = password !== null && password !== '' && utf8Length(password) <= BCRYPT_MAX_BYTES;
    // A stored hash that is not BCrypt (a broken row) would fail instantly: compare against the
    // dummy instead, so it costs the same time as any other failure.
    const storedHash = user !== null && isBcryptHash(user.passwordHash) ? user.passwordHash : null;
    const matches = await this.hasher.verify(usable ? password : 'x', storedHash ?? (await this.dummy()));
    if (user === null || storedHash === null || !usable || !matches || !user.enabled) {
      await this.recordFailure(lockKey, attempt);
      throw badCredentials();
    }
    if (this.settings.maxLoginFailures > 0) {
      await this.kv.delete(`${lockKey}:n`);
      await this.kv.delete(lockKey);
    }

    const tokens = await this.issue.execute({ loginType: input.loginType, principal: principalOf(user), client: input.client });
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expires: tokens.expires,
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar,
      roles: [...user.roles],
      permissions: [...user.permissions],
    };
  }

  /**
   * Per-account failure cap (beyond the spec, ASVS 6.3.1): after `maxLoginFailures` consecutive
   * failures inside the lock window the username answers 429 until the window ends. Unknown
   * usernames are counted exactly like real ones, so the lock reveals nothing about existence.
   */
  private async checkLock(key: string): Promise<void> {
    const max = this.settings.maxLoginFailures;
    if (max <= 0) return;
    const raw = await this.kv.get(key);
    if (raw === null) return;
    const state = JSON.parse(raw) as { n: number; until: number };
    const left = state.until - this.clock.now();
    if (state.n >= max && left > 0) {
      throw new DomainError('account-locked', 'Too many failed logins for this account; try again later.', { retryAfterSeconds: Math.ceil(left / 1000) });
    }
  }

  /**
   * Counts this attempt as a failure until it proves otherwise (increment() is atomic; its TTL
   * starts at the first attempt and is not extended). Attempts beyond the cap are refused before
   * any compare: 429 for as long as the count lives.
   */
  private async reserveAttempt(key: string, retried = false): Promise<{ count: number; ttlMs: number } | null> {
    const max = this.settings.maxLoginFailures;
    if (max <= 0) return null;
    const reserved = await this.kv.increment(`${key}:n`, this.settings.lockSeconds * 1000);
    if (reserved.count <= max) return reserved;
    // Over the cap: either a burst whose compares are still running (no lock recorded yet), or a
    // lock whose window has ended by the clock while the counter lingers in the store.
    const raw = await this.kv.get(key);
    const state = raw === null ? null : (JSON.parse(raw) as { n: number; until: number });
    if (state !== null && state.until <= this.clock.now() && !retried) {
      await this.kv.delete(`${key}:n`);
      await this.kv.delete(key);
      return this.reserveAttempt(key, true);
    }
    const leftMs = state !== null ? state.until - this.clock.now() : reserved.ttlMs;
    throw new DomainError('account-locked', 'Too many failed logins for this account; try again later.', { retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) });
  }

  private async recordFailure(key: string, attempt: { count: number; ttlMs: number } | null): Promise<void> {
    const max = this.settings.maxLoginFailures;
    if (max <= 0 || attempt === null) return;
    const lockMs = this.settings.lockSeconds * 1000;
    const { count, ttlMs } = attempt;
    if (count >= max) {
      // Locked for a full lock period from the failure that reached the cap.
      await this.kv.set(key, JSON.stringify({ n: count, until: this.clock.now() + lockMs }), lockMs);
    } else {
      await this.kv.set(key, JSON.stringify({ n: count, until: this.clock.now() + ttlMs }), Math.max(1, ttlMs));
    }
  }
}
