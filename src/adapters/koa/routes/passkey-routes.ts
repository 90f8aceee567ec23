/**
 * Passkeys (WebAuthn) on both apps, in the app's own format: a logged-in user registers, lists and
 * removes their passkeys; anyone logs in with a discoverable one (passwordless), through the
 * password login's rate limit, answered as a password login is. The options are WebAuthn's JSON
 * forms, for `PublicKeyCredential.parseCreationOptionsFromJSON` and `credential.toJSON()`.
 */
import { z } from 'zod';
import { LogInWithPasskey } from '../../../application/mfa/log-in-with-passkey';
import { Passkeys } from '../../../application/mfa/passkeys';
import { RegisterPasskey } from '../../../application/mfa/register-passkey';
import { currentUser } from '../guards';
import type { RouteKit } from '../route-kit';
import { LiftRequiredAction } from '../../../application/mfa/lift-required-action';
import { route, type RouteDef } from '../routes';
import { LoginResult, TokenPair } from '../schemas/account-schemas';
import {
  AuthenticationResponse,
  Passkey,
  PasskeyCreationOptions,
  PasskeyList,
  PasskeyRequestOptions,
  RegistrationResponse,
} from '../schemas/passkey-schemas';
import { LOGIN_CHOICES } from '../schemas/login-schemas';
import { clientOf, deviceCookieHeader, LOGIN_RATE_LIMIT, tokenPairOf } from './auth-routes';

const registerBody = z
  .object({
    response: RegistrationResponse,
    name: z.string().max(64).optional().openapi({ description: 'What to call it (default "Passkey")', example: 'Work laptop' }),
  })
  .strict();

const loginBody = z.object({ response: AuthenticationResponse, ...LOGIN_CHOICES }).strict();

/** Options cost a key-value write each: limited per client address like the login they lead to, on a budget of their own. */
const LOGIN_OPTIONS_RATE_LIMIT = { ...LOGIN_RATE_LIMIT, key: 'passkey-login-options' } as const;

/**
 * The signed-in user's passkeys: register (options, then the authenticator's answer), list, remove.
 * Registering is enrolling a factor: what a session restricted to `mfa-enrolment` may do.
 */
export function passkeyRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const login = kit.guards.requireLogin(type);
  const enrol = kit.guards.requireLogin(type, { allowRestricted: ['mfa-enrolment'] });
  const [passkeys, register, lift] = [kit.use(Passkeys), kit.use(RegisterPasskey), kit.use(LiftRequiredAction)];
  return [
    route({
      method: 'post',
      path: '/auth/passkeys/options',
      summary:
        'Options to register a passkey (WebAuthn PublicKeyCredentialCreationOptionsJSON): pass them to navigator.credentials.create(); ' +
        'the challenge is single use and lives svc.mfa.challenge-ttl-seconds',
      tags: ['passkeys'],
      // Adding a factor is as sensitive as removing one (ASVS 7.5.1): a stolen session must not leave its own passkey.
      guards: [enrol, kit.guards.requireRecentAuth(type)],
      response: PasskeyCreationOptions,
      raises: Passkeys.reasons,
      handler: async (ctx) => {
        const u = currentUser(ctx);
        return passkeys.registrationOptions(type, { userId: u.userId, username: u.username, displayName: u.nickname ?? u.username });
      },
    }),
    route({
      method: 'post',
      path: '/auth/passkeys',
      summary:
        "Register a passkey: {response: the authenticator's RegistrationResponseJSON, name?} -> 201 the passkey; " +
        'an answer to no live challenge of yours, from another origin, or a passkey registered already -> 401 passkey-invalid',
      tags: ['passkeys'],
      audit: { type: 'mfa-enrolled' },
      guards: [enrol],
      body: registerBody,
      successStatus: 201,
      response: Passkey,
      raises: [...RegisterPasskey.reasons, ...LiftRequiredAction.reasons],
      handler: async (ctx, { body }) => {
        const input = { loginType: type, userId: currentUser(ctx).userId, response: body.response, name: body.name };
        const [passkey, auth] = [await register.execute(input), ctx.state.auth];
        if (auth) await lift.execute({ loginType: type, tokenHash: auth.tokenHash, record: auth.record, action: 'mfa-enrolment' });
        return passkey;
      },
    }),
    route({
      method: 'get',
      path: '/auth/passkeys',
      summary: 'Your passkeys, oldest first: id, name, created and last used',
      tags: ['passkeys'],
      guards: [login],
      response: PasskeyList,
      raises: Passkeys.reasons,
      handler: async (ctx) => passkeys.list(type, currentUser(ctx).userId),
    }),
    route({
      method: 'delete',
      path: '/auth/passkeys/:id',
      summary:
        "Remove one of your passkeys -> 204; another user's or an unknown id -> 404. Sensitive: the session must have proved its " +
        'user within svc.step-up.max-age-seconds (a login or POST /auth/step-up), else 403 step-up-required',
      tags: ['passkeys'],
      audit: { type: 'mfa-removed' },
      guards: [login, kit.guards.requireRecentAuth(type)],
      successStatus: 204,
      raises: Passkeys.reasons,
      handler: async (ctx, { params }) => passkeys.remove(type, currentUser(ctx), params.id),
    }),
  ];
}

/** The passwordless login: options for a discoverable credential, then its assertion -> what the app's password login answers. */
export function passkeyLoginRoutes(kit: RouteKit): RouteDef[] {
  const type = kit.loginType;
  const [passkeys, login] = [kit.use(Passkeys), kit.use(LogInWithPasskey)];
  return [
    route({
      method: 'post',
      path: '/auth/passkey-login/options',
      summary:
        'Options for a passwordless login (WebAuthn PublicKeyCredentialRequestOptionsJSON: any discoverable passkey, user ' +
        'verification required): pass them to navigator.credentials.get()',
      tags: ['passkeys'],
      guards: [kit.rateLimit(LOGIN_OPTIONS_RATE_LIMIT)],
      response: PasskeyRequestOptions,
      raises: Passkeys.reasons,
      handler: async () => passkeys.authenticationOptions(type, null),
    }),
    route({
      method: 'post',
      path: '/auth/passkey-login',
      summary:
        "Log in with a passkey: {response: the authenticator's AuthenticationResponseJSON} -> what POST /auth/login answers, " +
        `device cookie ag_device_${type} included; a bad, replayed or cloned answer -> 401 passkey-invalid`,
      tags: ['passkeys'],
      audit: { type: 'login' },
      guards: [kit.rateLimit(LOGIN_RATE_LIMIT)],
      body: loginBody,
      response: type === 'admin' ? LoginResult : TokenPair,
      raises: LogInWithPasskey.reasons,
      handler: async (ctx, { body }) => {
        const { deviceCookie, userId, ...out } = await login.execute({
          loginType: type,
          response: body.response,
          client: clientOf(ctx, body.deviceType),
          rememberMe: body.rememberMe,
        });
        ctx.state.subject = { userId };
        ctx.append('Set-Cookie', deviceCookieHeader(type, deviceCookie));
        return type === 'admin' ? out : tokenPairOf(out);
      },
    }),
  ];
}
