/**
 * Authentication routes of a login type. The admin app: RSA-encrypted password, captcha,
 * `{code, message, data}` envelope. The web app: plain JSON passwords (TLS protects them),
 * registration, problem details. Each route lists its guards beside it, in the order they run.
 */
import { z } from 'zod';
import { CreateCaptcha } from '../../../application/auth/create-captcha';
import type { IssuedDeviceCookie } from '../../../application/auth/device-cookies';
import { GetLoginConfig } from '../../../application/auth/get-login-config';
import { isMfaPending, Login, type LoginInput, type LoginOutput, type MfaPending } from '../../../application/auth/login';
import { Logout } from '../../../application/auth/logout';
import { RefreshToken } from '../../../application/auth/refresh-token';
import { USERNAME_PATTERN } from '../../../domain/password';
import { RegisterMember } from '../../../application/users/register-member';
import type { ClientInfo } from '../../../domain/session';
import { currentUser } from '../guards';
import { EMAIL } from './account-routes';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { CaptchaImage, LoginConfig, LogoutResult, RegisteredMember, TokenPair } from '../schemas/account-schemas';
import { LOGIN_CHOICES, LoginAnswer, WebLoginAnswer } from '../schemas/login-schemas';
import type { AppContext } from '../state';
import type { LoginType } from '../../../domain/login-type';

/** The client of a request; a login's `deviceType` from its body (without one, IssueTokens derives it from the User-Agent). */
export function clientOf(ctx: AppContext, deviceType?: string): ClientInfo {
  return { ip: ctx.state.clientIp, userAgent: ctx.get('User-Agent').slice(0, 256), ...(deviceType !== undefined ? { deviceType } : {}) };
}

/** What the web app answers for a finished login: the token pair (no refreshToken without remember-me). */
export function tokenPairOf(out: { accessToken: string; refreshToken?: string | undefined; expires: string | null }): TokenPairBody {
  return {
    accessToken: out.accessToken,
    ...(out.refreshToken !== undefined ? { refreshToken: out.refreshToken } : {}),
    expires: out.expires,
  };
}

interface TokenPairBody {
  readonly accessToken: string;
  readonly refreshToken?: string;
  readonly expires: string | null;
}

/** The device cookie of a login type: one per type, since both apps may share a host and cookies ignore ports. */
export const deviceCookieName = (loginType: LoginType): string => `ag_device_${loginType}`;

/**
 * The browser sends the device cookie under `svc.login.device-cookie-path` only (default `/`, so a
 * deployment behind a path prefix still gets it back), never to a script, never cross-site.
 */
export function deviceCookieHeader(loginType: LoginType, cookie: IssuedDeviceCookie): string {
  const attributes = [
    `Max-Age=${cookie.maxAgeSeconds}`,
    `Path=${cookie.path}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(cookie.secure ? ['Secure'] : []),
  ];
  return [`${deviceCookieName(loginType)}=${cookie.value}`, ...attributes].join('; ');
}

/**
 * Every value the request's Cookie header(s) carry under `name`, in order (RFC 6265 lets a client
 * send several: one per Path, or one planted by a sibling domain). Koa's `cookies.get` reads only
 * the first, which a planted junk cookie would then hide.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined || header === '') return [];
  const out: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const value = pair.slice(eq + 1).trim();
    out.push(value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);
  }
  return out;
}

/** The device cookie values the request carries for a login type. */
export const deviceCookiesOf = (ctx: AppContext, loginType: LoginType): string[] =>
  cookieValues(ctx.get('Cookie') || undefined, deviceCookieName(loginType));

/** Hands a finished login's device cookie to the client (Set-Cookie); the response body never carries it. */
export function withDeviceCookie(ctx: AppContext, loginType: LoginType, login: LoginOutput): Omit<LoginOutput, 'deviceCookie'> {
  const { deviceCookie, ...out } = login;
  ctx.append('Set-Cookie', deviceCookieHeader(loginType, deviceCookie));
  return out;
}

/**
 * Logs in with the client's device cookies. A finished login hands it a new one; a login waiting for
 * its second factor answers the challenge (no session, no cookie yet).
 */
async function loginWithDeviceCookie(
  ctx: AppContext,
  login: Login,
  input: Omit<LoginInput, 'deviceCookies'>,
): Promise<Omit<LoginOutput, 'deviceCookie' | 'userId'> | MfaPending> {
  const out = await login.execute({ ...input, deviceCookies: deviceCookiesOf(ctx, input.loginType) });
  if (isMfaPending(out)) return out;
  const { userId, ...rest } = withDeviceCookie(ctx, input.loginType, out);
  ctx.state.subject = { userId };
  return rest;
}

/** A login's security event: about the username it was for, also when it failed. */
const LOGIN_AUDIT = { type: 'login', subject: (b: { username: string }) => ({ username: b.username }) } as const;

/** The spec's login limit: key "login", 5 per 60 s per client IP. */
export const LOGIN_RATE_LIMIT = { key: 'login', windowSeconds: 60, limit: 5, limitType: 'IP' } as const;

const adminLoginBody = z
  .object({
    username: z.string().min(1).max(64),
    password: z.string().min(1).max(4096),
    code: z.string().max(32).optional(),
    uuid: z.string().max(64).optional(),
    ...LOGIN_CHOICES,
  })
  .strict();

/**
 * Web login: plain text. Over-long passwords are not a validation error: they fail like a wrong one.
 * `code` and `uuid`: a solved captcha, needed only after 428 captcha-required.
 */
const webLoginBody = z
  .object({
    username: z.string().min(1).max(64),
    password: z.string().min(1).max(1024),
    code: z.string().max(32).optional(),
    uuid: z.string().max(64).optional(),
    ...LOGIN_CHOICES,
  })
  .strict();

/** `purpose=unlock`: a captcha even where logins do not need one on their own (after 428 captcha-required). */
const captchaQuery = z.object({ purpose: z.enum(['login', 'unlock']).default('login') });

/**
 * Registration: a malformed field is `validation-failed` (every problem at once, each with its JSON
 * Pointer); the password's rules are the password policy's (`password-policy`, CheckPasswordPolicy).
 */
const registerBody = z
  .object({
    username: z.string().regex(USERNAME_PATTERN, 'must be 3-32 characters of A-Z a-z 0-9 _ . -'),
    password: z.string(),
    nickname: z.string().trim().min(1, 'must not be blank').max(64).optional(),
    email: EMAIL.optional(),
  })
  .strict();

export const refreshBody = z.object({ refreshToken: z.string().min(1).max(256) }).strict();

export function adminAuthRoutes(kit: RouteKit): RouteDef[] {
  const type = 'admin';
  const [config, captcha, login] = [kit.use(GetLoginConfig), kit.use(CreateCaptcha), kit.use(Login)];
  return [
    route({
      method: 'get',
      path: '/auth/getConfig',
      summary: 'Captcha settings and the RSA public key (PEM, SPKI) the login password is encrypted with',
      tags: ['auth'],
      response: LoginConfig,
      raises: GetLoginConfig.reasons,
      handler: async () => config.execute(),
    }),
    route({
      method: 'get',
      path: '/auth/captchaImage',
      summary:
        'A new captcha: {captchaEnabled, uuid, img (data:image/svg+xml;base64,...)}; ' +
        '?purpose=unlock gives one even when logins need none (after 428 captcha-required)',
      tags: ['auth'],
      guards: [kit.rateLimit({ key: 'captcha', windowSeconds: 60, limit: kit.settings.captchaPerMinute, limitType: 'IP' })],
      query: captchaQuery,
      response: CaptchaImage,
      raises: [...CreateCaptcha.reasons, 'validation-failed'],
      handler: async (_ctx, { query }) => captcha.execute({ scope: type, force: query.purpose === 'unlock' }),
    }),
    route({
      method: 'post',
      path: '/auth/login',
      summary: 'Log in with an RSA-encrypted password and the captcha answer; sets the device cookie ag_device_admin',
      tags: ['auth'],
      guards: [kit.rateLimit(LOGIN_RATE_LIMIT)],
      body: adminLoginBody,
      response: LoginAnswer,
      raises: Login.reasons,
      audit: LOGIN_AUDIT,
      handler: async (ctx, { body: b }) =>
        loginWithDeviceCookie(ctx, login, {
          loginType: type,
          username: b.username,
          password: b.password,
          encrypted: true,
          requireCaptcha: true,
          captcha: { code: b.code, uuid: b.uuid },
          client: clientOf(ctx, b.deviceType),
          rememberMe: b.rememberMe,
        }),
    }),
    ...sessionAuthRoutes(kit, type),
  ];
}

/** Refresh and logout: the same for both login types. */
export function sessionAuthRoutes(kit: RouteKit, type: LoginType): RouteDef[] {
  const [refresh, logout] = [kit.use(RefreshToken), kit.use(Logout)];
  return [
    route({
      method: 'post',
      path: '/auth/refresh-token',
      summary: 'Rotate a refresh token: a new access token and refresh token (single use; reuse revokes the login)',
      tags: ['auth'],
      body: refreshBody,
      response: TokenPair,
      raises: RefreshToken.reasons,
      audit: { type: 'refresh-rotated', failures: { 'refresh-token-reused': 'refresh-reused' } },
      handler: async (ctx, { body }) => refresh.execute({ loginType: type, refreshToken: body.refreshToken, client: clientOf(ctx) }),
    }),
    route({
      method: 'post',
      path: '/auth/logout',
      summary: 'Log out the current token and delete its refresh token (a restricted session may too)',
      tags: ['auth'],
      guards: [kit.guards.requireLogin(type, { allowRestricted: true })],
      response: LogoutResult,
      raises: Logout.reasons,
      audit: { type: 'logout' },
      handler: async (ctx) => {
        const auth = ctx.state.auth;
        if (!auth) throw new Error('logout without requireLogin');
        await logout.execute({ loginType: type, tokenHash: auth.tokenHash, family: auth.record.attrs.rtFamily });
        return { loggedOut: true, userId: currentUser(ctx).userId };
      },
    }),
  ];
}

export function webAuthRoutes(kit: RouteKit): RouteDef[] {
  const type = 'web';
  // The captcha is the one a client solves after 428 captcha-required (web logins need none otherwise).
  const [register, captcha, login] = [kit.use(RegisterMember), kit.use(CreateCaptcha), kit.use(Login)];
  return [
    route({
      method: 'post',
      path: '/auth/register',
      summary:
        'Create a member account: {username, password, nickname?, email?} -> 201 {userId, username, email, emailVerified}; ' +
        'with an e-mail address a verification code is mailed to it; a taken username or address -> 409',
      tags: ['auth'],
      guards: [kit.rateLimit({ key: 'register', windowSeconds: 3600, limit: kit.settings.registerPerHour, limitType: 'IP' })],
      body: registerBody,
      successStatus: 201,
      response: RegisteredMember,
      raises: RegisterMember.reasons,
      audit: { type: 'registered', subject: (b) => ({ username: b.username }) },
      handler: async (_ctx, { body: b }) =>
        register.execute({ loginType: type, username: b.username, password: b.password, nickname: b.nickname, email: b.email }),
    }),
    route({
      method: 'get',
      path: '/auth/captchaImage',
      summary:
        'A captcha {captchaEnabled: true, uuid, img}, to solve after a login answered 428 ' +
        'captcha-required (send uuid and code with the login)',
      tags: ['auth'],
      guards: [kit.rateLimit({ key: 'captcha', windowSeconds: 60, limit: kit.settings.captchaPerMinute, limitType: 'IP' })],
      response: CaptchaImage,
      raises: CreateCaptcha.reasons,
      handler: async () => captcha.execute({ scope: type, force: true }),
    }),
    route({
      method: 'post',
      path: '/auth/login',
      summary:
        'Log in with username and password (plain JSON over TLS) -> {accessToken, refreshToken, ' +
        'expires}; sets the device cookie ag_device_web; after 428 captcha-required also send the captcha uuid and code',
      tags: ['auth'],
      guards: [kit.rateLimit(LOGIN_RATE_LIMIT)],
      body: webLoginBody,
      response: WebLoginAnswer,
      raises: Login.reasons,
      audit: LOGIN_AUDIT,
      handler: async (ctx, { body: b }) => {
        const out = await loginWithDeviceCookie(ctx, login, {
          loginType: type,
          username: b.username,
          password: b.password,
          encrypted: false,
          requireCaptcha: false,
          captcha: { code: b.code, uuid: b.uuid },
          client: clientOf(ctx, b.deviceType),
          rememberMe: b.rememberMe,
        });
        if ('mfaRequired' in out) return out;
        return tokenPairOf(out);
      },
    }),
    ...sessionAuthRoutes(kit, type),
  ];
}
