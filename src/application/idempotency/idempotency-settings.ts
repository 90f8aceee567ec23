/** Settings of the duplicate-submission protection (from `svc.idempotency.*`). */
export interface IdempotencySettings {
  /** PARAM: default lock lifetime of a route. */
  readonly paramTtlSeconds: number;
  /** TOKEN: lifetime of an issued, unused token. */
  readonly tokenTtlSeconds: number;
  /** TOKEN: HMAC keys of the signed tokens, the current one first (it signs; every one verifies). */
  readonly tokenSecrets: readonly string[];
  /** HEADER: name of the key header. */
  readonly headerName: string;
  /** HEADER: how long a completed response is kept for replay. */
  readonly headerTtlSeconds: number;
  /** HEADER: how long a running request holds its key before it is presumed dead. */
  readonly headerLockSeconds: number;
}
