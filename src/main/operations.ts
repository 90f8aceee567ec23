/**
 * What every app gets besides its own routes: the access log (and, as they are added, request
 * metrics, the actuator, the API description, security headers and CORS). Both composition roots
 * call this once, so admin and web stay alike.
 */
import type { Container } from 'inversify';
import { accessLog } from '../adapters/koa/access-log';
import { requestMetrics } from '../adapters/koa/request-metrics';
import type { RouteDef } from '../adapters/koa/routes';
import type { AppMiddleware } from '../adapters/koa/state';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import { MAIN_TOKENS } from './tokens';

export type AppName = 'admin' | 'web';

export interface OperationsInput {
  readonly app: AppName;
  readonly config: AppConfig;
  readonly infra: Infrastructure;
  readonly container: Container;
  /** The app's own routes. */
  readonly routes: readonly RouteDef[];
}

export interface Operations {
  /** The app's routes plus the operational ones: mount exactly these. */
  readonly routes: readonly RouteDef[];
  /** Middleware that wraps the error edge (HttpAppOptions.outer). */
  readonly outer: readonly AppMiddleware[];
}

export function operations(input: OperationsInput): Operations {
  const metrics = input.container.get(MAIN_TOKENS.PromMetrics);
  const outer: AppMiddleware[] = [
    accessLog({ log: input.infra.log }),
    requestMetrics((method, route, status, seconds) => metrics.httpRequest(method, route, status, seconds)),
  ];
  return { routes: [...input.routes], outer };
}
