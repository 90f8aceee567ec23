/** Builds one Koa application from a route table: the shared edge for admin and web. */
import Koa from 'koa';
import type { Logger } from '../../application/ports/logger';
import { auditRefusals, type EdgeAudit } from './audit-edge';
import type { TrustedProxies } from './client-ip';
import { methodNotAllowed } from './method-not-allowed';
import { errorEdge, jsonBody, queryParamLimit, requestContext } from './middleware';
import { buildRouter, type RouteDef } from './routes';
import type { AppMiddleware, AppState, Responder } from './state';

export interface HttpAppOptions {
  readonly realm: string;
  readonly responder: Responder;
  readonly routes: readonly RouteDef[];
  readonly trustedProxies: TrustedProxies;
  readonly bodyLimitBytes: number;
  /** More query parameters than this answer 400 too-many-query-params (default 1,000, Node's silent cut). */
  readonly maxQueryParams?: number;
  readonly log: Logger;
  /** Middleware that runs for every request after the error edge, before routing (filters). */
  readonly pre?: readonly AppMiddleware[];
  /**
   * Middleware that wraps the error edge (after the request id is set), so it sees the final
   * status of every response: access log, request metrics, security headers, CORS.
   */
  readonly outer?: readonly AppMiddleware[];
  /** Where security events are recorded (docs/audit.md); absent: none are. */
  readonly audit?: EdgeAudit;
}

export function createHttpApp(opts: HttpAppOptions): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = false; // client IPs come from our own trusted-proxy walk, never from Koa's
  app.silent = true; // the error edge logs; Koa must not print stack traces
  const router = buildRouter(opts.routes, opts.audit);
  app.use(requestContext({ responder: opts.responder, trustedProxies: opts.trustedProxies, realm: opts.realm }));
  for (const mw of opts.outer ?? []) app.use(mw);
  app.use(errorEdge({ log: opts.log }));
  if (opts.audit !== undefined) app.use(auditRefusals(opts.audit));
  app.use(queryParamLimit(opts.maxQueryParams ?? 1000));
  for (const mw of opts.pre ?? []) app.use(mw);
  app.use(jsonBody({ limitBytes: opts.bodyLimitBytes }));
  app.use(router.routes());
  app.use(methodNotAllowed(router));
  app.on('error', (err: unknown) => opts.log.error({ err }, 'koa error'));
  return app;
}
