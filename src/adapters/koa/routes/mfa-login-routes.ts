/**
 * The second step of a login with a second factor (`POST /auth/mfa/verify`, and the passkey options
 * for it), and step-up: re-authentication on a live session for the routes that require it.
 */
import { Passkeys } from '../../../application/mfa/passkeys';
import { MfaChallenges } from '../../../application/mfa/mfa-challenges';
import { StepUp } from '../../../application/mfa/step-up';
import { VerifyMfa } from '../../../application/mfa/verify-mfa';
import type { LoginType } from '../../../domain/login-type';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { LoginResult, TokenPair } from '../schemas/account-schemas';
import { MfaTokenBody, SteppedUp, StepUpBody, VerifyMfaBody } from '../schemas/login-schemas';
import { PasskeyRequestOptions } from '../schemas/passkey-schemas';
import { clientOf, deviceCookiesOf, LOGIN_RATE_LIMIT, tokenPairOf, withDeviceCookie } from './auth-routes';

/** Second steps share the login's limit per IP: a password and a code are one login. */
const MFA_RATE_LIMIT = { ...LOGIN_RATE_LIMIT, key: 'mfa', limit: 10 } as const;

function verifyRoute(kit: RouteKit, type: LoginType): RouteDef {
  const [verify, challenges] = [kit.use(VerifyMfa), kit.use(MfaChallenges)];
  return route({
    method: 'post',
    path: '/auth/mfa/verify',
    summary:
      'The second step of a login: {mfaToken} and one of {code}, {recoveryCode} or {webauthn}; answers what a login answers ' +
      '(and sets the device cookie); wrong proofs spend the failure budget like wrong passwords',
    tags: ['auth'],
    audit: { type: 'mfa-verified' },
    guards: [kit.rateLimit(MFA_RATE_LIMIT)],
    body: VerifyMfaBody,
    response: type === 'admin' ? LoginResult : TokenPair,
    raises: VerifyMfa.reasons,
    handler: async (ctx, { body: b }) => {
      const captcha = b.captchaUuid !== undefined && b.captchaCode !== undefined ? { uuid: b.captchaUuid, code: b.captchaCode } : undefined;
      // The account the mfaToken was issued for is the event's subject, failures included: a wrong code after the
      // right password belongs in that account's login log.
      const challenge = await challenges.read(type, b.mfaToken);
      ctx.state.subject = { userId: challenge.userId, username: challenge.username };
      const login = await verify.execute({
        loginType: type,
        mfaToken: b.mfaToken,
        code: b.code,
        recoveryCode: b.recoveryCode,
        webauthn: b.webauthn,
        captcha,
        client: clientOf(ctx),
        deviceCookies: deviceCookiesOf(ctx, type),
      });
      const { userId: _subject, ...out } = withDeviceCookie(ctx, type, login);
      return type === 'admin' ? out : tokenPairOf(out);
    },
  });
}

function stepUpRoutes(kit: RouteKit, type: LoginType): RouteDef[] {
  const [stepUp, passkeys] = [kit.use(StepUp), kit.use(Passkeys)];
  const login = kit.guards.requireLogin(type);
  return [
    route({
      method: 'post',
      path: '/auth/step-up',
      summary:
        'Re-authenticate this session for sensitive routes: {password}' +
        (type === 'admin' ? ' (RSA-encrypted)' : '') +
        ', {code}, {recoveryCode} or {webauthn}; failures spend the failure budget',
      tags: ['auth'],
      audit: { type: 'step-up' },
      guards: [kit.rateLimit({ key: 'step-up', windowSeconds: 60, limit: 5, limitType: 'IP' }), login],
      body: StepUpBody(type === 'admin'),
      response: SteppedUp,
      raises: StepUp.reasons,
      handler: async (ctx, { body: b }) => {
        const auth = ctx.state.auth;
        if (!auth) throw new Error('step-up without requireLogin');
        const r = await stepUp.execute({
          loginType: type,
          tokenHash: auth.tokenHash,
          record: auth.record,
          password: b.password,
          encrypted: type === 'admin',
          code: b.code,
          recoveryCode: b.recoveryCode,
          webauthn: b.webauthn,
          deviceCookies: deviceCookiesOf(ctx, type),
        });
        return { authTime: new Date(r.authTime).toISOString(), amr: [...r.amr] };
      },
    }),
    route({
      method: 'post',
      path: '/auth/step-up/options',
      summary: 'Passkey options to re-authenticate this session with (navigator.credentials.get); 401 passkey-invalid without a passkey',
      tags: ['auth'],
      guards: [login],
      response: PasskeyRequestOptions,
      raises: ['passkey-invalid', 'store-unavailable'],
      handler: async (ctx) => passkeys.authenticationOptions(type, currentUser(ctx).userId),
    }),
  ];
}

export function mfaLoginRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const [challenges, passkeys] = [kit.use(MfaChallenges), kit.use(Passkeys)];
  return [
    verifyRoute(kit, type),
    route({
      method: 'post',
      path: '/auth/mfa/webauthn/options',
      summary: 'Passkey options for the second step of a login ({mfaToken}): navigator.credentials.get, then POST /auth/mfa/verify',
      tags: ['auth'],
      guards: [kit.rateLimit(MFA_RATE_LIMIT)],
      body: MfaTokenBody,
      response: PasskeyRequestOptions,
      raises: ['mfa-token-invalid', 'passkey-invalid', 'validation-failed', 'store-unavailable'],
      handler: async (_ctx, { body }) => {
        const challenge = await challenges.read(type, body.mfaToken);
        return passkeys.authenticationOptions(type, challenge.userId);
      },
    }),
    ...stepUpRoutes(kit, type),
  ];
}
