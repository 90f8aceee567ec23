/**
 * TOTP enrolment and removal on a logged-in session, on both apps (each for its own login type): setup shows a pending
 * secret, confirm activates it with a first code and answers the recovery codes once, DELETE removes the factor.
 */
import { ConfirmTotp } from '../../../application/mfa/confirm-totp';
import { RemoveTotp } from '../../../application/mfa/remove-totp';
import { SetUpTotp } from '../../../application/mfa/set-up-totp';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { LiftRequiredAction } from '../../../application/mfa/lift-required-action';
import { route, type RouteDef } from '../routes';
import { ConfirmTotpBody, TotpRecoveryCodes, TotpSetup } from '../schemas/mfa-schemas';

export function mfaTotpRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  // Enrolment is what a session restricted to `mfa-enrolment` may do.
  const enrol = kit.guards.requireLogin(type, { allowRestricted: true });
  const login = kit.guards.requireLogin(type);
  const [setUp, confirm, remove, lift] = [kit.use(SetUpTotp), kit.use(ConfirmTotp), kit.use(RemoveTotp), kit.use(LiftRequiredAction)];
  return [
    route({
      method: 'post',
      path: '/auth/mfa/totp/setup',
      summary: 'Start TOTP enrolment: a new pending secret (replacing an unconfirmed one), its otpauth URI and QR code, shown once',
      tags: ['mfa'],
      guards: [enrol],
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
      guards: [enrol],
      body: ConfirmTotpBody,
      response: TotpRecoveryCodes,
      raises: [...ConfirmTotp.reasons, ...LiftRequiredAction.reasons],
      handler: async (ctx, { body }) => {
        const recoveryCodes = await confirm.execute({ loginType: type, userId: currentUser(ctx).userId, code: body.code });
        const auth = ctx.state.auth;
        if (auth) await lift.execute({ loginType: type, tokenHash: auth.tokenHash, record: auth.record, action: 'mfa-enrolment' });
        return { recoveryCodes };
      },
    }),
    route({
      method: 'delete',
      path: '/auth/mfa/totp',
      summary: 'Remove the TOTP factor, its recovery codes and any pending setup (204 also when there was none)',
      tags: ['mfa'],
      guards: [login, kit.guards.requireRecentAuth(type)],
      successStatus: 204,
      raises: RemoveTotp.reasons,
      handler: async (ctx) => {
        await remove.execute({ loginType: type, userId: currentUser(ctx).userId });
      },
    }),
  ];
}
