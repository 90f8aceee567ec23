/**
 * The payloads of a login in two steps (a password, then a second factor) and of step-up: named zod
 * schemas with a description and an example, like account-schemas.ts.
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { DEVICE_TYPE_PATTERN } from '../../../domain/device-type';
import { LoginResult, TokenPair } from './account-schemas';
import { AuthenticationResponse } from './passkey-schemas';

extendZodWithOpenApi(z);

/**
 * What a login may choose about its session (Sa-Token's `SaLoginParameter`'s `deviceType` and
 * `isLastingCookie`), on every login body: the password logins and the passwordless passkey login.
 */
const DEVICE_TYPE = z.string().regex(DEVICE_TYPE_PATTERN, 'must be 1-32 characters of A-Z a-z 0-9 _ -');

export const LOGIN_CHOICES = {
  deviceType: DEVICE_TYPE.optional().openapi({
    description:
      "The login's device type (Sa-Token's deviceType: PC, APP, H5, ...; compared exactly). Absent: from the User-Agent " +
      '(a phone or tablet browser H5, another browser PC, any other program APP, none DEF). With session.is-concurrent=false ' +
      'and session.replaced-range=CURR_DEVICE_TYPE a login replaces only the sessions of its device type',
    example: 'PC',
  }),
  rememberMe: z
    .boolean()
    .optional()
    .openapi({
      description:
        'Default true: the session lives session.timeout and comes with a refresh token. false: it lives ' +
        'session.no-remember-timeout (a day by default) and no refreshToken is returned',
      example: true,
    }),
};

/** The body of the routes that end a user's logins (all, or those of one device type). */
export const EndLoginsBody = z
  .object({
    deviceType: DEVICE_TYPE.optional().openapi({
      description: 'Only the logins of this device type end (exact, case included); absent: every login',
      example: 'APP',
    }),
  })
  .strict();

const METHOD = z.enum(['totp', 'recovery', 'webauthn']);
const AMR = z.enum(['pwd', 'otp', 'hwk', 'swk', 'mfa']);

export const MfaChallenge = z
  .object({
    mfaRequired: z.literal(true),
    mfaToken: z.string().openapi({
      description:
        'Single-use, bound to this login type and account, valid svc.mfa.challenge-ttl-seconds: send it to POST /auth/mfa/verify',
    }),
    methods: z.array(METHOD).openapi({ description: 'How the second step may be answered: the factors the account has' }),
  })
  .openapi('MfaChallenge', {
    description: 'The password was right and the account has a second factor: no session yet, answer POST /auth/mfa/verify',
    example: { mfaRequired: true, mfaToken: 'q3ZK0vRkq0sF0l0m9mYl5qf8o0dJrXh1cT7QWbq2V4E', methods: ['totp', 'recovery'] },
  });

const CHALLENGE_EXAMPLE = {
  mfaRequired: true as const,
  mfaToken: 'q3ZK0vRkq0sF0l0m9mYl5qf8o0dJrXh1cT7QWbq2V4E',
  methods: ['totp' as const],
};

export const LoginAnswer = z.union([LoginResult, MfaChallenge]).openapi('LoginAnswer', {
  description: 'A login: the session (LoginResult), or, for an account with a second factor, the challenge of its second step',
  example: CHALLENGE_EXAMPLE,
});

export const WebLoginAnswer = z.union([TokenPair, MfaChallenge]).openapi('WebLoginAnswer', {
  description: 'A member login: the token pair, or, for an account with a second factor, the challenge of its second step',
  example: CHALLENGE_EXAMPLE,
});

/** Exactly one proof: a TOTP code, a recovery code or a passkey assertion. */
const oneProof = <T extends { code?: unknown; recoveryCode?: unknown; webauthn?: unknown; password?: unknown }>(b: T) =>
  [b.code, b.recoveryCode, b.webauthn, b.password].filter((v) => v !== undefined).length === 1;

const CODE = z.string().min(1).max(16).openapi({ description: 'The code the authenticator app shows now (6 digits)' });
const RECOVERY = z.string().min(1).max(64).openapi({ description: 'One of the ten recovery codes (each works once)' });

export const VerifyMfaBody = z
  .object({
    mfaToken: z.string().min(1).max(128),
    code: CODE.optional(),
    recoveryCode: RECOVERY.optional(),
    webauthn: AuthenticationResponse.optional(),
    captchaUuid: z.string().max(64).optional(),
    captchaCode: z.string().max(32).optional(),
  })
  .strict()
  .refine(oneProof, { message: 'send exactly one of code, recoveryCode or webauthn', path: ['code'] })
  .refine((b) => (b.captchaUuid === undefined) === (b.captchaCode === undefined), {
    message: 'send captchaUuid and captchaCode together (only after 428 captcha-required)',
    path: ['captchaCode'],
  });

export const StepUpBody = (encrypted: boolean) =>
  z
    .object({
      password: z
        .string()
        .min(1)
        .max(encrypted ? 4096 : 1024)
        .openapi({ description: encrypted ? 'The password, RSA-encrypted like the login password' : 'The password' })
        .optional(),
      code: CODE.optional(),
      recoveryCode: RECOVERY.optional(),
      webauthn: AuthenticationResponse.optional(),
    })
    .strict()
    .refine(oneProof, { message: 'send exactly one of password, code, recoveryCode or webauthn', path: ['password'] });

export const MfaTokenBody = z.object({ mfaToken: z.string().min(1).max(128) }).strict();

export const SteppedUp = z
  .object({
    authTime: z.string().datetime({ offset: true }).openapi({ description: 'When this session last proved its user (now), ISO-8601 UTC' }),
    amr: z.array(AMR).openapi({ description: 'How the session has proved its user (RFC 8176)' }),
  })
  .openapi('SteppedUp', {
    description: 'The session proved its user again: sensitive routes accept it for svc.step-up.max-age-seconds',
    example: { authTime: '2026-11-24T21:00:00.000Z', amr: ['pwd', 'otp'] },
  });
