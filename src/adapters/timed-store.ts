/**
 * Times every asynchronous method (one returning a promise) of a store port and reports it to the Metrics port
 * (store call latency by store, operation and outcome). Wrappers are made once per method.
 */
import type { Metrics } from '../application/ports/metrics';

export function timed<T extends object>(target: T, store: string, metrics: Metrics): T {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string' || prop === 'constructor') return value;
      let wrapped = cache.get(prop);
      if (wrapped === undefined) {
        const fn = value as (...a: unknown[]) => unknown;
        wrapped = (...args: unknown[]) => {
          const started = performance.now();
          const record = (ok: boolean) => metrics.storeCall(store, prop, (performance.now() - started) / 1000, ok);
          let result: unknown;
          try {
            result = fn.apply(t, args);
          } catch (e) {
            record(false);
            throw e;
          }
          if (!(result instanceof Promise)) return result; // synchronous helpers are not store calls
          return result.then(
            (v: unknown) => {
              record(true);
              return v;
            },
            (e: unknown) => {
              record(false);
              throw e;
            },
          );
        };
        cache.set(prop, wrapped);
      }
      return wrapped;
    },
  });
}
