/**
 * Members' e-mail verification (web). The route that mails a code answers alike whether or not an
 * account has the address (202, one body, the work done after the answer), and is limited per
 * client IP and per address (a digest of the folded address, never in clear).
 */
import { z } from 'zod';
import type { RateLimitPolicy } from '../../../application/auth/check-rate-limit';
import { SendVerificationCode } from '../../../application/users/send-verification-code';
import { VerifyEmail } from '../../../application/users/verify-email';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { EmailVerified, MailRequestAccepted } from '../schemas/account-schemas';

/** An e-mail address as a body field: trimmed, at most 254 characters (RFC 5321's path limit). */
export const EMAIL = z.string().trim().max(254).email('must be an e-mail address');

/** The limits of the routes that take an address: per client IP, then per address. */
export const ACCOUNT_MAIL_LIMITS = {
  verify: { key: 'verify-email', windowSeconds: 600, limit: 20, limitType: 'IP' },
  sendIp: { key: 'verify-email-send', windowSeconds: 3600, limit: 10, limitType: 'IP' },
  sendAddress: { key: 'verify-email-send-address', windowSeconds: 3600, limit: 5, limitType: 'EMAIL' },
} as const satisfies Record<string, RateLimitPolicy>;

const emailBody = z.object({ email: EMAIL }).strict();
const verifyBody = z.object({ email: EMAIL, code: z.string().regex(/^\d{6}$/, 'must be the 6 digits from the message') }).strict();

const CODE_ON_ITS_WAY = 'If an account with this address is waiting for its verification, a new code is on its way.';

export function webAccountRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const [verify, send] = [kit.use(VerifyEmail), kit.use(SendVerificationCode)];
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
  ];
}
