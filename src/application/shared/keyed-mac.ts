/** Checking a MAC made under one of several keys (the current key and the one before a rotation). */
import { timingSafeEqual } from 'node:crypto';

/**
 * Whether `given` is the MAC `macUnder` computes under one of `secrets`. Every key is compared, each in constant
 * time, so the time taken tells neither whether nor under which key it matched. A MAC of another length matches none.
 */
export function macUnderAnyKey(given: Buffer, secrets: readonly string[], macUnder: (secret: string) => Buffer): boolean {
  let valid = false;
  for (const secret of secrets) {
    const expected = macUnder(secret);
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid;
}
