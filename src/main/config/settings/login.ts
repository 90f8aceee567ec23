/** The login: captcha, RSA, the embedded directories, refresh tokens, passwords, the login lock and its device cookies. */
import { z } from 'zod';
import { setting } from '../setting';
import { bool, cookiePath, int, str } from '../values';

export const LOGIN_KEYS = {
  'svc.captcha.enabled': setting({
    schema: bool,
    default: true,
    doc: 'admin login requires a captcha; `false` in prod starts with a warning',
  }),
  'svc.captcha.captcha-type': setting({
    schema: z.enum(['math', 'text']),
    default: 'math',
    doc: '`math` or `text`',
  }),
  'svc.captcha.ttl-seconds': setting({
    schema: int(10, 3600),
    default: 120,
    doc: 'how long a captcha answer is valid (single use)',
  }),
  'svc.captcha.rate-limit-per-minute': setting({
    schema: int(1, 100000),
    default: 30,
    doc: '`GET /auth/captchaImage` requests per minute per client IP',
  }),
  'svc.captcha.math-min': setting({
    schema: int(0, 9999),
    default: 10,
    doc: 'smallest operand of a math captcha (`a + b` or `a - b`, the answer may be negative)',
  }),
  'svc.captcha.math-max': setting({
    schema: int(0, 9999),
    default: 99,
    doc:
      'largest operand; a range whose most likely answer comes up more than 1 % of the time (e.g. ' +
      '1..9: 5.6 %) refuses to start, naming both keys (10..99: 0.56 %)',
  }),
  'svc.rsa-private-key': setting({
    schema: str,
    default: '',
    secret: true,
    requiredInProd: { why: 'no default secrets' },
    doc: 'RSA private key (PEM PKCS#8/PKCS#1 or base64 DER, ≥ 2048 bits); required in prod',
  }),
  'svc.rsa.padding': setting({
    schema: z.enum(['oaep-sha256', 'pkcs1']),
    default: 'oaep-sha256',
    doc: '`oaep-sha256` (WebCrypto / JSEncrypt `encryptOAEP`) or `pkcs1` (JSEncrypt `encrypt()`)',
  }),
  'svc.users-file': setting({
    schema: str,
    default: '',
    doc: 'YAML admin directory, relative to the config directory (dev/test: `users.yml`)',
  }),
  'svc.members-file': setting({
    schema: str,
    default: '',
    doc: 'YAML member directory of the web app, same format (dev/test: `members.yml`; prod seeds nobody)',
  }),
  'svc.register.rate-limit-per-hour': setting({
    schema: int(1, 100000),
    default: 10,
    doc: '`POST /auth/register` requests per hour per client IP (web app)',
  }),
  'svc.refresh-token.ttl-seconds': setting({
    schema: int(60, 366 * 86400),
    default: 2592000,
    doc: 'refresh-token lifetime; must exceed `session.timeout`',
  }),
  'svc.refresh-token.absolute-ttl-seconds': setting({
    schema: int(1, 100 * 366 * 86400),
    default: 90 * 86400,
    doc:
      'absolute lifetime of a refresh-token family (a login and all its rotations), any value ≥ 1 ' +
      's; no refresh or access token of the family lives past it, and a rotation after it answers ' +
      '401 `refresh-token-invalid` and revokes the family',
    defaultText: '`7776000` (90 days)',
  }),
  'svc.password.bcrypt-cost': setting({
    schema: int(10, 15),
    default: 10,
    doc: 'BCrypt cost of new password hashes (10–15)',
  }),
  'svc.login.max-failures': setting({
    schema: int(0, 1000),
    default: 10,
    doc:
      'failed logins of one username (clients without a device cookie) or of one device cookie, ' +
      'within `lock-seconds` of the first, before it is locked; `0` off',
  }),
  'svc.login.lock-seconds': setting({
    schema: int(1, 86400),
    default: 900,
    doc: 'how long a spent budget lasts after its last failure: a device cookie answers 429, clients without one 428 `captcha-required`',
  }),
  'svc.login.captcha-max-failures': setting({
    schema: int(0, 100000),
    default: 90,
    doc:
      "once a username's shared budget is spent, failed logins still admitted with a solved " +
      'captcha before even those are refused (429) for `hard-lock-seconds`; with `max-failures` ' +
      'the most failures one account takes per hard lock period (100 per hour by default, ASVS ' +
      '2.2.1); `0`: a spent budget answers 429, no captcha way in',
  }),
  'svc.login.hard-lock-seconds': setting({
    schema: int(60, 7 * 86400),
    default: 3600,
    doc:
      "once a username's shared budget is spent, how long its failures are remembered after the " +
      'last one (captcha-solved failures count against `captcha-max-failures` in it), and how ' +
      'long the username refuses clients without a device cookie once that cap is reached',
  }),
  'svc.login.device-cookie-secret': setting({
    schema: str,
    default: '',
    secret: true,
    hmac: { minLength: 32 },
    requiredInProd: { why: 'no default secrets; 32+ characters' },
    doc:
      'HMAC key (32+ chars) of the device cookies ([sessions.md](sessions.md#device-cookies)); ' +
      'required in prod, the same on every instance; dev/test generate one per start',
  }),
  'svc.login.device-cookie-previous-secret': setting({
    schema: str,
    default: '',
    secret: true,
    hmac: { minLength: 32 },
    doc: 'the key before the last rotation (32+ chars): its cookies still verify, new ones use the current key',
  }),
  'svc.login.device-cookie-max-age-seconds': setting({
    schema: int(3600, 400 * 86400),
    default: 365 * 86400,
    doc: 'lifetime of a device cookie (1 hour to 400 days)',
  }),
  'svc.login.device-cookie-path': setting({
    schema: cookiePath,
    default: '/',
    doc:
      "the device cookie's `Path`: `/` reaches the login wherever the app is mounted; set " +
      '`/<prefix>/auth` to narrow it behind a path prefix',
  }),
  'svc.crypto.worker-threads': setting({
    schema: int(0, 64),
    default: 0,
    doc: 'worker threads for BCrypt and PKCS#1 RSA; `0` = one per CPU',
  }),
};
