/**
 * Captcha: the answer is kept in the key-value store under a random uuid and is single use
 * (read-and-delete at the first verification, right or wrong).
 *
 * "Expired" vs "wrong": the stored value carries its own expiry and is kept a little longer than
 * the captcha TTL (EXPIRED_GRACE), so an answer sent shortly after expiry is told "expired". A uuid
 * the store does not know (never issued, already used, or long gone) is also "expired": in every
 * such case the client's remedy is the same, fetch a new captcha.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import type { CaptchaGenerator } from '../ports/captcha-generator';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';

const EXPIRED_GRACE_MS = 10 * 60 * 1000;
const keyOf = (scope: string, uuid: string): string => `captcha:${scope}:${uuid}`;
const digest = (s: string): Buffer => createHash('sha256').update(s.trim().toLowerCase(), 'utf8').digest();

export type CaptchaImage = { captchaEnabled: false } | { captchaEnabled: true; uuid: string; img: string };

@injectable()
export class CreateCaptcha {
  constructor(
    @inject(TOKENS.CaptchaGenerator) private readonly generator: CaptchaGenerator,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  async execute(input: { scope: string }): Promise<CaptchaImage> {
    const c = this.settings.captcha;
    if (!c.enabled) return { captchaEnabled: false };
    const { answer, svg } = this.generator.create(c.type);
    const uuid = randomUUID();
    const ttlMs = c.ttlSeconds * 1000;
    await this.kv.set(keyOf(input.scope, uuid), JSON.stringify({ a: answer, exp: this.clock.now() + ttlMs }), ttlMs + EXPIRED_GRACE_MS);
    return { captchaEnabled: true, uuid, img: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` };
  }
}

@injectable()
export class VerifyCaptcha {
  constructor(
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: { scope: string; uuid?: string | undefined; code?: string | undefined }): Promise<void> {
    const { uuid, code } = input;
    if (uuid === undefined || uuid === '' || code === undefined || code.trim() === '') {
      throw new DomainError('captcha-missing', 'Send the captcha answer (code) and its uuid from /auth/captchaImage.');
    }
    const raw = await this.kv.getAndDelete(keyOf(input.scope, uuid));
    const stored = raw === null ? null : (JSON.parse(raw) as { a: string; exp: number });
    if (stored === null || this.clock.now() >= stored.exp) {
      throw new DomainError('captcha-expired', 'The captcha has expired or was already used; request a new one.');
    }
    if (!timingSafeEqual(digest(stored.a), digest(code))) {
      throw new DomainError('captcha-wrong', 'The captcha answer is wrong; request a new captcha.');
    }
  }
}
