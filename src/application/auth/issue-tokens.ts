/** Issues a session plus the first (or next) refresh token of a family. */
import { inject, injectable } from 'inversify';
import { deviceTypeFromUserAgent, deviceTypeOf } from '../../domain/device-type';
import type { AuthMethod, ClientInfo, Principal, RequiredAction } from '../../domain/session';
import type { UserAgentParser } from '../ports/user-agent-parser';
import { RefreshTokenRegistry } from '../session/refresh-token-registry';
import { inChunks } from '../session/in-chunks';
import { SessionManagers } from '../session/session-manager';
import { formatDateTime } from '../shared/date-time';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

export interface TokenPair {
  readonly accessToken: string;
  /**
   * Absent for a login without remember-me (session.no-remember-timeout), and for one a concurrent
   * login ended before its session was written (its token answers as that login left it).
   */
  readonly refreshToken?: string;
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
  /** False: a session of session.no-remember-timeout and no refresh token. Absent: true (a refresh always is). */
  readonly rememberMe?: boolean;
}

@injectable()
export class IssueTokens {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['already-logged-in', 'store-unavailable'];

  constructor(
    @inject(SessionManagers) private readonly managers: SessionManagers,
    @inject(RefreshTokenRegistry) private readonly registry: RefreshTokenRegistry,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.UserAgentParser) private readonly userAgents: UserAgentParser,
  ) {}

  async execute(input: IssueTokensInput): Promise<TokenPair> {
    const manager = this.managers.get(input.loginType);
    const p = manager.policy;
    const userId = input.principal.userId;
    const client = this.withDevice(input.client);
    const deviceType = deviceTypeOf(client);
    if (input.family === undefined && !p.isConcurrent && p.replacedLoginExitMode === 'OLD_DEVICE') {
      // session.is-concurrent=false: this login replaces the user's other sessions of its range, so
      // every refresh family of that range born before it is refused too, even one whose replaced
      // session is long purged. A replacement's cut-off, not the account's: a login that re-reads
      // the account's afterwards (FinishLogin) does not take its own replacement for a change.
      await this.registry.revokeDeviceOfUser(input.loginType, userId, p.replacedRange === 'CURR_DEVICE_TYPE' ? deviceType : null);
    }
    const rememberMe = input.family !== undefined || input.rememberMe !== false;
    const family = input.family ?? this.registry.newFamily();
    // No access token outlives its family: the family's absolute lifetime bounds the whole login.
    const endOfFamily = this.registry.endOf(family);
    const session = await manager.login(input.principal, client, rememberMe ? { rtFamily: family } : {}, endOfFamily, {
      requiredActions: input.requiredActions ?? [],
      amr: input.amr ?? ['pwd'],
      ...(input.authTime !== undefined ? { authTime: input.authTime } : {}),
      rememberMe,
      continuation: input.family !== undefined,
    });
    // The families of the sessions this login ended are revoked (a refresh token must not bring
    // one back), in parallel with the new refresh token. The session first, then the refresh token
    // (one atomic write of its family records): a crash in between leaves only a session whose
    // token nobody received, which ends with its TTL.
    const endedFamilies = session.ended.flatMap((e) => (e.record?.attrs.rtFamily !== undefined ? [e.record.attrs.rtFamily] : []));
    const issue = rememberMe && !session.endedBeforeWritten;
    const [refreshToken] = await Promise.all([
      issue ? this.registry.issue(input.loginType, userId, family, session.tokenHash, deviceType) : undefined,
      // Thousands of them (a replacing login of an account with 10,000 sessions): in bounded chunks.
      inChunks(endedFamilies, (chunk) => this.registry.markRevoked(input.loginType, chunk), 1000),
    ]);
    const expiresAt = session.record.expiresAt;
    return {
      accessToken: session.token,
      ...(refreshToken !== undefined ? { refreshToken } : {}),
      expires: expiresAt === null ? null : formatDateTime(expiresAt, this.settings.timeZone),
    };
  }

  /**
   * The client with its User-Agent read once, here, so that no listing parses it again (the online
   * list shows the names), and its device type: the login's own (its body's, or its refreshed
   * login's), else the one its User-Agent gives (device-type.ts).
   */
  private withDevice(client: ClientInfo): ClientInfo {
    if (client.userAgent === undefined || client.userAgent === '') return { ...client, deviceType: deviceTypeOf(client) };
    const { os, browser, deviceType: platform } = this.userAgents.parse(client.userAgent);
    return { ...client, os, browser, deviceType: client.deviceType ?? deviceTypeFromUserAgent(client.userAgent, platform) };
  }
}
