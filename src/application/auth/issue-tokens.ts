/** Issues a session plus the first (or next) refresh token of a family. */
import { inject, injectable } from 'inversify';
import type { AuthMethod, ClientInfo, Principal, RequiredAction } from '../../domain/session';
import type { UserAgentParser } from '../ports/user-agent-parser';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { SessionManagers } from '../session/session-manager';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
  /** `yyyy/MM/dd HH:mm:ss` in svc.time-zone; null when tokens never expire (session.timeout -1). */
  readonly expires: string | null;
}

export interface IssueTokensInput {
  readonly loginType: LoginType;
  readonly principal: Principal;
  readonly client: ClientInfo;
  /** The family to continue (a refresh); absent for a new login. */
  readonly family?: string;
  /** Pending required actions: the session is restricted until they are done. */
  readonly requiredActions?: readonly RequiredAction[];
  /** How the user proved who they are (RFC 8176); recorded with the time as the session's authTime. Absent on a refresh: kept. */
  readonly amr?: readonly AuthMethod[];
  /** A refresh carries the authentication time of the login it continues. */
  readonly authTime?: number;
}

@injectable()
export class IssueTokens {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.UserAgentParser) private readonly userAgents: UserAgentParser,
  ) {}

  async execute(input: IssueTokensInput): Promise<TokenPair> {
    const manager = this.managers.get(input.loginType);
    if (input.family === undefined && !manager.policy.isConcurrent) {
      // session.is-concurrent=false: this login replaces every other session of the user, so every
      // refresh family born before it is refused too, even one whose replaced session is long purged.
      await this.registry.revokeAllOfUser(input.loginType, input.principal.userId);
    }
    const family = input.family ?? this.registry.newFamily();
    // No access token outlives its family: the family's absolute lifetime bounds the whole login.
    const endOfFamily = this.registry.endOf(family);
    const session = await manager.login(input.principal, this.withDevice(input.client), { rtFamily: family }, endOfFamily, {
      requiredActions: input.requiredActions ?? [],
      amr: input.amr ?? ['pwd'],
      ...(input.authTime !== undefined ? { authTime: input.authTime } : {}),
    });
    // The session first, then the refresh token (one atomic write of its family records): a crash
    // in between leaves only a session whose token nobody received, which ends with its TTL.
    const refreshToken = await this.registry.issue(input.loginType, input.principal.userId, family, session.tokenHash);
    const expiresAt = session.record.expiresAt;
    return {
      accessToken: session.token,
      refreshToken,
      expires: expiresAt === null ? null : formatDateTime(expiresAt, this.settings.timeZone),
    };
  }

  /** The client with its User-Agent read once, here, so that no listing parses it again (the online list shows the names). */
  private withDevice(client: ClientInfo): ClientInfo {
    if (client.userAgent === undefined || client.userAgent === '') return client;
    const { os, browser, deviceType } = this.userAgents.parse(client.userAgent);
    return { ...client, os, browser, deviceType };
  }
}
