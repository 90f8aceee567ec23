/**
 * The success payloads of the authentication, profile, session and user-administration routes:
 * named zod schemas that the API description places under `components.schemas`, each with a
 * description and an example (test/unit/openapi-examples.test.ts validates every example).
 * The admin envelope's `data` is one of these; the web app answers with the schema itself.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

/** `yyyy/MM/dd HH:mm:ss` in svc.time-zone (the seed specification's date format, RuoYi's); inline, since a referenced schema loses
 * `nullable`. */
export const DateTime = z
  .string()
  .regex(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/)
  .openapi({ description: 'A time as yyyy/MM/dd HH:mm:ss in the configured time zone (svc.time-zone)', example: '2025/01/31 14:05:09' });

const TOKEN_ID = z.string().openapi({
  description: 'Short, non-secret session identifier (the first 32 hex digits of the token hash; 16 for a session of an earlier release)',
  example: '3f9a1c0d5e7b2a48c61e07d94b35f2a0',
});
const ROLES = z.array(z.string()).openapi({ description: 'Role keys', example: ['admin'] });
const PERMISSIONS = z
  .array(z.string())
  .openapi({ description: 'Permission strings, `*` wildcards allowed', example: ['system:user:*', 'monitor:online:list'] });
const EXPIRES = DateTime.nullable().openapi({
  description: 'When the access token expires; null when tokens never expire (session.timeout -1)',
});

const ACCESS_TOKEN_EXAMPLE = 'f3c1e2d4b5a6978812345678abcdef00';
const REFRESH_TOKEN_EXAMPLE = '1764037360000.mQ4xV8b2Tz0cKf7HnR1wYg.0.kZ3v9QeT1xWcR7mYbN2pLs0dHfJ6aG4u';

export const LoginConfig = z
  .object({
    captchaEnabled: z.boolean(),
    captchaType: z.enum(['math', 'text']),
    publicKey: z.string().openapi({ description: 'RSA public key, PEM (SPKI), that the login password is encrypted with' }),
    rsaPadding: z.enum(['oaep-sha256', 'pkcs1']).openapi({ description: 'RSA padding the password must be encrypted with' }),
  })
  .openapi('LoginConfig', {
    description: 'What a login page needs before it can log in: the captcha settings and the RSA public key',
    example: {
      captchaEnabled: true,
      captchaType: 'math',
      publicKey: '-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA...\n-----END PUBLIC KEY-----\n',
      rsaPadding: 'oaep-sha256',
    },
  });

export const CaptchaImage = z
  .union([
    z.object({ captchaEnabled: z.literal(false) }).strict(),
    z.object({
      captchaEnabled: z.literal(true),
      uuid: z.string().uuid().openapi({ description: 'Send it back with the answer (login `uuid`)' }),
      img: z
        .string()
        .regex(/^data:image\/svg\+xml;base64,/)
        .openapi({ description: 'The captcha image as a data: URL' }),
    }),
  ])
  .openapi('CaptchaImage', {
    description: 'A new captcha (single use), or captchaEnabled false when captchas are off',
    example: { captchaEnabled: true, uuid: '5b1f0c0e-8a55-4f2e-9a57-2f7b8c9d0e1f', img: 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=' },
  });

export const TokenPair = z
  .object({
    accessToken: z.string().openapi({ description: 'Send as `Authorization: Bearer <accessToken>`' }),
    refreshToken: z
      .string()
      .optional()
      .openapi({
        description:
          'Single use: POST /auth/refresh-token exchanges it for a new pair. Absent after a login with `rememberMe: false` ' +
          '(the session ends with session.no-remember-timeout) or one a concurrent login ended before it was written',
      }),
    expires: EXPIRES,
  })
  .openapi('TokenPair', {
    description: 'An access token and its refresh token (none for a login without remember-me)',
    example: { accessToken: ACCESS_TOKEN_EXAMPLE, refreshToken: REFRESH_TOKEN_EXAMPLE, expires: '2025/01/31 16:05:09' },
  });

export const LoginResult = z
  .object({
    accessToken: z.string(),
    refreshToken: z
      .string()
      .optional()
      .openapi({ description: 'Absent after a login with `rememberMe: false`: the session ends with session.no-remember-timeout' }),
    expires: EXPIRES,
    username: z.string(),
    nickname: z.string(),
    avatar: z.string().openapi({ description: 'Avatar URL; empty when none' }),
    roles: ROLES,
    permissions: PERMISSIONS,
    passwordChangeRequired: z.boolean().openapi({
      description:
        'true after an administrator reset the password: the session is restricted (every route but the password change, ' +
        '`GET /auth/me` and logout answers 403 password-change-required) until the password is changed',
    }),
    requiredActions: z.array(z.enum(['update-password', 'mfa-enrolment'])).openapi({
      description:
        'what the session must do before it is a full one (empty: nothing): `update-password` (after a reset), ' +
        '`mfa-enrolment` (a role requires a second factor); until then other routes answer 403 with the reason',
    }),
  })
  .openapi('LoginResult', {
    description: 'A successful admin login: the token pair and the user with their roles and permissions',
    example: {
      accessToken: ACCESS_TOKEN_EXAMPLE,
      refreshToken: REFRESH_TOKEN_EXAMPLE,
      expires: '2025/01/31 16:05:09',
      username: 'admin',
      nickname: 'Administrator',
      avatar: '',
      roles: ['admin'],
      permissions: ['*:*:*'],
      passwordChangeRequired: false,
      requiredActions: [],
    },
  });

export const LogoutResult = z.object({ loggedOut: z.literal(true), userId: z.string() }).openapi('LogoutResult', {
  description: 'The token is logged out and its refresh token revoked',
  example: { loggedOut: true, userId: '1' },
});

export const CurrentUser = z
  .object({ userId: z.string(), username: z.string(), nickname: z.string(), roles: ROLES, permissions: PERMISSIONS })
  .openapi('CurrentUser', {
    description: 'The logged-in admin user, from the session snapshot',
    example: { userId: '1', username: 'admin', nickname: 'Administrator', roles: ['admin'], permissions: ['*:*:*'] },
  });

export const MemberProfile = z.object({ userId: z.string(), username: z.string(), nickname: z.string() }).openapi('MemberProfile', {
  description: "The logged-in member's profile",
  example: { userId: '42', username: 'alice', nickname: 'Alice' },
});

export const RegisteredMember = z
  .object({
    userId: z.string(),
    username: z.string(),
    email: z.string().nullable().openapi({ description: 'The address given, as given; null when none was' }),
    emailVerified: z.boolean().openapi({ description: 'Always false here: a code was mailed to the address (POST /auth/verify-email)' }),
  })
  .openapi('RegisteredMember', {
    description: 'The member account just created',
    example: { userId: '42', username: 'alice', email: 'alice@example.org', emailVerified: false },
  });

export const EmailVerified = z
  .object({ email: z.string(), verified: z.literal(true) })
  .openapi('EmailVerified', { description: "The member's address is verified", example: { email: 'alice@example.org', verified: true } });

export const MailRequestAccepted = z
  .object({
    accepted: z.literal(true),
    detail: z.string().openapi({ description: 'What happens next; the same text whether or not the address is known' }),
  })
  .openapi('MailRequestAccepted', {
    description: 'The request is taken; a message follows only when the address belongs to an account it applies to',
    example: { accepted: true, detail: 'If an account has this address, a message with a reset link is on its way.' },
  });

export const PasswordResetDone = z
  .object({
    passwordReset: z.literal(true),
    sessionsEnded: z.number().int().min(0).openapi({ description: 'How many sessions of the member were ended' }),
  })
  .openapi('PasswordResetDone', {
    description: 'The new password is set; every session of the member ended and every refresh token and device cookie revoked',
    example: { passwordReset: true, sessionsEnded: 2 },
  });

const SESSION_FIELDS = {
  tokenId: TOKEN_ID,
  loginTime: DateTime,
  lastActiveTime: DateTime,
  expires: EXPIRES,
  ipaddr: z.string().openapi({ description: 'Client IP at login' }),
  userAgent: z.string().openapi({ description: 'User-Agent at login (first 256 characters)' }),
  deviceType: z.string().openapi({
    description:
      "The login's device type (Sa-Token's deviceType): its body's, else from the User-Agent (PC, H5, APP; DEF without one, " +
      'and for sessions older than device types)',
  }),
};

export const ONLINE_SESSION_EXAMPLE = {
  tokenId: '3f9a1c0d5e7b2a48',
  userId: '1',
  username: 'admin',
  loginType: 'admin' as const,
  loginTime: '2025/01/31 14:05:09',
  lastActiveTime: '2025/01/31 14:20:00',
  expires: '2025/01/31 16:05:09',
  ipaddr: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  os: 'macOS Sonoma',
  browser: 'Safari 17',
  deviceType: 'PC',
};

const ONLINE_FIELDS = {
  ...SESSION_FIELDS,
  userId: z.string(),
  username: z.string(),
  loginType: z.enum(['admin', 'web']).openapi({ description: "The session's login type (the admin app lists admin sessions)" }),
  os: z.string().openapi({ description: 'OS from the User-Agent, read once at login; `unknown` when not known' }),
  browser: z.string().openapi({ description: 'Browser and major version, read once at login; `unknown` when not known' }),
};

export const OnlineSession = z.object(ONLINE_FIELDS).openapi('OnlineSession', {
  description: 'A live admin session',
  example: ONLINE_SESSION_EXAMPLE,
});

export const OnlineSessionPage = z
  .object({
    list: z.array(OnlineSession),
    total: z.number().int().min(0).openapi({ description: 'Sessions matching (see totalExact)' }),
    totalExact: z.boolean().openapi({
      description:
        'Whether total is exact: always with a username filter; with an ip filter when its scan reached the end of the index; ' +
        'unfiltered while the index holds at most 1,000 entries (past that, total is the index size: sessions expired ' +
        'since a listing last met them count until pruned)',
    }),
    page: z.number().int().min(1),
    size: z.number().int().min(1),
  })
  .openapi('OnlineSessionPage', {
    description: 'One page of the live sessions, oldest first',
    example: { list: [ONLINE_SESSION_EXAMPLE], total: 1, totalExact: true, page: 1, size: 20 },
  });

export const OwnSession = z
  .object({ ...ONLINE_FIELDS, current: z.boolean().openapi({ description: "Whether this is the caller's own session" }) })
  .openapi('OwnSession', {
    description: 'One of your live admin sessions',
    example: { ...ONLINE_SESSION_EXAMPLE, current: true },
  });

/** A member's session as the web app lists it (GET /user/sessions), for the schemas' examples. */
export const MEMBER_SESSION_EXAMPLE = {
  tokenId: '3f9a1c0d5e7b2a48',
  loginTime: '2025/01/31 14:05:09',
  lastActiveTime: '2025/01/31 14:20:00',
  expires: null,
  ipaddr: '203.0.113.7',
  userAgent: 'Mozilla/5.0',
  deviceType: 'PC',
  current: true,
};

export const MemberSession = z
  .object({ ...SESSION_FIELDS, current: z.boolean().openapi({ description: "Whether this is the caller's own session" }) })
  .openapi('MemberSession', {
    description: 'One of the member\'s live sessions ("devices")',
    example: MEMBER_SESSION_EXAMPLE,
  });

export const KickedOutSession = z.object({ tokenId: TOKEN_ID, kickedOut: z.literal(true) }).openapi('KickedOutSession', {
  description: 'The session is ended; its token answers 401 token-kicked-out',
  example: { tokenId: '3f9a1c0d5e7b2a48', kickedOut: true },
});

export const LogoutAllResult = z
  .object({ endedSessions: z.number().int().min(0).openapi({ description: 'How many sessions were live' }) })
  .openapi('LogoutAllResult', {
    description: 'Every session of the member ended and their refresh tokens revoked',
    example: { endedSessions: 2 },
  });

export const User = z
  .object({ userId: z.string(), username: z.string(), nickname: z.string(), avatar: z.string(), enabled: z.boolean(), roles: ROLES })
  .openapi('User', {
    description: 'An account as the user administration shows it (never the password hash)',
    example: { userId: '7', username: 'ops.lee', nickname: 'Lee', avatar: '', enabled: true, roles: ['ops'] },
  });

export const UserPage = z
  .object({ total: z.number().int().min(0), page: z.number().int().min(1), pageSize: z.number().int().min(1), list: z.array(User) })
  .openapi('UserPage', {
    description: 'One page of accounts (Page<User>)',
    example: {
      total: 1,
      page: 1,
      pageSize: 20,
      list: [{ userId: '7', username: 'ops.lee', nickname: 'Lee', avatar: '', enabled: true, roles: ['ops'] }],
    },
  });

export const UserAccess = z
  .object({
    userId: z.string(),
    username: z.string(),
    enabled: z.boolean(),
    roles: ROLES,
    permissions: PERMISSIONS,
    sessionsUpdated: z.number().int().min(0).openapi({ description: 'Live sessions whose permissions were replaced' }),
  })
  .openapi('UserAccess', {
    description: "The user's new roles and permissions, already in force in their live sessions",
    example: { userId: '7', username: 'ops.lee', enabled: true, roles: ['ops'], permissions: ['monitor:online:list'], sessionsUpdated: 1 },
  });

export const DisabledUser = z
  .object({
    userId: z.string(),
    username: z.string(),
    enabled: z.literal(false),
    disabledReason: z.string().nullable(),
    disabledUntil: z.string().datetime({ offset: true }).nullable().openapi({ description: 'End of the ban (ISO-8601, UTC); null: none' }),
    sessionsEnded: z.number().int().min(0),
  })
  .openapi('DisabledUser', {
    description: 'The account is disabled (until `disabledUntil`, if set) and its live sessions ended',
    example: { userId: '7', username: 'ops.lee', enabled: false, disabledReason: 'on leave', disabledUntil: null, sessionsEnded: 1 },
  });

export const IdempotencyToken = z
  .object({
    token: z
      .string()
      .regex(/^[A-Za-z0-9_-]{22}\.[1-9][0-9]{0,15}\.(a|s[A-Za-z0-9_-]{22})\.[A-Za-z0-9_-]{43}$/)
      .openapi({ description: 'Opaque (a signed nonce with its expiry and binding); send it once, as X-Idempotent-Token' }),
    expiresIn: z.number().int().min(1).openapi({ description: 'Seconds until it expires' }),
  })
  .openapi('IdempotencyToken', {
    description: 'A one-time duplicate-submission token',
    example: { token: 'U2emQjzTE4Xh1MxxVidbTw.1767225600000.a.nJYfFDYwF3QHhHSMhX8ckS9vGwy-vTfG_jpsvl62Ysg', expiresIn: 600 },
  });
