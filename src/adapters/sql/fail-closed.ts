/**
 * Wraps a directory adapter so that any database failure (connection refused or lost, statement
 * timeout, pool exhausted) surfaces as the domain's `directory-unavailable` (503) and fails
 * closed: a login cannot succeed without the directory. The cause goes to the log only.
 */
import { DomainError, isDomainError } from '../../domain/errors';
import type { Logger } from '../../application/ports/logger';

export function directoryFailClosed<T extends object>(target: T, methods: readonly (keyof T)[], log: Logger): T {
  const wrapped = Object.create(target) as T;
  for (const name of methods) {
    const fn = target[name];
    if (typeof fn !== 'function') continue;
    (wrapped as Record<keyof T, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      } catch (e) {
        if (isDomainError(e)) throw e;
        const err = e as { code?: unknown; errno?: unknown; message?: unknown };
        log.error({ err: { code: err.code, errno: err.errno, message: err.message }, op: String(name) }, 'user directory failure');
        throw new DomainError('directory-unavailable', 'The user directory is unavailable; try again shortly.', { cause: e, retryAfterSeconds: 1 });
      }
    };
  }
  return wrapped;
}
