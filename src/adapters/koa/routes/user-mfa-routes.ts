/**
 * An administrator resets a user's second factors: TOTP, recovery codes and passkeys removed, every login of the
 * user ended (for an owner locked out, or after a takeover, where a password reset leaves the attacker's factor).
 * Sensitive like a password reset: its own permission and a recent re-authentication (step-up).
 */
import { ResetUserMfa } from '../../../application/users/reset-user-mfa';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { MfaReset } from '../schemas/mfa-reset-schemas';

/** Mounted beside the account-administration routes (the delegation rules read the user administration). */
export function userMfaRoutes(kit: RouteKit): RouteDef[] {
  const reset = kit.use(ResetUserMfa);
  return [
    route({
      method: 'delete',
      path: '/system/user/:id/mfa',
      summary:
        "Reset a user's second factors: the TOTP factor, its recovery codes and every passkey are removed and every login " +
        'of the user ends; the next login takes the password alone (restricted to enrolment where a role requires a factor)',
      tags: ['system-user'],
      guards: [
        kit.guards.requireLogin('admin'),
        kit.guards.requirePermission('admin', 'system:user:resetMfa'),
        kit.guards.requireRecentAuth('admin'),
      ],
      response: MfaReset,
      raises: ResetUserMfa.reasons,
      audit: { type: 'mfa-reset', action: 'user.mfa-reset', target: (p) => p.id },
      handler: async (ctx, { params }) => reset.execute({ actor: currentUser(ctx), userId: params.id }),
    }),
  ];
}
