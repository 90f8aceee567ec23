/**
 * Aggregates the health indicators: UP only when every component checked is UP. Checks run in
 * parallel, each bounded by a timeout, and a check that throws is reported DOWN (never a 500).
 */
import { injectable, multiInject } from 'inversify';
import type { HealthIndicator } from '../ports/health-indicator';
import type { StoreHealth } from '../ports/store-health';
import { TOKENS } from '../tokens';
import type { Reason } from '../../domain/errors';

export type HealthStatus = 'UP' | 'DOWN';

export interface ComponentHealth {
  readonly status: HealthStatus;
  readonly details?: Readonly<Record<string, unknown>>;
}

export interface HealthReport {
  readonly status: HealthStatus;
  readonly components: Readonly<Record<string, ComponentHealth>>;
}

/** `all`: every component; `readiness`: only those the app cannot serve without. */
export type HealthGroup = 'all' | 'readiness';

/** How long one component's check may take before it is reported DOWN. */
export const HEALTH_CHECK_TIMEOUT_MS = 3000;

@injectable()
export class CheckHealth {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [];

  private timeoutMs = HEALTH_CHECK_TIMEOUT_MS;

  constructor(@multiInject(TOKENS.HealthIndicator) private readonly indicators: readonly HealthIndicator[]) {}

  /** A shorter (or longer) per-component timeout; returns this. */
  withTimeout(ms: number): this {
    this.timeoutMs = ms;
    return this;
  }

  async execute(group: HealthGroup = 'all'): Promise<HealthReport> {
    const chosen = this.indicators.filter((i) => group === 'all' || i.readiness);
    const results = await Promise.all(chosen.map((i) => this.run(i)));
    const components: Record<string, ComponentHealth> = {};
    chosen.forEach((ind, n) => (components[ind.name] = results[n] as ComponentHealth));
    const status: HealthStatus = results.every((r) => r.status === 'UP') ? 'UP' : 'DOWN';
    return { status, components };
  }

  private async run(indicator: HealthIndicator): Promise<ComponentHealth> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    const check = indicator.check();
    check.catch(() => undefined); // a late rejection after the timeout must not go unhandled
    try {
      const r = await Promise.race([check, timeout]);
      return { status: r.up ? 'UP' : 'DOWN', ...(r.details ? { details: r.details } : {}) };
    } catch (e) {
      return { status: 'DOWN', details: { error: e instanceof Error ? e.message : String(e) } };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The store as a health component: a ping, with its latency; the app is not ready without it. */
export function storeHealthIndicator(health: StoreHealth, kind: string): HealthIndicator {
  return {
    name: 'store',
    readiness: true,
    async check() {
      const p = await health.ping();
      return {
        up: p.up,
        details: { kind, ...p.details, latencyMs: Math.round(p.latencyMs * 100) / 100, ...(p.detail ? { error: p.detail } : {}) },
      };
    },
  };
}
