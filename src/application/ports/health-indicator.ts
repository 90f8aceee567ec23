/**
 * One named health check (store ping, user directory, ...). The health use case runs every
 * registered indicator; new components are added by binding one more indicator.
 */
export interface HealthIndicator {
  /** Component name in the health report ("store", "userDirectory"). */
  readonly name: string;
  /** Whether the app is not ready to take traffic while this component is down. */
  readonly readiness: boolean;
  check(): Promise<{ readonly up: boolean; readonly details?: Readonly<Record<string, unknown>> }>;
}
