/**
 * CaptchaStore on Redis: a save is one SET PX, a take one GETDEL (read and remove atomically, so
 * of concurrent verifications at most one sees the answer). The key is the key-value store's
 * `captcha:<scope>:<uuid>` (key-layout.ts): answers written through the KeyValueStore as
 * `{"a": answer, "exp": ms}` are read too, so a captcha issued by an instance that still writes
 * that form verifies on one that reads through this store.
 */
import type { CaptchaChallenge, CaptchaStore } from '../../application/ports/captcha-store';
import { parseJsonObject } from '../../domain/json-record';
import { normTtl } from '../store-common';
import { type KeyLayoutKind, RedisKeys } from './key-layout';
import type { RedisClient } from './redis-client';
import { layoutOf } from './scripted-store';

/** A stored value: `{answer, expiresAt}`, or the key-value form `{a, exp}`. Anything else reads as absent. */
export function parseChallenge(raw: string): CaptchaChallenge | null {
  const o = parseJsonObject(raw);
  if (o === null) return null;
  const { answer, expiresAt, a, exp } = o;
  if (typeof answer === 'string' && typeof expiresAt === 'number') return { answer, expiresAt };
  if (typeof a === 'string' && typeof exp === 'number') return { answer: a, expiresAt: exp };
  return null;
}

export class RedisCaptchaStore implements CaptchaStore {
  private readonly keys: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    keyPrefix: string,
    layout: KeyLayoutKind = layoutOf(client),
  ) {
    this.keys = new RedisKeys(keyPrefix, layout);
  }

  async save(scope: string, uuid: string, challenge: CaptchaChallenge, ttlMs: number): Promise<void> {
    const value = JSON.stringify({ answer: challenge.answer, expiresAt: challenge.expiresAt });
    await this.client.set(this.keys.captcha(scope, uuid), value, 'PX', normTtl(ttlMs));
  }

  async take(scope: string, uuid: string): Promise<CaptchaChallenge | null> {
    const raw = await this.client.getdel(this.keys.captcha(scope, uuid));
    return raw === null ? null : parseChallenge(raw);
  }
}
