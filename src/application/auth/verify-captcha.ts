/**
 * Checks a captcha answer. Single use: the answer is taken (read and removed) at the first
 * verification, right or wrong. A uuid the store does not know (never issued, already used, or
 * long gone) reads as "expired": in every such case the client's remedy is the same, fetch a new
 * captcha. The comparison ignores case and surrounding blanks and runs in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { CaptchaStore } from '../ports/captcha-store';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';

const digest = (s: string): Buffer => createHash('sha256').update(s.trim().toLowerCase(), 'utf8').digest();

@injectable()
export class VerifyCaptcha {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = ['captcha-missing', 'captcha-expired', 'captcha-wrong', 'store-unavailable'];

  constructor(
    @inject(TOKENS.CaptchaStore) private readonly store: CaptchaStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(input: { scope: string; uuid?: string | undefined; code?: string | undefined }): Promise<void> {
    const { uuid, code } = input;
    if (uuid === undefined || uuid === '' || code === undefined || code.trim() === '') {
      throw new DomainError('captcha-missing', 'Send the captcha answer (code) and its uuid from /auth/captchaImage.');
    }
    const stored = await this.store.take(input.scope, uuid);
    if (stored === null || this.clock.now() >= stored.expiresAt) {
      throw new DomainError('captcha-expired', 'The captcha has expired or was already used; request a new one.');
    }
    if (!timingSafeEqual(digest(stored.answer), digest(code))) {
      throw new DomainError('captcha-wrong', 'The captcha answer is wrong; request a new captcha.');
    }
  }
}
