import type { CaptchaChallenge, CaptchaStore } from '../application/ports/captcha-store';
import type { KeyValueStore } from '../application/ports/key-value-store';

/** Captcha answers on the KeyValueStore under `captcha:<scope>:<uuid>`; reads the `{a, exp}` form too. */
export class KeyValueCaptchaStore implements CaptchaStore {
  constructor(private readonly kv: KeyValueStore) {}

  async save(scope: string, uuid: string, challenge: CaptchaChallenge, ttlMs: number): Promise<void> {
    await this.kv.set(`captcha:${scope}:${uuid}`, JSON.stringify(challenge), ttlMs);
  }

  async take(scope: string, uuid: string): Promise<CaptchaChallenge | null> {
    const raw = await this.kv.getAndDelete(`captcha:${scope}:${uuid}`);
    if (raw === null) return null;
    try {
      const o = JSON.parse(raw) as Record<string, unknown>;
      const answer = o.answer ?? o.a;
      const expiresAt = o.expiresAt ?? o.exp;
      return typeof answer === 'string' && typeof expiresAt === 'number' ? { answer, expiresAt } : null;
    } catch {
      return null;
    }
  }
}
