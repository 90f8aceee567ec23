/**
 * VerifySignature: the seed specification's signing interceptor (the check of the signing headers before
 * a handler runs; glossary: docs/architecture.md) as a use case. A request that carries
 * `Signature-Input` is verified as RFC 9421 (see rfc9421-scheme.ts), any other as the seed's v1
 * (see v1-scheme.ts); each app signs only with the schemes `svc.security.sign.schemes` gives it
 * (v1 when not listed). Both schemes share the timestamp window and the one-time nonce store (per
 * app key, recorded only after the signature verified: a forged request never burns a nonce), and
 * an app key that is unknown, or not registered for the scheme used, answers exactly as a wrong
 * signature does.
 */
import { inject, injectable } from 'inversify';
import { DomainError, type Reason } from '../../domain/errors';
import type { SignScheme } from '../../domain/signing';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import { NonceLedger } from './nonce-ledger';
import { verifyRfc9421 } from './rfc9421-scheme';
import type { SignSettings } from './sign-settings';
import { fieldValue, type SignedRequest } from './signed-request';
import { SigningApps } from './signing-apps';
import { verifyV1 } from './v1-scheme';

export { nonceKey } from './nonce-ledger';
export type { SignedRequest } from './signed-request';

export type VerifySignatureResult =
  { readonly verified: true; readonly appKey: string; readonly scheme: SignScheme } | { readonly verified: false; readonly appKey: null };

@injectable()
export class VerifySignature {
  /** The failures this use case may raise (its collaborators' included), for the API description. */
  static readonly reasons: readonly Reason[] = [
    'sign-headers-missing',
    'sign-nonce-invalid',
    'sign-input-invalid',
    'sign-timestamp-invalid',
    'sign-digest-mismatch',
    'sign-invalid',
    'sign-nonce-replayed',
    'store-unavailable',
  ];

  private readonly apps: SigningApps;
  private readonly ledger: NonceLedger;

  constructor(
    @inject(TOKENS.SignSettings) private readonly settings: SignSettings,
    @inject(TOKENS.KeyValueStore) kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {
    this.apps = new SigningApps(settings);
    this.ledger = new NonceLedger(settings, kv);
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** The public base URL the `@target-uri` of requests to this Koa app starts with, if configured. */
  publicUrlOf(appName: string): string | undefined {
    return Object.hasOwn(this.settings.publicUrls, appName) ? this.settings.publicUrls[appName] : undefined;
  }

  /** Every refusal is counted by its reason (signatureFailed). */
  async execute(request: SignedRequest): Promise<VerifySignatureResult> {
    if (!this.settings.enabled) return { verified: false, appKey: null };
    try {
      const signatureInput = fieldValue(request, 'signature-input');
      const now = this.clock.now();
      if (signatureInput !== undefined) {
        return { verified: true, appKey: await verifyRfc9421(request, signatureInput, this.apps, this.ledger, now), scheme: 'rfc9421' };
      }
      return { verified: true, appKey: await verifyV1(request, this.apps, this.ledger, now), scheme: 'v1' };
    } catch (e) {
      if (e instanceof DomainError) this.metrics.signatureFailed(e.reason);
      throw e;
    }
  }
}
