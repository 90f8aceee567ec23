/**
 * Passkeys in memory, beside the embedded (YAML) directory, for dev and test: they last as long as
 * the process, as the changes made to that directory through the service do.
 */
import type { LoginType } from '../../domain/login-type';
import type { PasskeyStore, PasskeyUse, StoredPasskey } from '../../application/ports/passkey-store';

const keyOf = (loginType: LoginType, credentialId: string): string => `${loginType}\u0000${credentialId}`;

export class InMemoryPasskeyStore implements PasskeyStore {
  private readonly byKey = new Map<string, StoredPasskey>();

  async add(loginType: LoginType, passkey: StoredPasskey): Promise<boolean> {
    const key = keyOf(loginType, passkey.id);
    if (this.byKey.has(key)) return false;
    this.byKey.set(key, { ...passkey, transports: [...passkey.transports] });
    return true;
  }

  async find(loginType: LoginType, credentialId: string): Promise<StoredPasskey | null> {
    return this.byKey.get(keyOf(loginType, credentialId)) ?? null;
  }

  async list(loginType: LoginType, userId: string): Promise<StoredPasskey[]> {
    const prefix = keyOf(loginType, '');
    return [...this.byKey]
      .filter(([key, p]) => key.startsWith(prefix) && p.userId === userId)
      .map(([, p]) => p)
      .sort((a, b) => a.createdAt - b.createdAt);
  }

  async remove(loginType: LoginType, userId: string, credentialId: string): Promise<boolean> {
    const key = keyOf(loginType, credentialId);
    if (this.byKey.get(key)?.userId !== userId) return false;
    return this.byKey.delete(key);
  }

  async recordUse(loginType: LoginType, credentialId: string, use: PasskeyUse): Promise<boolean> {
    const key = keyOf(loginType, credentialId);
    const stored = this.byKey.get(key);
    if (stored === undefined || !(stored.counter < use.counter || (stored.counter === 0 && use.counter === 0))) return false;
    this.byKey.set(key, { ...stored, counter: use.counter, lastUsedAt: use.usedAt, backedUp: use.backedUp });
    return true;
  }
}
