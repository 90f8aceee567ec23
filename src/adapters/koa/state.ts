/** Typed `ctx.state` shared by the middleware and handlers of both apps. */
import type { Context, Middleware, ParameterizedContext } from 'koa';
import type { Principal, SessionRecord } from '../../domain/session';
import type { DomainError } from '../../domain/errors';
import type { LoginType } from '../../domain/login-type';

export interface Responder {
  /** Writes a success body in the app's format. */
  success(ctx: Context, data: unknown, status: number): void;
  /** Writes an error in the app's format (status, headers and body). */
  error(ctx: Context, err: DomainError): void;
}

/** The logged-in caller (what the seed specification calls SystemLoginUser, read with `LoginContext.getAdminUser()`: the session's
 * principal). */
export interface LoginUser extends Principal {
  readonly loginType: LoginType;
  readonly tokenId: string;
}

export interface AuthState {
  readonly loginType: LoginType;
  readonly tokenHash: string;
  readonly record: SessionRecord;
  readonly user: LoginUser;
}

/** Who a security event is about, as the edge finds it (never a token: its token id). */
export interface AuditSubject {
  readonly userId?: string | undefined;
  readonly username?: string | undefined;
  readonly tokenId?: string | undefined;
}

export interface AppState {
  requestId: string;
  clientIp: string;
  responder: Responder;
  auth?: AuthState;
  /** The app key of a verified request signature (set by requireSignature). */
  signedBy?: string;
  /** The validated request body (set by validateBody). */
  body?: unknown;
  /** The validated query string of a route that declares `query` (its schema is an object). */
  query?: Readonly<Record<string, unknown>>;
  /** An audited route's handler result (set by the router for routes that declare `audit`). */
  result?: unknown;
  /** What a handler knows of the event's subject that its result does not show (a login's user id). */
  subject?: AuditSubject;
  /** The route's own event was recorded (auditRefusals records no second one). */
  audited?: boolean;
}

export type AppContext = ParameterizedContext<AppState>;
export type AppMiddleware = Middleware<AppState>;
