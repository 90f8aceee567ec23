/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): a successful
 * login hands the client a cookie that proves "this client has logged in to this account before".
 * A later login of that account presenting it is judged on the cookie's own failures, so
 * strangers guessing the account's password cannot lock out a client that holds one.
 *
 * Value: `<id>.<expires>.<mac>`: a random id (the key of the cookie's failure budget), the end
 * of its life in epoch seconds, and HMAC-SHA256 over the login type, the folded account name, the
 * id and the end, under `svc.login.device-cookie-secret`. The account is not in the value: a
 * cookie verifies only against the account it was issued for. The previous key verifies too, so
 * the key rotates without logging everyone's devices out.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import { foldUsername } from '../../domain/username';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import type { AuthSettings } from './auth-settings';

/** A device cookie to hand to the client. */
export interface IssuedDeviceCookie {
  readonly value: string;
  readonly maxAgeSeconds: number;
  /** Send it only over HTTPS (prod). */
  readonly secure: boolean;
}

const VALUE = /^([A-Za-z0-9_-]{22})\.([1-9][0-9]{0,11})\.([A-Za-z0-9_-]{43})$/;
const MAC_BYTES = 32;

@injectable()
export class DeviceCookies {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.AuthSettings) private readonly settings: AuthSettings,
  ) {}

  /** A new cookie for an account that has just logged in. */
  issue(loginType: string, username: string): IssuedDeviceCookie {
    const { secrets, maxAgeSeconds, secure } = this.settings.deviceCookie;
    const id = randomBytes(16).toString('base64url');
    const expires = Math.floor(this.clock.now() / 1000) + maxAgeSeconds;
    const mac = this.mac(secrets[0] ?? '', loginType, username, id, expires).toString('base64url');
    return { value: `${id}.${expires}.${mac}`, maxAgeSeconds, secure };
  }

  /**
   * The id of the presented cookie when it is one this service issued for this login type and
   * account and it has not expired; null for anything else (absent, malformed, forged, another
   * account's, another login type's, expired). Every key is compared, in constant time.
   */
  verify(loginType: string, username: string, presented: string | undefined): string | null {
    const m = presented === undefined ? null : VALUE.exec(presented);
    if (m === null) return null;
    const [, id = '', exp = '', mac = ''] = m;
    const expires = Number(exp);
    const given = Buffer.from(mac, 'base64url');
    if (given.length !== MAC_BYTES) return null;
    let valid = false;
    for (const secret of this.settings.deviceCookie.secrets) {
      if (timingSafeEqual(given, this.mac(secret, loginType, username, id, expires))) valid = true;
    }
    return valid && expires * 1000 > this.clock.now() ? id : null;
  }

  private mac(secret: string, loginType: string, username: string, id: string, expires: number): Buffer {
    if (secret === '') throw new Error('device cookies need a key (svc.login.device-cookie-secret)');
    return createHmac('sha256', secret).update(`authguard-device-cookie\n${loginType}\n${foldUsername(username)}\n${id}\n${expires}`).digest();
  }
}
