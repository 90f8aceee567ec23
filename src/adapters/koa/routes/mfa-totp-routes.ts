/**
 * TOTP enrolment and removal on a logged-in session, on both apps (each for its own login type): setup shows a pending
 * secret, confirm activates it with a first code and answers the recovery codes once, DELETE removes the factor.
 * Setup and confirm accept a restricted session (one that must enrol a factor before anything else); removing a factor
 * needs a recent authentication (step-up, svc.step-up.max-age-seconds).
 */
import { ConfirmTotp } from '../../../application/mfa/confirm-totp';
import { RemoveTotp } from '../../../application/mfa/remove-totp';
import { SetUpTotp } from '../../../application/mfa/set-up-totp';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { ConfirmTotpBody, TotpRecoveryCodes, TotpSetup } from '../schemas/mfa-schemas';

export function mfaTotpRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const enrolling = kit.guards.requireLogin(type, { allowRestricted: ['mfa-enrolment'] });
  const removing = [kit.guards.requireLogin(type), kit.guards.requireRecentAuth(type)];
  const [setUp, confirm, remove] = [kit.use(SetUpTotp), kit.use(ConfirmTotp), kit.use(RemoveTotp)];
  return [
    route({
      method: 'post',
      path: '/auth/mfa/totp/setup',
      summary: 'Start TOTP enrolment: a new pending secret (replacing an unconfirmed one), its otpauth URI and QR code, shown once',
      tags: ['mfa'],
      // Adding a factor is as sensitive as removing one (ASVS 7.5.1): a stolen session must not set up its own TOTP.
      guards: [enrolling, kit.guards.requireRecentAuth(type)],
      response: TotpSetup,
      raises: SetUpTotp.reasons,
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return setUp.execute({ loginType: type, account: { userId: u.userId, username: u.username } });
      },
    }),
    route({
      method: 'post',
      path: '/auth/mfa/totp/confirm',
      summary: 'Activate the pending TOTP secret with a current code; answers the ten recovery codes, once',
      tags: ['mfa'],
      audit: { type: 'mfa-enrolled' },
      guards: [enrolling],
      body: ConfirmTotpBody,
      response: TotpRecoveryCodes,
      raises: ConfirmTotp.reasons,
      handler: async (ctx, { body }) => {
        const auth = ctx.state.auth;
        if (!auth) throw new Error('TOTP confirm without requireLogin');
        return {
          recoveryCodes: await confirm.execute({ loginType: type, tokenHash: auth.tokenHash, record: auth.record, code: body.code }),
        };
      },
    }),
    route({
      method: 'delete',
      path: '/auth/mfa/totp',
      summary: 'Remove the TOTP factor, its recovery codes and any pending setup (204 also when there was none); needs a recent login',
      tags: ['mfa'],
      audit: { type: 'mfa-removed' },
      guards: removing,
      successStatus: 204,
      raises: RemoveTotp.reasons,
      handler: async (ctx) => {
        await remove.execute({ loginType: type, user: currentUser(ctx) });
      },
    }),
  ];
}
