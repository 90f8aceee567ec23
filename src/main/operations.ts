/**
 * What every app gets besides its own routes: the access log, request metrics, the actuator,
 * the API description, security headers and CORS, around the app's routes and its error format.
 * Both composition roots end with `assembleApp`, so admin and web stay alike.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Container } from 'inversify';
import type Koa from 'koa';
import { QueuedAuditTrail } from '../application/audit/queued-audit-trail';
import { CheckHealth } from '../application/health/check-health';
import { auditEdgeOf, type EdgeAudit } from '../adapters/koa/audit-edge';
import { parseCidrList } from '../adapters/koa/client-ip';
import { createHttpApp } from '../adapters/koa/http-app';
import { checkPhaseEdgeProblem } from '../adapters/koa/middleware';
import { corsFor, securityHeaders } from '../adapters/koa/hygiene';
import { buildOpenApiDocument } from '../adapters/koa/openapi';
import type { DocumentLicense, DocumentMeta, DocumentServer } from '../adapters/koa/openapi-meta';
import { actuatorRoutes, type ActuatorOptions } from '../adapters/koa/routes/actuator-routes';
import { docsRoutes } from '../adapters/koa/routes/docs-routes';
import { accessLog } from '../adapters/koa/access-log';
import { requestMetrics } from '../adapters/koa/request-metrics';
import type { RouteDef } from '../adapters/koa/routes';
import type { AppMiddleware, AppState, Responder } from '../adapters/koa/state';
import { PromMetrics } from '../adapters/metrics/prom-metrics';
import { ConfigError, servedAppChecks, type AppConfig } from './config';
import type { Infrastructure } from './infrastructure';
import { packageRoot } from '../adapters/package-root';
import { inputFilter } from './container';

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
    'Admin application (login type "admin"). Every response is the `{code, message, data}` ' +
    'envelope: code 0 on success; an error keeps the real HTTP status, a non-zero code and data null.',
  web:
    'Consumer web application (login type "web"). Errors are RFC 9457 ' +
    '`application/problem+json` with a `code` extension holding the reason.',
};

interface PackageInfo {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  /** package.json `license`: an SPDX expression, `UNLICENSED` or `SEE LICENSE IN <file>`. */
  readonly license: string;
}

function packageInfo(): PackageInfo {
  try {
    const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as Record<string, unknown>;
    return {
      name: String(pkg.name),
      version: String(pkg.version),
      description: String(pkg.description ?? ''),
      license: String(pkg.license ?? 'UNLICENSED'),
    };
  } catch {
    return { name: 'authguard', version: 'unknown', description: '', license: 'UNLICENSED' };
  }
}

/**
 * `info.license` from package.json: an SPDX expression is both the name and the 3.1 `identifier`.
 * `UNLICENSED` (proprietary, nothing granted) and `SEE LICENSE IN <file>` have no SPDX identifier
 * and no URL to give, so the document carries no License object at all (a name alone is refused by
 * @apidevtools/swagger-parser and the tools built on it).
 */
export function licenseOf(license: string): DocumentLicense | undefined {
  const spdx = license.trim();
  if (spdx === '' || spdx === 'UNLICENSED' || /^SEE LICEN[CS]E IN /i.test(spdx)) return undefined;
  if (!/^[A-Za-z0-9.+\-:() ]+$/.test(spdx)) return undefined;
  return { name: spdx, identifier: spdx };
}

/**
 * `servers`: the app's public base URL (`svc.security.sign.public-urls`, what the proxy maps to the
 * app's root). Without one, dev and test name the local port, and prod a relative `/` (the host
 * that served the document), rather than guess a host name.
 */
export function serversOf(app: AppName, config: AppConfig): DocumentServer[] {
  const configured = Object.hasOwn(config.sign.publicUrls, app) ? config.sign.publicUrls[app] : undefined;
  if (configured) return [{ url: configured, description: `Public base URL of the ${app} app (svc.security.sign.public-urls)` }];
  const port = app === 'admin' ? config.adminPort : config.webPort;
  if (config.profile === 'prod' || port === 0) {
    return [{ url: '/', description: 'The host that served this document (svc.security.sign.public-urls is not set)' }];
  }
  return [{ url: `http://localhost:${port}`, description: `Local ${config.profile} instance (svc.${app}.port)` }];
}

function documentMeta(input: OperationsInput, pkg: PackageInfo): DocumentMeta {
  const { name, url, email } = input.config.openapiContact;
  const license = licenseOf(pkg.license);
  return {
    contact: { name, ...(url ? { url } : {}), ...(email ? { email } : {}) },
    ...(license ? { license } : {}),
    servers: serversOf(input.app, input.config),
  };
}

function actuatorOptions(input: OperationsInput, metrics: PromMetrics): ActuatorOptions {
  const { config, container } = input;
  const pkg = packageInfo();
  // Prod tells name and version only: the runtime version and start time help an attacker more than an operator.
  const info =
    config.profile === 'prod'
      ? { app: { name: pkg.name, version: pkg.version } }
      : {
          app: { name: pkg.name, version: pkg.version, description: pkg.description, component: input.app },
          profile: config.profile,
          startTime: startedAt.toISOString(),
          node: process.version,
        };
  return {
    exposure: new Set(config.actuator.exposure),
    showDetails: config.actuator.showDetails,
    health: container.get(CheckHealth),
    info: () => info,
    prometheus: () => metrics.exposition(),
  };
}

export function operations(input: OperationsInput): Operations {
  const metrics = input.container.get(PromMetrics);
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
      meta: documentMeta(input, pkg),
    });
  }
  return { routes, outer };
}

/** The app's audit trail at the edge, unless it has no sink. */
function auditOf(input: OperationsInput): { audit?: EdgeAudit } {
  const trail = input.container.get(QueuedAuditTrail);
  return trail.enabled ? { audit: auditEdgeOf(trail, input.app) } : {};
}

export interface BuiltApp {
  readonly app: Koa<AppState>;
  readonly container: Container;
  /** Every mounted route (the app's own and the operational ones). */
  readonly routes: readonly RouteDef[];
}

/** The app's routes with the operational ones, behind the shared edge, answering in `responder`'s format. */
export function assembleApp(input: OperationsInput & { readonly responder: Responder }): BuiltApp {
  // start.ts checks every app it serves before listening; this refuses any other composition too.
  const problems = servedAppChecks(input.config, [input.app]);
  if (problems.length > 0) throw new ConfigError(problems);
  const ops = operations(input);
  const app = createHttpApp({
    realm: input.app,
    responder: input.responder,
    routes: ops.routes,
    outer: ops.outer,
    trustedProxies: parseCidrList(input.config.trustedProxies),
    bodyLimitBytes: input.config.bodyLimitBytes,
    maxQueryParams: input.config.maxQueryParams,
    log: input.infra.log,
    pre: [inputFilter(input.config)],
    ...auditOf(input),
  });
  // The local session cache answers hits at once only behind an edge that starts every request in
  // its turn's check phase; an app assembled otherwise makes it wait its own turn, and says why.
  const problem = checkPhaseEdgeProblem(app.middleware);
  if (problem !== null) input.infra.sessionReaderWithoutCheckPhaseEdge?.(`${input.app} app: ${problem}`);
  return { app, container: input.container, routes: ops.routes };
}
