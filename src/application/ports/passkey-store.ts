/**
 * The passkeys (WebAuthn credentials) of the accounts, per login type: an admin user's and a web
 * member's live apart, as their accounts do. A credential id is unique within a login type, so a
 * passwordless login finds its account from the credential alone. Kept with the accounts (the SQL
 * directory's table `passkey`, migration 005; in memory beside the embedded directory).
 *
 * Every call is atomic. The signature counter only moves forward (`recordUse`), which is what
 * makes a cloned authenticator show: its counter falls behind the original's.
 */
import type { LoginType } from '../../domain/login-type';

export interface StoredPasskey {
  /** The credential id, base64url (up to 1023 bytes decoded). */
  readonly id: string;
  readonly userId: string;
  /** The COSE public key, base64url. */
  readonly publicKey: string;
  /** The signature counter last seen (0 for authenticators that do not count). */
  readonly counter: number;
  /** How the browser may reach the authenticator (`internal`, `hybrid`, `usb`, ...). */
  readonly transports: readonly string[];
  /** What the user calls it. */
  readonly name: string;
  /** ms since epoch. */
  readonly createdAt: number;
  /** ms since epoch; null until first used. */
  readonly lastUsedAt: number | null;
  /** `multiDevice`: a synced passkey (it may be backed up); `singleDevice`: bound to one authenticator. */
  readonly deviceType: 'singleDevice' | 'multiDevice';
  readonly backedUp: boolean;
}

/** One successful use of a credential. */
export interface PasskeyUse {
  /** The counter the authenticator reported. */
  readonly counter: number;
  readonly usedAt: number;
  readonly backedUp: boolean;
}

export interface PasskeyStore {
  /** Stores a new credential; false (nothing written) when its id is registered already in this login type. */
  add(loginType: LoginType, passkey: StoredPasskey): Promise<boolean>;
  /** The credential with this id, whoever holds it, or null. */
  find(loginType: LoginType, credentialId: string): Promise<StoredPasskey | null>;
  /** The user's credentials, oldest first. */
  list(loginType: LoginType, userId: string): Promise<StoredPasskey[]>;
  /** Deletes one of the user's credentials; false when the user holds no credential with this id. */
  remove(loginType: LoginType, userId: string, credentialId: string): Promise<boolean>;
  /**
   * Records a use, in one step, only while the stored counter is below `use.counter`, or both are 0
   * (an authenticator that does not count); false (nothing written) otherwise or when the credential
   * is gone. Of two concurrent uses reporting the same counter, at most one succeeds.
   */
  recordUse(loginType: LoginType, credentialId: string, use: PasskeyUse): Promise<boolean>;
}
