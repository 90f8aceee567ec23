/**
 * Guards, declared beside each route (where the seed specification puts annotations such as `@SaCheckPermission`). Each guard carries a
 * small
 * `doc` describing it, so the route table can be documented from the same declarations.
 */
import { DomainError, type Reason } from '../../domain/errors';
import { REQUIRED_ACTION_REASONS, type RequiredAction } from '../../domain/session';
import type { MatchMode } from '../../domain/permission';
import { Authenticate } from '../../application/auth/authenticate';
import { CheckPermission } from '../../application/auth/check-permission';
import { CheckRecentAuth } from '../../application/auth/check-recent-auth';
import { CheckRole } from '../../application/auth/check-role';
import type { AppContext, AppMiddleware, AuthState, LoginUser } from './state';
import type { LoginType } from '../../domain/login-type';

export interface GuardDoc {
  readonly kind: 'login' | 'permission' | 'role' | 'step-up' | 'rate-limit' | 'signature' | 'idempotency' | 'other';
  readonly loginType?: LoginType;
  readonly permissions?: readonly string[];
  readonly roles?: readonly string[];
  readonly mode?: MatchMode;
  /** Every failure the guard may answer with (its use cases' included): the route's error responses. */
  readonly reasons: readonly Reason[];
  /** Response headers the guard sets, by name, with what they carry (on success and on its own refusals). */
  readonly responseHeaders?: Readonly<Record<string, string>>;
  readonly [extra: string]: unknown;
}

export type Guard = AppMiddleware & { readonly doc: GuardDoc };

export function guard(doc: GuardDoc, fn: AppMiddleware): Guard {
  return Object.assign(fn, { doc });
}

/** The login and permission guards, on the Authenticate / CheckPermission / CheckRole use cases. */
export interface AuthGuards {
  /**
   * Resolves the caller's session of `loginType`; anything else is 401 with the precise reason. A
   * restricted session (required actions pending, e.g. a password an administrator reset) is 403
   * with the action's reason, unless `allowRestricted`: the routes that fulfil the action, `/auth/me`, logout.
   */
  requireLogin(loginType: LoginType, opts?: { readonly allowRestricted?: boolean }): Guard;
  /** `system:user:add`-style permission check against the session's snapshot (no store call). */
  requirePermission(loginType: LoginType, permissions: string | readonly string[], mode?: MatchMode): Guard;
  requireRole(loginType: LoginType, roles: string | readonly string[], mode?: MatchMode): Guard;
  /**
   * Step-up: the session must have proved its user within `maxAgeSeconds` (default
   * svc.step-up.max-age-seconds), else 403 step-up-required. After requireLogin; no store call.
   */
  requireRecentAuth(loginType: LoginType, maxAgeSeconds?: number): Guard;
}

export interface AuthGuardDeps {
  readonly authenticate: Authenticate;
  readonly checkPermission: CheckPermission;
  readonly checkRole: CheckRole;
  readonly checkRecentAuth: CheckRecentAuth;
}

export function authGuards(deps: AuthGuardDeps): AuthGuards {
  return {
    requireLogin: (loginType, opts) => requireLogin(deps.authenticate, loginType, opts?.allowRestricted === true),
    requirePermission(loginType, permissions, mode = 'AND') {
      const required = typeof permissions === 'string' ? [permissions] : [...permissions];
      return guard(
        { kind: 'permission', loginType, permissions: required, mode, reasons: CheckPermission.reasons },
        async function requirePermission(ctx, next) {
          deps.checkPermission.execute({ granted: authOf(ctx, loginType).record.principal.permissions, required, mode });
          await next();
        },
      );
    },
    requireRole(loginType, roles, mode = 'AND') {
      const required = typeof roles === 'string' ? [roles] : [...roles];
      return guard({ kind: 'role', loginType, roles: required, mode, reasons: CheckRole.reasons }, async function requireRole(ctx, next) {
        deps.checkRole.execute({ granted: authOf(ctx, loginType).record.principal.roles, required, mode });
        await next();
      });
    },
    requireRecentAuth(loginType, maxAgeSeconds) {
      const maxAge = maxAgeSeconds ?? deps.checkRecentAuth.defaultMaxAgeSeconds;
      const doc: GuardDoc = { kind: 'step-up', loginType, maxAgeSeconds: maxAge, reasons: CheckRecentAuth.reasons };
      return guard(doc, async function requireRecentAuth(ctx, next) {
        deps.checkRecentAuth.execute({ record: authOf(ctx, loginType).record, maxAgeSeconds: maxAge });
        await next();
      });
    },
  };
}

/** What a restricted session may not do: every pending action's reason (no store round trip: the record is already read). */
const RESTRICTED_REASONS: readonly Reason[] = [...new Set(Object.values(REQUIRED_ACTION_REASONS))];

function requireLogin(authenticate: Authenticate, loginType: LoginType, allowRestricted: boolean): Guard {
  const source = authenticate.source(loginType); // fails at start-up if the type is not registered
  const reasons = allowRestricted ? Authenticate.reasons : [...Authenticate.reasons, ...RESTRICTED_REASONS];
  const doc: GuardDoc = { kind: 'login', loginType, header: source.name, prefix: source.prefix, reasons, allowRestricted };
  return guard(doc, async function requireLogin(ctx, next) {
    const header = ctx.get(source.name) || undefined;
    const cookie = header === undefined && source.readCookie ? ctx.cookies.get(source.name) : undefined;
    await authenticateInto(ctx, authenticate, loginType, header, cookie, allowRestricted);
    await next();
  });
}

/**
 * For a public route that treats a caller with a session differently: a request that presents an
 * access token (header, or the cookie when the login type reads one) is authenticated like
 * requireLogin (a token that is not valid answers 401) and `ctx.state.auth` is set; a request that
 * presents none passes as anonymous.
 */
export function optionalLogin(authenticate: Authenticate, loginType: LoginType): Guard {
  const source = authenticate.source(loginType); // fails at start-up if the type is not registered
  const reasons = [...Authenticate.reasons, ...RESTRICTED_REASONS];
  return guard({ kind: 'other', optionalLogin: loginType, reasons }, async function optionalLogin(ctx, next) {
    const header = ctx.get(source.name) || undefined;
    const cookie = header === undefined && source.readCookie ? ctx.cookies.get(source.name) || undefined : undefined;
    if (header !== undefined || cookie !== undefined) await authenticateInto(ctx, authenticate, loginType, header, cookie, false);
    await next();
  });
}

async function authenticateInto(
  ctx: AppContext,
  authenticate: Authenticate,
  loginType: LoginType,
  header: string | undefined,
  cookie: string | undefined,
  allowRestricted: boolean,
): Promise<void> {
  const { tokenHash, record } = await authenticate.execute({ loginType, header, cookie });
  const pending = record.requiredActions;
  if (pending !== undefined && pending.length > 0 && !allowRestricted) {
    const action = pending[0] as RequiredAction;
    throw new DomainError(REQUIRED_ACTION_REASONS[action], `This session is restricted until you complete: ${pending.join(', ')}.`);
  }
  // Object.assign, not an object spread: a spread into a literal with more properties takes a
  // slow path on Node 20, and this runs on every authenticated request.
  const user: LoginUser = Object.assign({}, record.principal, { loginType, tokenId: record.tokenId });
  ctx.state.auth = { loginType, tokenHash, record, user };
}

function authOf(ctx: AppContext, loginType: LoginType): AuthState {
  const auth = ctx.state.auth;
  if (!auth || auth.loginType !== loginType) {
    // A route declared a permission guard without requireLogin before it: a wiring bug.
    throw new Error(`permission guard for "${loginType}" used without requireLogin("${loginType}")`);
  }
  return auth;
}

/** The current user (the seed specification's `LoginContext.getAdminUser()`: the session's principal); only after requireLogin. */
export function currentUser(ctx: AppContext): LoginUser {
  const auth = ctx.state.auth;
  if (!auth) throw new Error('currentUser() called on a route without requireLogin');
  return auth.user;
}
