/**
 * Security events recorded at the edge, not in the use cases (docs/audit.md): a route that
 * declares `audit` records one event when it answers, with its outcome (success, or the reason of
 * the DomainError it answered with); `auditRefusals` records the refusals any route may answer with
 * (403 permission, 429 rate limit, signature and nonce, idempotency conflicts, a session refused on
 * use, a reused refresh token). A successful request of a route without `audit` records nothing,
 * so the authenticated read path writes no event.
 *
 * Who an event is about: the session (`ctx.state.auth`) when there is one; else what the route's
 * `subject` takes from the validated body, then `userId` / `username` of the handler's result and
 * the token id of its `accessToken` (never the token), then `ctx.state.subject` set by a handler.
 * For an operation (an `action`), the session's user is the `actor` and the subject is the target.
 */
import { isDomainError, type Reason } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';
import type { SecurityEventInput, SecurityEventType } from '../../application/audit/security-event';
import type { AuditTrail } from '../../application/ports/audit-trail';
import { hashToken, tokenIdOf } from '../../application/session/session-token';
import type { AppContext, AppMiddleware, AuditSubject } from './state';

/** What a route declares to be recorded (`RouteDef.audit`). */
export interface RouteAudit<Params = Readonly<Record<string, string>>, Body = unknown> {
  readonly type: SecurityEventType;
  /** Operations: what was done, dotted (`user.disable`); puts the event in the operation log. */
  readonly action?: string;
  /**
   * What it was done to, from the path parameters, or from the handler's result (`result`, a success's only: the id
   * of what a creation made); an operation's default: the subject's user id.
   */
  target?(params: Params, result: unknown): string | undefined;
  /** Operations: the request summarised from chosen fields of the validated body, never copied whole. */
  summary?(body: Body): string | undefined;
  /** Who the event is about, from the validated body (a login's username, also on failure). */
  subject?(body: Body): AuditSubject;
  /** The event type of a failure with these reasons (a reused refresh token is `refresh-reused`). */
  readonly failures?: Partial<Record<Reason, SecurityEventType>>;
}

/** The trail an app records to, and its login type. */
export interface EdgeAudit {
  readonly trail: AuditTrail;
  readonly loginType: LoginType;
  /** Repeated refusals (a flood) make one event per window (one per app: auditEdgeOf). */
  readonly repeats: RepeatFilter;
}

/**
 * One event per key and window: a client hammering a route it is refused (429s by the thousand,
 * bad signatures) makes one event a minute, not one per request, so a flood cannot fill the trail
 * or the store. Bounded: past `maxKeys` keys it forgets them all (at worst some repeats get through).
 */
export class RepeatFilter {
  private readonly until = new Map<string, number>();
  constructor(
    private readonly windowMs = 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  /** Whether an event under `key` is recorded now (false: one was, less than a window ago). */
  first(key: string, now = Date.now()): boolean {
    const until = this.until.get(key);
    if (until !== undefined && until > now) return false;
    if (this.until.size >= this.maxKeys) this.until.clear();
    this.until.set(key, now + this.windowMs);
    return true;
  }
}

export function auditEdgeOf(trail: AuditTrail, loginType: LoginType): EdgeAudit {
  return { trail, loginType, repeats: new RepeatFilter() };
}

/** Failures of an audited route that are not recorded: nobody presented anything (anonymous probing would flood the trail). */
const ANONYMOUS: ReadonlySet<Reason> = new Set<Reason>(['token-missing', 'token-bad-prefix', 'token-invalid']);

/** The refusals recorded on any route, by the event type they make. */
export const REFUSAL_TYPES: Readonly<Partial<Record<Reason, SecurityEventType>>> = {
  'permission-denied': 'access-denied',
  'role-denied': 'access-denied',
  'delegation-denied': 'access-denied',
  'rate-limited': 'rate-limited',
  'sign-headers-missing': 'signature-refused',
  'sign-nonce-invalid': 'signature-refused',
  'sign-input-invalid': 'signature-refused',
  'sign-timestamp-invalid': 'signature-refused',
  'sign-digest-mismatch': 'signature-refused',
  'sign-invalid': 'signature-refused',
  'sign-nonce-replayed': 'nonce-replayed',
  'duplicate-submission': 'idempotency-conflict',
  'idempotency-token-invalid': 'idempotency-conflict',
  'idempotency-token-session-mismatch': 'idempotency-conflict',
  'idempotency-key-mismatch': 'idempotency-conflict',
  'idempotency-in-progress': 'idempotency-conflict',
  'token-expired': 'session-refused',
  'token-frozen': 'session-refused',
  'token-kicked-out': 'session-refused',
  'token-replaced': 'session-refused',
  'refresh-token-reused': 'refresh-reused',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** userId, username and the token id of `accessToken` in a handler's result. */
function resultSubject(result: unknown): AuditSubject {
  if (result === null || typeof result !== 'object') return {};
  const r = result as Record<string, unknown>;
  const token = str(r.accessToken);
  return { userId: str(r.userId), username: str(r.username), tokenId: token === undefined ? undefined : tokenIdOf(hashToken(token)) };
}

/** The first defined value of each field, in the order given. */
function merge(...subjects: AuditSubject[]): AuditSubject {
  const out: { userId?: string; username?: string; tokenId?: string } = {};
  for (const s of subjects) {
    out.userId ??= s.userId;
    out.username ??= s.username;
    out.tokenId ??= s.tokenId;
  }
  return out;
}

/** Where the request came from. */
function origin(ctx: AppContext): Pick<SecurityEventInput, 'ip' | 'userAgent' | 'requestId'> {
  return { ip: ctx.state.clientIp, userAgent: ctx.get('User-Agent'), requestId: ctx.state.requestId };
}

function routeEvent(ctx: AppContext, spec: RouteAudit, loginType: LoginType, failure: Reason | undefined): SecurityEventInput {
  const user = ctx.state.auth?.user;
  const fromBody = (ctx.state.body === undefined ? undefined : spec.subject?.(ctx.state.body)) ?? {};
  const found = merge(fromBody, resultSubject(ctx.state.result), ctx.state.subject ?? {});
  const type = failure === undefined ? spec.type : (spec.failures?.[failure] ?? spec.type);
  const base = { type, loginType, outcome: failure === undefined ? 'success' : 'failure', reason: failure, ...origin(ctx) } as const;
  const target = spec.target?.(ctx.params ?? {}, failure === undefined ? ctx.state.result : undefined);
  if (spec.action === undefined) {
    const who = user === undefined ? found : { userId: user.userId, username: user.username, tokenId: user.tokenId };
    return { ...base, ...who, target };
  }
  const summary = ctx.state.body === undefined ? undefined : spec.summary?.(ctx.state.body);
  return {
    ...base,
    userId: found.userId,
    username: found.username,
    actor: user?.username,
    action: spec.action,
    target: target ?? found.userId,
    summary,
  };
}

/** Records the route's event when it answers (first in its chain: its guards' refusals are its failures). */
export function auditedRoute(spec: RouteAudit, edge: EdgeAudit): AppMiddleware {
  return async function audited(ctx, next) {
    try {
      await next();
    } catch (e) {
      const reason: Reason = isDomainError(e) ? e.reason : 'internal-error';
      if (!ANONYMOUS.has(reason)) {
        ctx.state.audited = true;
        // A rate-limited flood of a route makes one event per client and window.
        if (reason !== 'rate-limited' || edge.repeats.first(`${ctx.state.clientIp} ${ctx.method} ${ctx.path}`)) {
          edge.trail.record(routeEvent(ctx, spec, edge.loginType, reason));
        }
      }
      throw e;
    }
    ctx.state.audited = true;
    edge.trail.record(routeEvent(ctx, spec, edge.loginType, undefined));
  };
}

/** Records the refusals of REFUSAL_TYPES on any route whose own event did not (inside the error edge). */
export function auditRefusals(edge: EdgeAudit): AppMiddleware {
  return async function auditRefusals(ctx, next) {
    try {
      await next();
    } catch (e) {
      const type = isDomainError(e) && ctx.state.audited !== true ? REFUSAL_TYPES[e.reason] : undefined;
      const user = ctx.state.auth?.user;
      const target = `${ctx.method} ${ctx.path}`.slice(0, 128);
      if (
        type !== undefined &&
        isDomainError(e) &&
        edge.repeats.first(`${e.reason} ${ctx.state.clientIp} ${user?.tokenId ?? ''} ${target}`)
      ) {
        edge.trail.record({
          type,
          loginType: edge.loginType,
          outcome: 'failure',
          reason: e.reason,
          ...origin(ctx),
          ...(user === undefined ? {} : { userId: user.userId, username: user.username, tokenId: user.tokenId }),
          target,
        });
      }
      throw e;
    }
  };
}
