import type { SignScheme } from '../../domain/signing';

/** Settings of request signing (from `svc.security.sign.*`). */
export interface SignSettings {
  readonly enabled: boolean;
  readonly timeoutSeconds: number;
  readonly nonceTtlSeconds: number;
  /** app key -> app secret */
  readonly apps: Readonly<Record<string, string>>;
  /** app key -> the schemes it may sign with; an app not listed signs with v1 only. */
  readonly schemes: Readonly<Record<string, readonly SignScheme[]>>;
  /** Koa app name (admin, web) -> the public base URL its RFC 9421 `@target-uri` starts with. */
  readonly publicUrls: Readonly<Record<string, string>>;
}
