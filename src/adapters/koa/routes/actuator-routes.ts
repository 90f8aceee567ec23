/**
 * The actuator (spec: GET /actuator/**, availability by profile): health with components,
 * liveness and readiness probes, info and Prometheus metrics. Only exposed endpoints are
 * mounted, so an unexposed one answers the app's own 404. Bodies are plain JSON (what
 * orchestrators and Spring-style tooling read), not the admin envelope; DOWN is HTTP 503.
 */
import type { CheckHealth, HealthReport } from '../../../application/health/check-health';
import { route, type RawResponse, type RouteDef } from '../routes';
import { AppInfo, HealthReport as HealthReportSchema, PrometheusText } from '../schemas/operation-schemas';
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
const HEALTH: RawResponse = { content: { [JSON_TYPE]: HealthReportSchema } };
/** Health answers that can be DOWN: 503 with the same report. */
const HEALTH_OR_DOWN: RawResponse = {
  ...HEALTH,
  otherStatuses: { 503: 'DOWN: a component checked is down (the report says which where details are shown)' },
};

function healthRoutes(o: ActuatorOptions): RouteDef[] {
  return [
    route({
      method: 'get',
      path: '/actuator/health',
      summary: 'Health: UP when every component (store, ...) is up; 503 when DOWN',
      tags: TAGS,
      raw: HEALTH_OR_DOWN,
      handler: async (ctx) => writeHealth(ctx, await o.health.execute('all'), o.showDetails),
    }),
    route({
      method: 'get',
      path: '/actuator/health/liveness',
      summary: 'Liveness probe: UP while the process answers',
      tags: TAGS,
      raw: HEALTH,
      handler: async (ctx) => writeHealth(ctx, { status: 'UP', components: {} }, false),
    }),
    route({
      method: 'get',
      path: '/actuator/health/readiness',
      summary: 'Readiness probe: DOWN (503) while the store is unreachable',
      tags: TAGS,
      raw: HEALTH_OR_DOWN,
      handler: async (ctx) => writeHealth(ctx, await o.health.execute('readiness'), o.showDetails),
    }),
  ];
}

function infoRoute(o: ActuatorOptions): RouteDef {
  return route({
    method: 'get',
    path: '/actuator/info',
    summary: 'Name and version (in prod nothing more); elsewhere also the profile, start time and Node version',
    tags: TAGS,
    raw: { content: { [JSON_TYPE]: AppInfo } },
    handler: async (ctx) => {
      ctx.type = JSON_TYPE;
      ctx.body = o.info();
    },
  });
}

function prometheusRoute(o: ActuatorOptions): RouteDef {
  return route({
    method: 'get',
    path: '/actuator/prometheus',
    summary: 'Metrics in the Prometheus text format',
    tags: TAGS,
    raw: { content: { 'text/plain': PrometheusText } },
    handler: async (ctx) => {
      const { contentType, body } = await o.prometheus();
      ctx.set('Cache-Control', 'no-store');
      ctx.type = contentType;
      ctx.body = body;
    },
  });
}

export function actuatorRoutes(o: ActuatorOptions): RouteDef[] {
  return [
    ...(o.exposure.has('health') ? healthRoutes(o) : []),
    ...(o.exposure.has('info') ? [infoRoute(o)] : []),
    ...(o.exposure.has('prometheus') ? [prometheusRoute(o)] : []),
  ];
}
