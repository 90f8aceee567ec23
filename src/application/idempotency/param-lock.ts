/**
 * PARAM mode: a set-if-absent lock keyed by app + route + caller + SHA-256 of the canonical
 * parameters. A duplicate while the lock is held is refused; the owner releases the lock when
 * its request failed, so the user can retry at once; after a success it lives out its TTL.
 */

export interface ParamLockInput {
  /** The app (admin / web): the same route on two apps never shares a lock. */
  readonly scope: string;
  /** Method and path template, e.g. "POST /system/user". */
  readonly route: string;
  /** "admin:42" for a logged-in user, "ip:203.0.113.7" otherwise. */
  readonly caller: string;
  /** Path parameters, query and body: anything JSON-like. */
  readonly params: unknown;
  /** Lock lifetime; the configured default when absent. */
  readonly ttlSeconds?: number;
}

export interface ParamLock {
  readonly key: string;
  readonly owner: string;
}
