/**
 * The route kit of an app (src/adapters/koa/route-kit.ts): its guards, the settings its route
 * tables read, and `use`, the container's `get` for use case classes. The route tables an app
 * mounts are listed in its composition root (admin.ts, web.ts); nothing else names their use cases.
 */
import type { Container } from 'inversify';
import { CheckRateLimit } from '../application/auth/check-rate-limit';
import type { LoginType } from '../domain/login-type';
import { idempotencyGuards } from '../adapters/koa/idempotency-guards';
import { rateLimiter } from '../adapters/koa/rate-limit';
import type { RouteKit, RouteTable } from '../adapters/koa/route-kit';
import type { RouteDef } from '../adapters/koa/routes';
import type { AppConfig } from './config';
import { authGuardsOf, idempotencyGuardDeps } from './container';
import type { Infrastructure } from './infrastructure';

export function routeKitOf(container: Container, config: AppConfig, infra: Infrastructure, loginType: LoginType): RouteKit {
  const guards = authGuardsOf(container);
  const { idempotent } = idempotencyGuards(idempotencyGuardDeps(container, config, infra));
  return {
    loginType,
    guards,
    rateLimit: rateLimiter(container.get(CheckRateLimit), loginType),
    idempotent,
    settings: {
      captchaPerMinute: config.captcha.ratePerMinute,
      registerPerHour: config.registerPerHour,
      idempotencyTokenPerMinute: config.idempotency.tokenRatePerMinute,
      idempotencyParamTtlSeconds: config.idempotency.paramTtlSeconds,
      problemBaseUri: config.problemBaseUri,
    },
    use: (useCase) => container.get(useCase),
  };
}

/** The routes of `tables`, in their order (each table asks the kit for its use cases now, once). */
export function mount(kit: RouteKit, tables: readonly RouteTable[]): RouteDef[] {
  return tables.flatMap((table) => table(kit));
}
