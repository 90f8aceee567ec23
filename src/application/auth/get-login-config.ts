import { inject, injectable } from 'inversify';
import type { CaptchaType } from '../ports/captcha-generator';
import type { RsaDecryptor, RsaPadding } from '../ports/rsa-decryptor';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { Reason } from '../../domain/errors';

/** What a login page needs before it can log in: captcha settings and the RSA public key. */
@injectable()
export class GetLoginConfig {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [];

  constructor(
    @inject(TOKENS.RsaDecryptor) private readonly rsa: RsaDecryptor,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  execute(): { captchaEnabled: boolean; captchaType: CaptchaType; publicKey: string; rsaPadding: RsaPadding } {
    return {
      captchaEnabled: this.settings.captcha.enabled,
      captchaType: this.settings.captcha.type,
      publicKey: this.rsa.publicKeyPem,
      rsaPadding: this.rsa.padding,
    };
  }
}
