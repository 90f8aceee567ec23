/**
 * The wrapping the store decorators share (fail closed, wait for replicas, wait for a cluster
 * client): `target` with each of `methods` run through `around`, every other member inherited
 * (Object.create, so the wrapped object still answers to what it does not override).
 */
export function aroundMethods<T extends object>(
  target: T,
  methods: readonly (keyof T)[],
  /** Runs the call (`call()` invokes the original method with the caller's arguments). */
  around: (call: () => Promise<unknown>, method: string) => Promise<unknown>,
): T {
  const wrapped = Object.create(target) as T;
  for (const name of methods) {
    const fn = target[name];
    if (typeof fn !== 'function') continue;
    const method = String(name);
    (wrapped as Record<keyof T, unknown>)[name] = (...args: unknown[]) =>
      around(() => (fn as (...a: unknown[]) => Promise<unknown>).apply(target, args), method);
  }
  return wrapped;
}
