/**
 * Wraps a store adapter so that any infrastructure failure (connection lost, command timeout)
 * surfaces as the domain's `store-unavailable` (503), never as a 500, and fails closed.
 */
import { DomainError, isDomainError } from '../domain/errors';

export function failClosed<T extends object>(target: T, methods: readonly (keyof T)[]): T {
  const wrapped = Object.create(target) as T;
  for (const name of methods) {
    const fn = target[name];
    if (typeof fn !== 'function') continue;
    (wrapped as Record<keyof T, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      } catch (e) {
        if (isDomainError(e)) throw e;
        throw new DomainError('store-unavailable', 'The session store is unavailable; try again shortly.', { cause: e, retryAfterSeconds: 1 });
      }
    };
  }
  return wrapped;
}
