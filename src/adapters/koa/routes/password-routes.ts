/**
 * A user changes their own password: admin `POST /auth/password` (both passwords RSA-encrypted like
 * the login's), web `POST /user/password` (plain JSON over TLS, like web login). The routes a
 * restricted session may call (its "update-password" required action).
 */
import { z } from 'zod';
import { ChangePassword } from '../../../application/account/change-password';
import type { LoginType } from '../../../domain/login-type';
import type { AppContext } from '../state';
import type { RouteKit } from '../route-kit';
import { route, type RouteDef } from '../routes';
import { PasswordChanged } from '../schemas/lifecycle-schemas';
import { cookieValues, deviceCookieHeader, deviceCookieName } from './auth-routes';

const passwordBody = (maxLength: number) =>
  z
    .object({
      currentPassword: z.string().min(1).max(maxLength),
      newPassword: z.string().min(1).max(maxLength),
      revokeOtherSessions: z.boolean().default(true),
    })
    .strict();

function changePasswordRoute(kit: RouteKit, type: LoginType, path: string, encrypted: boolean): RouteDef {
  const change = kit.use(ChangePassword);
  return route({
    method: 'post',
    path,
    summary:
      (encrypted ? 'Change your password (both RSA-encrypted like the login password)' : 'Change your password') +
      '; with revokeOtherSessions (default true) every other session ends and this one gets a new refresh token',
    tags: [type === 'admin' ? 'auth' : 'user'],
    guards: [
      kit.rateLimit({ key: 'password-change', windowSeconds: 60, limit: 5, limitType: 'IP' }),
      kit.guards.requireLogin(type, { allowRestricted: ['update-password'] }),
    ],
    body: passwordBody(encrypted ? 4096 : 1024),
    response: PasswordChanged,
    raises: ChangePassword.reasons,
    audit: { type: 'password-changed' },
    handler: async (ctx: AppContext, { body }) => {
      const auth = ctx.state.auth;
      if (!auth) throw new Error('password change without requireLogin');
      const out = await change.execute({
        loginType: type,
        tokenHash: auth.tokenHash,
        record: auth.record,
        currentPassword: body.currentPassword,
        newPassword: body.newPassword,
        encrypted,
        revokeOtherSessions: body.revokeOtherSessions,
        deviceCookies: cookieValues(ctx.get('Cookie') || undefined, deviceCookieName(type)),
      });
      if (out.deviceCookie !== null) ctx.append('Set-Cookie', deviceCookieHeader(type, out.deviceCookie));
      return {
        passwordChanged: true as const,
        sessionsEnded: out.sessionsEnded,
        refreshToken: out.refreshToken,
        accessToken: out.accessToken,
      };
    },
  });
}

export const adminPasswordRoutes = (kit: RouteKit): RouteDef[] => [changePasswordRoute(kit, 'admin', '/auth/password', true)];
export const webPasswordRoutes = (kit: RouteKit): RouteDef[] => [changePasswordRoute(kit, 'web', '/user/password', false)];
