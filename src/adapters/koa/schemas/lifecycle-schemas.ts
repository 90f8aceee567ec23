/**
 * The success payloads of the account-lifecycle routes (password change and reset, account state):
 * named zod schemas with a description and an example, like account-schemas.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

const ISO_TIME = z.string().datetime({ offset: true }).nullable();

export const PasswordChanged = z
  .object({
    passwordChanged: z.literal(true),
    sessionsEnded: z.number().int().openapi({ description: 'Other sessions of the account ended (revokeOtherSessions)' }),
    refreshToken: z
      .string()
      .nullable()
      .openapi({
        description:
          "This session's new refresh token when the others were ended (every earlier refresh token of the account, this " +
          "session's included, is refused from now on); null when revokeOtherSessions was false and the old one stays valid",
      }),
    accessToken: z
      .string()
      .nullable()
      .openapi({
        description:
          'A new access token for this client when its token was shared with other logins of the account (session.is-share) ' +
          'and ended with them; null otherwise (the access token in use stays valid)',
      }),
  })
  .openapi('PasswordChanged', {
    description: 'The password was changed; this session stays (and is no longer restricted)',
    example: {
      passwordChanged: true,
      sessionsEnded: 2,
      refreshToken: '1764037360000.mQ4xV8b2Tz0cKf7HnR1wYg.0.kZ3v9QeT1xWcR7mYbN2pLs0dHfJ6aG4u',
      accessToken: null,
    },
  });

export const UserDetails = z
  .object({
    userId: z.string(),
    username: z.string(),
    nickname: z.string(),
    avatar: z.string(),
    enabled: z.boolean().openapi({ description: "The account's flag (false while disabled, also during a timed ban)" }),
    active: z.boolean().openapi({ description: 'Whether a login is admitted now: enabled, or a timed ban that has ended' }),
    roles: z.array(z.string()),
    permissions: z.array(z.string()),
    disabledReason: z.string().nullable(),
    disabledUntil: ISO_TIME.openapi({ description: 'End of a timed ban (ISO-8601, UTC); null: none, or until enabled again' }),
    lockedUntil: ISO_TIME.openapi({ description: 'Failed logins lock the account until then (ISO-8601, UTC); null: not locked' }),
    mustChangePassword: z.boolean(),
    email: z.string().nullable(),
    emailVerified: z.boolean(),
    phone: z.string().nullable(),
  })
  .openapi('UserDetails', {
    description: 'One account and its state',
    example: {
      userId: '7',
      username: 'ops.lee',
      nickname: 'Lee',
      avatar: '',
      enabled: false,
      active: false,
      roles: ['ops'],
      permissions: ['monitor:online:list'],
      disabledReason: 'left the team',
      disabledUntil: '2026-12-01T00:00:00.000Z',
      lockedUntil: null,
      mustChangePassword: false,
      email: null,
      emailVerified: false,
      phone: null,
    },
  });

export const PasswordReset = z
  .object({
    userId: z.string(),
    username: z.string(),
    mustChangePassword: z.literal(true),
    sessionsEnded: z.number().int().min(0),
    temporaryPassword: z.string().nullable().openapi({ description: 'The drawn password (only with generate: true); shown once' }),
  })
  .openapi('PasswordReset', {
    description: "The password is reset, the account's logins ended; its next login must change the password",
    example: { userId: '7', username: 'ops.lee', mustChangePassword: true, sessionsEnded: 2, temporaryPassword: 'Xk4mPq7RtB9wZc2N' },
  });

export const UserUnlocked = z.object({ userId: z.string(), username: z.string(), unlocked: z.literal(true) }).openapi('UserUnlocked', {
  description: "The account's failure budgets are cleared: its owner logs in at once",
  example: { userId: '7', username: 'ops.lee', unlocked: true },
});
