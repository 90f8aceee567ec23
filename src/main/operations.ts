/**
 * What every app gets besides its own routes: the access log (and, as they are added, request
 * metrics, the actuator, the API description, security headers and CORS). Both composition roots
 * call this once, so admin and web stay alike.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Container } from 'inversify';
import { CheckHealth } from '../application/health/check-health';
import { TOKENS } from '../application/tokens';
import { corsFor, securityHeaders } from '../adapters/koa/hygiene';
import { buildOpenApiDocument } from '../adapters/koa/openapi';
import { actuatorRoutes, type ActuatorOptions } from '../adapters/koa/routes/actuator-routes';
import { docsRoutes } from '../adapters/koa/routes/docs-routes';
import type { PromMetrics } from '../adapters/metrics/prom-metrics';
import { accessLog } from '../adapters/koa/access-log';
import { requestMetrics } from '../adapters/koa/request-metrics';
import type { RouteDef } from '../adapters/koa/routes';
import type { AppMiddleware } from '../adapters/koa/state';
import type { AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import { MAIN_TOKENS } from './tokens';
import { packageRoot } from '../adapters/package-root';

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

const startedAt = new Date();

const DESCRIPTIONS: Readonly<Record<AppName, string>> = {
  admin:
    'Admin application (login type "admin"). Every response is the `{code, message, data}` envelope: code 0 on success; an error keeps the real HTTP status, a non-zero code and data null.',
  web: 'Consumer web application (login type "web"). Errors are RFC 9457 `application/problem+json` with a `code` extension holding the reason.',
};

function packageInfo(): { name: string; version: string; description: string } {
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as Record<string, unknown>;
    return { name: String(pkg.name), version: String(pkg.version), description: String(pkg.description ?? '') };
  } catch {
    return { name: 'authguard', version: 'unknown', description: '' };
  }
}

function actuatorOptions(input: OperationsInput, metrics: PromMetrics): ActuatorOptions {
  const { config, container } = input;
  const pkg = packageInfo();
  const info = {
    app: { name: pkg.name, version: pkg.version, description: pkg.description, component: input.app },
    profile: config.profile,
    startTime: startedAt.toISOString(),
    node: process.version,
  };
  return {
    exposure: new Set(config.actuator.exposure),
    showDetails: config.actuator.showDetails,
    health: new CheckHealth(container.getAll(TOKENS.HealthIndicator)),
    info: () => info,
    prometheus: () => metrics.exposition(),
  };
}

export function operations(input: OperationsInput): Operations {
  const metrics = input.container.get(MAIN_TOKENS.PromMetrics);
  const outer: AppMiddleware[] = [
    accessLog({ log: input.infra.accessLog, app: input.app }),
    requestMetrics((method, route, status, seconds) => metrics.httpRequest(method, route, status, seconds)),
    securityHeaders(),
  ];
  const cors = corsFor(input.config.corsAllowedOrigins);
  if (cors) outer.push(cors);
  const routes: RouteDef[] = [...input.routes, ...actuatorRoutes(actuatorOptions(input, metrics))];
  if (input.config.openapiEnabled) {
    const pkg = packageInfo();
    const built: { document?: Record<string, unknown> } = {};
    routes.push(...docsRoutes({ title: `${pkg.name} ${input.app} API`, document: () => built.document ?? {} }));
    // Built once, from exactly the routes that are mounted (the docs routes included).
    built.document = buildOpenApiDocument({
      title: `${pkg.name} ${input.app} API`,
      version: pkg.version,
      description: DESCRIPTIONS[input.app],
      format: input.app === 'admin' ? 'envelope' : 'problem',
      routes,
    });
  }
  return { routes, outer };
}
