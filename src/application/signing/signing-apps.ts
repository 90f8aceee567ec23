/**
 * The registered signing apps: each app's secret and the schemes it may sign with. An app key that
 * is not registered, or not for this scheme, yields a throwaway key, so the caller computes and
 * compares a MAC either way and answers exactly as for a wrong signature.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_SIGN_SCHEMES, type SignScheme } from '../../domain/signing';
import type { SignSettings } from './sign-settings';

export interface AppKeyLookup {
  /** The HMAC key to verify with (a random one for an unknown app). */
  readonly key: Buffer;
  /** Whether the app is registered for this scheme (a MAC made with the random key never counts). */
  readonly known: boolean;
}

export class SigningApps {
  private readonly secrets: ReadonlyMap<string, Buffer>;
  private readonly schemes: ReadonlyMap<string, readonly SignScheme[]>;
  private readonly unknownKey = randomBytes(32);

  constructor(settings: Pick<SignSettings, 'apps' | 'schemes'>) {
    // Maps, so "__proto__" or "constructor" are never mistaken for registered apps.
    this.secrets = new Map(Object.entries(settings.apps).map(([k, v]) => [k, Buffer.from(v, 'utf8')]));
    this.schemes = new Map(Object.entries(settings.schemes));
  }

  keyFor(appKey: string, scheme: SignScheme): AppKeyLookup {
    const secret = this.secrets.get(appKey);
    const allowed = this.schemes.get(appKey) ?? DEFAULT_SIGN_SCHEMES;
    if (secret === undefined || !allowed.includes(scheme)) return { key: this.unknownKey, known: false };
    return { key: secret, known: true };
  }
}
