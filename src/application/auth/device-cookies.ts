/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): a successful
 * login hands the client a cookie that proves "this client has logged in to this account before".
 * A later login of that account presenting it is judged on the cookie's own failures, so
 * strangers guessing the account's password cannot lock out a client that holds one.
 *
 * Value: `<id>.<expires>.<issued>.<mac>`: a random id (the key of the cookie's failure budget),
 * the end of its life in epoch seconds, the moment it was issued in epoch ms, and HMAC-SHA256
 * over the login type, the folded account name, the id, the end and the issue time, under
 * `svc.login.device-cookie-secret`. The account is not in the value: a cookie verifies only
 * against the account it was issued for. The previous key verifies too, so the key rotates
 * without logging everyone's devices out. The form of earlier releases, `<id>.<expires>.<mac>`,
 * still verifies and counts as issued at time 0.
 *
 * Revocation: `revokeAll` records a per-account cut-off (`devcut:<type>:<folded name>`, epoch ms,
 * kept as long as a cookie lives); a cookie issued before it no longer verifies. Log-out-everywhere
 * and disabling the account call it (and a password change or reset will). The cut-off is read
 * only when a presented cookie's MAC is valid, so junk cookies cost no store read.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { foldUsername } from '../../domain/username';
import type { Clock } from '../ports/clock';
import { macUnderAnyKey } from '../shared/keyed-mac';
import type { KeyValueStore } from '../ports/key-value-store';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';
import type { LoginType } from '../../domain/login-type';

/** A device cookie to hand to the client. */
export interface IssuedDeviceCookie {
  readonly value: string;
  readonly maxAgeSeconds: number;
  /** Send it only over HTTPS (prod). */
  readonly secure: boolean;
  /** The cookie's Path (`svc.login.device-cookie-path`). */
  readonly path: string;
}

/** `<id>.<expires>[.<issued>].<mac>`: the issue time is absent from cookies of earlier releases. */
const VALUE = /^([A-Za-z0-9_-]{22})\.([1-9][0-9]{0,11})(?:\.(0|[1-9][0-9]{0,15}))?\.([A-Za-z0-9_-]{43})$/;
const MAC_BYTES = 32;
/** At most this many cookies of one name are tried per login (each costs an HMAC per key). */
export const MAX_PRESENTED_COOKIES = 8;

const cutKey = (loginType: LoginType, username: string): string => `devcut:${loginType}:${foldUsername(username)}`;

@injectable()
export class DeviceCookies {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
    @inject(TOKENS.KeyValueStore) private readonly kv: KeyValueStore,
  ) {}

  /** A new cookie for an account that has just logged in. */
  issue(loginType: LoginType, username: string): IssuedDeviceCookie {
    const { secrets, maxAgeSeconds, secure, path } = this.settings.deviceCookie;
    const id = randomBytes(16).toString('base64url');
    const issued = this.clock.now();
    const expires = Math.floor(issued / 1000) + maxAgeSeconds;
    const mac = this.mac(secrets[0] ?? '', loginType, username, id, expires, issued).toString('base64url');
    return { value: `${id}.${expires}.${issued}.${mac}`, maxAgeSeconds, secure, path };
  }

  /**
   * The id of the first presented cookie that this service issued for this login type and
   * account, that has not expired and that was issued after the account's cut-off; null when
   * none is (absent, malformed, forged, another account's, another login type's, expired,
   * revoked). Every value sent under the cookie's name is tried (a planted junk cookie cannot hide
   * the owner's): the well-formed ones, at most MAX_PRESENTED_COOKIES; every key is compared, in
   * constant time.
   */
  async verify(loginType: LoginType, username: string, presented: readonly string[]): Promise<string | null> {
    // Only well-formed values count towards the cap (junk costs no HMAC), so junk cannot push the owner's out.
    const valid = presented
      .filter((value) => VALUE.test(value))
      .slice(0, MAX_PRESENTED_COOKIES)
      .map((value) => this.check(loginType, username, value))
      .filter((c): c is { id: string; issued: number } => c !== null);
    if (valid.length === 0) return null;
    const raw = await this.kv.get(cutKey(loginType, username));
    const cut = raw === null ? 0 : Number(raw);
    return valid.find((c) => !(c.issued < cut))?.id ?? null;
  }

  /**
   * Revokes every device cookie of the account issued until now: its holders share the account's
   * budget again (log-out-everywhere, disable, password change or reset). One write.
   */
  async revokeAll(loginType: LoginType, username: string): Promise<void> {
    const ttlMs = this.settings.deviceCookie.maxAgeSeconds * 1000;
    await this.kv.set(cutKey(loginType, username), String(this.clock.now()), ttlMs);
  }

  /** The cookie's id and issue time when its MAC is valid and it has not expired, else null. */
  private check(loginType: LoginType, username: string, value: string): { id: string; issued: number } | null {
    const m = VALUE.exec(value);
    if (m === null) return null;
    const [, id = '', exp = '', iss, mac = ''] = m;
    const expires = Number(exp);
    const issued = iss === undefined ? null : Number(iss);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== MAC_BYTES) return null;
    const valid = macUnderAnyKey(given, this.settings.deviceCookie.secrets, (secret) =>
      this.mac(secret, loginType, username, id, expires, issued),
    );
    return valid && expires * 1000 > this.clock.now() ? { id, issued: issued ?? 0 } : null;
  }

  /** `issued` null: the form of earlier releases, whose MAC covered no issue time. */
  private mac(secret: string, loginType: LoginType, username: string, id: string, expires: number, issued: number | null): Buffer {
    if (secret === '') throw new Error('device cookies need a key (svc.login.device-cookie-secret)');
    const fields = [loginType, foldUsername(username), id, String(expires), ...(issued === null ? [] : [String(issued)])];
    return createHmac('sha256', secret)
      .update(`authguard-device-cookie${issued === null ? '' : '-v2'}\n${fields.join('\n')}`)
      .digest();
  }
}
