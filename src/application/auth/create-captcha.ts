/**
 * Issues a captcha: the image goes to the client, the answer into the CaptchaStore under a
 * random uuid. The answer is kept a little longer than the captcha's TTL (EXPIRED_GRACE_MS), so
 * an answer sent shortly after expiry is told "expired" rather than "unknown".
 */
import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { CaptchaGenerator } from '../ports/captcha-generator';
import type { CaptchaStore } from '../ports/captcha-store';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';

const EXPIRED_GRACE_MS = 10 * 60 * 1000;

export type CaptchaImage = { captchaEnabled: false } | { captchaEnabled: true; uuid: string; img: string };

@injectable()
export class CreateCaptcha {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['store-unavailable'];

  constructor(
    @inject(TOKENS.CaptchaGenerator) private readonly generator: CaptchaGenerator,
    @inject(TOKENS.CaptchaStore) private readonly store: CaptchaStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /**
   * `force`: issue one even when `svc.captcha.enabled` is off (logins need none on their own), for
   * a client told 428 captcha-required by the account lock.
   */
  async execute(input: { scope: string; force?: boolean }): Promise<CaptchaImage> {
    const c = this.settings.captcha;
    if (!c.enabled && input.force !== true) return { captchaEnabled: false };
    const { answer, svg } = this.generator.create(c.type);
    const uuid = randomUUID();
    const ttlMs = c.ttlSeconds * 1000;
    await this.store.save(input.scope, uuid, { answer, expiresAt: this.clock.now() + ttlMs }, ttlMs + EXPIRED_GRACE_MS);
    return { captchaEnabled: true, uuid, img: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` };
  }
}
