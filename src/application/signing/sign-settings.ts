/** Settings of request signing (from `svc.security.sign.*`). */
export interface SignSettings {
  readonly enabled: boolean;
  readonly timeoutSeconds: number;
  readonly nonceTtlSeconds: number;
  /** app key -> app secret */
  readonly apps: Readonly<Record<string, string>>;
}
