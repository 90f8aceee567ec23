/** Liveness of the backing store (for readiness probes and shutdown). */
export interface StoreHealth {
  ping(): Promise<{ up: boolean; latencyMs: number; detail?: string }>;
  close(): Promise<void>;
}
