/** Liveness of the backing store (for readiness probes and shutdown). */
export interface StoreHealth {
  /** `details`: what the adapter can say about its topology (mode, nodes), for the health details. */
  ping(): Promise<{ up: boolean; latencyMs: number; detail?: string; details?: Readonly<Record<string, unknown>> }>;
  close(): Promise<void>;
}
