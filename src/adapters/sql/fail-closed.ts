/**
 * Wraps a directory adapter so that any database failure (connection refused or lost, statement
 * timeout, pool exhausted) surfaces as the domain's `directory-unavailable` (503) and fails
 * closed: a login cannot succeed without the directory. The cause goes to the log only.
 */
import { DomainError } from '../../domain/errors';
import type { Logger } from '../../application/ports/logger';
import { failClosedWith } from '../store-guard';

export function directoryFailClosed<T extends object>(target: T, methods: readonly (keyof T)[], log: Logger): T {
  return failClosedWith(target, methods, (e, op) => {
    const err = e as { code?: unknown; errno?: unknown; message?: unknown };
    log.error({ err: { code: err.code, errno: err.errno, message: err.message }, op }, 'user directory failure');
    return new DomainError('directory-unavailable', 'The user directory is unavailable; try again shortly.', {
      cause: e,
      retryAfterSeconds: 1,
    });
  });
}
