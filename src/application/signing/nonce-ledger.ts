/**
 * The request timestamp window and the one-time nonce store, shared by every signing scheme:
 * a nonce is recorded per app key, set-if-absent, and only after its signature verified.
 */
import { DomainError } from '../../domain/errors';
import { nonceRetentionMs, withinWindow } from '../../domain/signing';
import type { KeyValueStore } from '../ports/key-value-store';
import type { SignSettings } from './sign-settings';

/** Store key of a used nonce; the app key is encoded so no two apps share a nonce space. */
export function nonceKey(appKey: string, nonce: string): string {
  return `sign:nonce:${encodeURIComponent(appKey)}:${nonce}`;
}

export class NonceLedger {
  constructor(
    private readonly settings: Pick<SignSettings, 'timeoutSeconds' | 'nonceTtlSeconds'>,
    private readonly kv: KeyValueStore,
  ) {}

  get timeoutSeconds(): number {
    return this.settings.timeoutSeconds;
  }

  /** Whether a request time (ms since the epoch) lies within ±timeoutSeconds of `nowMs`. */
  inWindow(timestampMs: number, nowMs: number): boolean {
    return withinWindow(timestampMs, nowMs, this.settings.timeoutSeconds);
  }

  /** Records the nonce of a verified request; a nonce already seen for this app key is a replay. */
  async record(appKey: string, nonce: string, timestampMs: number, nowMs: number, field: string): Promise<void> {
    const ttlMs = nonceRetentionMs(timestampMs, nowMs, this.settings.timeoutSeconds, this.settings.nonceTtlSeconds);
    if (!(await this.kv.setIfAbsent(nonceKey(appKey, nonce), String(nowMs), ttlMs))) {
      throw new DomainError('sign-nonce-replayed', `This ${field} was already used; sign every request with a fresh nonce.`);
    }
  }
}
