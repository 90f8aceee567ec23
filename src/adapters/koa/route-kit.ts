/**
 * What every route table receives from its app's composition root: the app's guards and settings,
 * and `use`, which hands out a use case by its class. A table asks for its use cases once, when it
 * is built, never per request; the container stays in src/main (`use` wraps it).
 */
import type { LoginType } from '../../domain/login-type';
import type { AuthGuards, Guard } from './guards';
import type { IdempotencyMode } from './idempotency-guards';
import type { RateLimitGuardFactory } from './rate-limit';
import type { RouteDef } from './routes';

/** A use case's class (its constructor's parameters are the container's business). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UseCaseClass<T> = new (...args: any[]) => T;

/** The settings route tables read (guard limits, links). */
export interface RouteSettings {
  /** svc.captcha.rate-limit-per-minute: `GET /auth/captchaImage` per client IP. */
  readonly captchaPerMinute: number;
  /** `POST /auth/register` requests per hour per client IP. */
  readonly registerPerHour: number;
  /** svc.idempotency.token-rate-limit-per-minute: `GET /idempotent/token` per client IP, and per session when one is presented. */
  readonly idempotencyTokenPerMinute: number;
  /** svc.idempotency.param-ttl-seconds: how long a PARAM-mode lock holds by default. */
  readonly idempotencyParamTtlSeconds: number;
  /** Where problem `type` URIs point (`/problems/<reason>` pages). */
  readonly problemBaseUri: string;
}

export interface RouteKit {
  /** The app's login type: its access tokens, rate-limit scope and device cookie. */
  readonly loginType: LoginType;
  readonly guards: AuthGuards;
  readonly rateLimit: RateLimitGuardFactory;
  /** Duplicate-submission protection (after the permission guards, so refused callers take no lock). */
  readonly idempotent: (mode: IdempotencyMode) => Guard;
  readonly settings: RouteSettings;
  /** The app's instance of a use case (one per app); call it when the table is built. */
  readonly use: <T>(useCase: UseCaseClass<T>) => T;
}

/** A route table: the routes of one area, built from the kit of the app that mounts them. */
export type RouteTable = (kit: RouteKit) => RouteDef[];
