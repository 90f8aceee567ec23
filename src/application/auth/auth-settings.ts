import type { CaptchaType } from '../ports/captcha-generator';

/** The configuration the authentication use cases read (bound per app by the composition root). */
export interface AuthSettings {
  readonly captcha: { readonly enabled: boolean; readonly type: CaptchaType; readonly ttlSeconds: number };
  readonly refreshTokenTtlSeconds: number;
  /** Absolute lifetime of a refresh-token family, however often it rotates. */
  readonly refreshTokenAbsoluteTtlSeconds: number;
  readonly bcryptCost: number;
  /** Consecutive failed logins of one username before it is locked; 0 = off. */
  readonly maxLoginFailures: number;
  readonly lockSeconds: number;
  /** Failures admitted with a solved captcha once the shared budget is spent; 0 = a spent budget refuses (429). */
  readonly captchaMaxFailures: number;
  /** How long a spent shared budget remembers its failures after the last one (and refuses once the captcha cap is reached). */
  readonly hardLockSeconds: number;
  /** Sensitive routes need a re-authentication within this many seconds (step-up). */
  readonly stepUpMaxAgeSeconds: number;
  /** IANA zone of `expires`. */
  readonly timeZone: string;
  /** Device cookies: the keys (the current one first; every one verifies), lifetime, HTTPS only, Path. */
  readonly deviceCookie: {
    readonly secrets: readonly string[];
    readonly maxAgeSeconds: number;
    readonly secure: boolean;
    readonly path: string;
  };
}
