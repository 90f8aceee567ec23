/**
 * Members' e-mail verification and password reset (web). The routes that take an address answer
 * alike whether or not an account has it (202, one body, the work done after the answer), and are
 * limited per client IP and per address (a digest of the folded address, never in clear).
 */
import { z } from 'zod';
import type { RateLimitPolicy } from '../../../application/auth/check-rate-limit';
import { RequestPasswordReset } from '../../../application/users/request-password-reset';
import { ResetPassword } from '../../../application/users/reset-password';
import { SendVerificationCode } from '../../../application/users/send-verification-code';
import { VerifyEmail } from '../../../application/users/verify-email';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { EmailVerified, MailRequestAccepted, PasswordResetDone } from '../schemas/account-schemas';

/** An e-mail address as a body field: trimmed, at most 254 characters (RFC 5321's path limit). */
export const EMAIL = z.string().trim().max(254).email('must be an e-mail address');

/** The limits of the routes that take an address: per client IP, then per address. */
export const ACCOUNT_MAIL_LIMITS = {
  verify: { key: 'verify-email', windowSeconds: 600, limit: 20, limitType: 'IP' },
  sendIp: { key: 'verify-email-send', windowSeconds: 3600, limit: 10, limitType: 'IP' },
  sendAddress: { key: 'verify-email-send-address', windowSeconds: 3600, limit: 5, limitType: 'EMAIL' },
  forgotIp: { key: 'forgot-password', windowSeconds: 3600, limit: 10, limitType: 'IP' },
  forgotAddress: { key: 'forgot-password-address', windowSeconds: 3600, limit: 5, limitType: 'EMAIL' },
  reset: { key: 'reset-password', windowSeconds: 3600, limit: 10, limitType: 'IP' },
} as const satisfies Record<string, RateLimitPolicy>;

const emailBody = z.object({ email: EMAIL }).strict();
const verifyBody = z.object({ email: EMAIL, code: z.string().regex(/^\d{6}$/, 'must be the 6 digits from the message') }).strict();
const resetBody = z.object({ token: z.string().min(1).max(256), newPassword: z.string().min(1).max(1024) }).strict();

const CODE_ON_ITS_WAY = 'If an account with this address is waiting for its verification, a new code is on its way.';
const LINK_ON_ITS_WAY = 'If an account has this address, a message with a reset link is on its way.';

export function webAccountRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const [verify, send, forgot, reset] = [
    kit.use(VerifyEmail),
    kit.use(SendVerificationCode),
    kit.use(RequestPasswordReset),
    kit.use(ResetPassword),
  ];
  const L = ACCOUNT_MAIL_LIMITS;
  return [
    route({
      method: 'post',
      path: '/auth/verify-email',
      summary: "Verify the member's e-mail address with the 6-digit code mailed to it -> {email, verified: true}",
      tags: ['auth'],
      guards: [kit.rateLimit(L.verify)],
      body: verifyBody,
      response: EmailVerified,
      raises: VerifyEmail.reasons,
      audit: { type: 'email-verified' },
      handler: async (_ctx, { body }) => verify.execute({ loginType: type, email: body.email, code: body.code }),
    }),
    route({
      method: 'post',
      path: '/auth/verify-email/send',
      summary: 'Mail a new verification code to an address waiting for verification (it replaces the earlier one); always 202',
      tags: ['auth'],
      guards: [kit.rateLimit(L.sendIp), kit.rateLimit(L.sendAddress)],
      body: emailBody,
      successStatus: 202,
      response: MailRequestAccepted,
      raises: SendVerificationCode.reasons,
      handler: async (_ctx, { body }) => {
        await send.execute({ loginType: type, email: body.email });
        return { accepted: true, detail: CODE_ON_ITS_WAY };
      },
    }),
    route({
      method: 'post',
      path: '/auth/forgot-password',
      summary: 'Mail a password-reset link to the account with this address, if there is one; always 202, known or not',
      tags: ['auth'],
      guards: [kit.rateLimit(L.forgotIp), kit.rateLimit(L.forgotAddress)],
      body: emailBody,
      successStatus: 202,
      response: MailRequestAccepted,
      raises: RequestPasswordReset.reasons,
      audit: { type: 'password-reset-requested' },
      handler: async (_ctx, { body }) => {
        await forgot.execute({ loginType: type, email: body.email });
        return { accepted: true, detail: LINK_ON_ITS_WAY };
      },
    }),
    route({
      method: 'post',
      path: '/auth/reset-password',
      summary: 'Set a new password with the token of a reset link; ends every session of the member -> {passwordReset, sessionsEnded}',
      tags: ['auth'],
      guards: [kit.rateLimit(L.reset)],
      body: resetBody,
      response: PasswordResetDone,
      raises: ResetPassword.reasons,
      audit: { type: 'password-reset' },
      handler: async (_ctx, { body }) => reset.execute({ loginType: type, token: body.token, newPassword: body.newPassword }),
    }),
  ];
}
