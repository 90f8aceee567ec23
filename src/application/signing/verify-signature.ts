/**
 * VerifySignature: the spec's signing interceptor as a use case. Checks, in this order, each
 * with its own reason: all four headers present (sign-headers-missing, 400), nonce well formed
 * (sign-nonce-invalid, 400), timestamp an integer without leading zeros within ±timeoutSeconds of
 * the Clock (sign-timestamp-invalid), HMAC compared in constant time (sign-invalid; an app key that
 * is not registered answers exactly the same, after a MAC with a throwaway key), and only then the nonce recorded set-if-absent, per app key
 * (sign-nonce-replayed): a forged request never burns a nonce.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { DomainError } from '../../domain/errors';
import { NONCE_PATTERN, SIGNATURE_PATTERN, nonceRetentionMs, parseTimestamp, signingPrefix, withinWindow } from '../../domain/signing';
import type { Clock } from '../ports/clock';
import type { KeyValueStore } from '../ports/key-value-store';
import type { Metrics } from '../ports/metrics';
import { TOKENS } from '../tokens';
import type { SignSettings } from './sign-settings';

export interface VerifySignatureInput {
  readonly appKey: string | undefined;
  readonly timestamp: string | undefined;
  readonly nonce: string | undefined;
  readonly sign: string | undefined;
  /** The request body exactly as received ("" or an empty buffer when there is none). */
  readonly body: string | Buffer;
}

export type VerifySignatureResult = { readonly verified: true; readonly appKey: string } | { readonly verified: false; readonly appKey: null };

/** Store key of a used nonce; the app key is encoded so no two apps share a nonce space. */
export function nonceKey(appKey: string, nonce: string): string {
  return `sign:nonce:${encodeURIComponent(appKey)}:${nonce}`;
}

@injectable()
export class VerifySignature {
  private readonly secrets: ReadonlyMap<string, Buffer>;
  private readonly unknownAppKey = randomBytes(32);

  constructor(
    @inject(TOKENS.SignSettings) private readonly settings: SignSettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Metrics) private readonly metrics: Metrics,
  ) {
    // A Map, so "__proto__" or "constructor" are never mistaken for registered apps.
    this.secrets = new Map(Object.entries(settings.apps).map(([k, v]) => [k, Buffer.from(v, 'utf8')]));
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  /** Every refusal is counted by its reason (signatureFailed). */
  async execute(input: VerifySignatureInput): Promise<VerifySignatureResult> {
    if (!this.settings.enabled) return { verified: false, appKey: null };
    try {
      return await this.verify(input);
    } catch (e) {
      if (e instanceof DomainError) this.metrics.signatureFailed(e.reason);
      throw e;
    }
  }

  private async verify(input: VerifySignatureInput): Promise<VerifySignatureResult> {
    const { appKey, timestamp, nonce, sign } = input;
    const missing = (
      [
        ['X-App-Key', appKey],
        ['X-Timestamp', timestamp],
        ['X-Nonce', nonce],
        ['X-Sign', sign],
      ] as const
    )
      .filter(([, v]) => v === undefined || v === '')
      .map(([name]) => name);
    if (missing.length > 0 || !appKey || !timestamp || !nonce || !sign) {
      throw new DomainError('sign-headers-missing', `Missing signing header(s): ${missing.join(', ')}.`);
    }
    if (!NONCE_PATTERN.test(nonce)) {
      throw new DomainError('sign-nonce-invalid', 'X-Nonce must be 8 to 128 characters of A-Z, a-z, 0-9, "_" or "-".');
    }
    const now = this.clock.now();
    const ts = parseTimestamp(timestamp);
    if (ts === null || !withinWindow(ts, now, this.settings.timeoutSeconds)) {
      throw new DomainError(
        'sign-timestamp-invalid',
        `X-Timestamp must be the current time in milliseconds, digits without leading zeros (within ±${this.settings.timeoutSeconds} s of the server clock).`,
      );
    }

    const secret = this.secrets.get(appKey);
    const expected = createHmac('sha256', secret ?? this.unknownAppKey).update(signingPrefix(appKey, timestamp, nonce), 'utf8').update(input.body).digest();
    // Format and length are public; only equal-length byte strings are compared, in constant time.
    const given = SIGNATURE_PATTERN.test(sign) ? Buffer.from(sign, 'hex') : null;
    const matches = given !== null && given.length === expected.length && timingSafeEqual(given, expected);
    if (!matches || secret === undefined) {
      throw new DomainError('sign-invalid', 'The X-Sign signature does not match the request.');
    }

    const ttlMs = nonceRetentionMs(ts, now, this.settings.timeoutSeconds, this.settings.nonceTtlSeconds);
    if (!(await this.kv.setIfAbsent(nonceKey(appKey, nonce), String(now), ttlMs))) {
      throw new DomainError('sign-nonce-replayed', 'This X-Nonce was already used; sign every request with a fresh nonce.');
    }
    return { verified: true, appKey };
  }
}
