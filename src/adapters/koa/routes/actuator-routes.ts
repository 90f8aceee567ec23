/**
 * The actuator (spec: GET /actuator/**, availability by profile): health with components,
 * liveness and readiness probes, info and Prometheus metrics. Only exposed endpoints are
 * mounted, so an unexposed one answers the app's own 404. Bodies are plain JSON (what
 * orchestrators and Spring-style tooling read), not the admin envelope; DOWN is HTTP 503.
 */
import type { CheckHealth, HealthReport } from '../../../application/health/check-health';
import type { RouteDef } from '../routes';
import type { AppContext } from '../state';

export type ActuatorEndpoint = 'health' | 'info' | 'prometheus';
export const ACTUATOR_ENDPOINTS: readonly ActuatorEndpoint[] = ['health', 'info', 'prometheus'];

export interface ActuatorOptions {
  readonly exposure: ReadonlySet<ActuatorEndpoint>;
  /** Show components and their details in health answers (dev/test); otherwise status only. */
  readonly showDetails: boolean;
  readonly health: CheckHealth;
  readonly info: () => Readonly<Record<string, unknown>>;
  readonly prometheus: () => Promise<{ contentType: string; body: string }>;
}

const JSON_TYPE = 'application/json';

function writeHealth(ctx: AppContext, report: HealthReport, showDetails: boolean): void {
  ctx.status = report.status === 'UP' ? 200 : 503;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = JSON_TYPE;
  ctx.body = showDetails ? report : { status: report.status };
}

const TAGS = ['actuator'];
const RAW_JSON = { contentType: JSON_TYPE };

function healthRoutes(o: ActuatorOptions): RouteDef[] {
  return [
    {
      method: 'get',
      path: '/actuator/health',
      summary: 'Health: UP when every component (store, ...) is up; 503 when DOWN',
      tags: TAGS,
      raw: RAW_JSON,
      handler: async (ctx) => writeHealth(ctx, await o.health.execute('all'), o.showDetails),
    },
    {
      method: 'get',
      path: '/actuator/health/liveness',
      summary: 'Liveness probe: UP while the process answers',
      tags: TAGS,
      raw: RAW_JSON,
      handler: async (ctx) => writeHealth(ctx, { status: 'UP', components: {} }, false),
    },
    {
      method: 'get',
      path: '/actuator/health/readiness',
      summary: 'Readiness probe: DOWN (503) while the store is unreachable',
      tags: TAGS,
      raw: RAW_JSON,
      handler: async (ctx) => writeHealth(ctx, await o.health.execute('readiness'), o.showDetails),
    },
  ];
}

function infoRoute(o: ActuatorOptions): RouteDef {
  return {
    method: 'get',
    path: '/actuator/info',
    summary: 'Name and version (in prod nothing more); elsewhere also the profile, start time and Node version',
    tags: TAGS,
    raw: RAW_JSON,
    handler: async (ctx) => {
      ctx.type = JSON_TYPE;
      ctx.body = o.info();
    },
  };
}

function prometheusRoute(o: ActuatorOptions): RouteDef {
  return {
    method: 'get',
    path: '/actuator/prometheus',
    summary: 'Metrics in the Prometheus text format',
    tags: TAGS,
    raw: { contentType: 'text/plain' },
    handler: async (ctx) => {
      const { contentType, body } = await o.prometheus();
      ctx.set('Cache-Control', 'no-store');
      ctx.type = contentType;
      ctx.body = body;
    },
  };
}

export function actuatorRoutes(o: ActuatorOptions): RouteDef[] {
  return [
    ...(o.exposure.has('health') ? healthRoutes(o) : []),
    ...(o.exposure.has('info') ? [infoRoute(o)] : []),
    ...(o.exposure.has('prometheus') ? [prometheusRoute(o)] : []),
  ];
}
