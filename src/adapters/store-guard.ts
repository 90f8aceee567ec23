/**
 * Wraps an adapter so that any infrastructure failure (connection refused or lost, command or
 * statement timeout, pool exhausted) surfaces as a domain error that fails closed (503), never
 * as a 500. Domain errors thrown by the adapter pass through unchanged.
 */
import { DomainError, isDomainError } from '../domain/errors';
import { aroundMethods } from './around-methods';

export function failClosedWith<T extends object>(
  target: T,
  methods: readonly (keyof T)[],
  toDomainError: (cause: unknown, method: string) => DomainError,
): T {
  return aroundMethods(target, methods, async (call, method) => {
    try {
      return await call();
    } catch (e) {
      if (isDomainError(e)) throw e;
      throw toDomainError(e, method);
    }
  });
}

/** Store adapters: `store-unavailable`. */
export function failClosed<T extends object>(target: T, methods: readonly (keyof T)[]): T {
  return failClosedWith(
    target,
    methods,
    (cause) =>
      new DomainError('store-unavailable', 'The session store is unavailable; try again shortly.', { cause, retryAfterSeconds: 1 }),
  );
}
