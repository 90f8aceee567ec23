/**
 * Example typed client of the admin app (`:8080`), on openapi-fetch and the generated `clients/admin.d.ts`:
 * a path, a method or a body the document does not declare is a compile error. It logs in as an admin front-end
 * does (docs/integration-admin.md): the login configuration, the captcha when it is on, the password encrypted
 * with the server's public key, then `/auth/me`, a refresh and a logout.
 */
import { constants, publicEncrypt } from 'node:crypto';
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../admin';
import { arrayOf, described, expectSuccess, finished, isBoolean, isString, oneOf, shape } from './payload';
import { TokenStore } from './tokens';

/** Shows the captcha image (`img`, a `data:image/svg+xml;base64,...` URL) to a person and returns their answer. */
export type CaptchaSolver = (captcha: { readonly img: string; readonly uuid: string }) => Promise<string>;

// The fields this client relies on, checked at run time (and the fallback types while the document leaves them undescribed).
const isLoginConfig = shape<{ captchaEnabled: boolean; publicKey: string; rsaPadding: 'oaep-sha256' | 'pkcs1' }>({
  captchaEnabled: isBoolean,
  publicKey: isString,
  rsaPadding: oneOf('oaep-sha256', 'pkcs1'),
});
const isCaptcha = shape<{ uuid: string; img: string }>({ uuid: isString, img: isString });
const isTokenPair = shape<{ accessToken: string }>({ accessToken: isString });
const isLoginResult = shape<{ accessToken: string; username: string; roles: string[]; permissions: string[] }>({
  accessToken: isString,
  username: isString,
  roles: arrayOf(isString),
  permissions: arrayOf(isString),
});
const isCurrentUser = shape<{ userId: string; username: string; roles: string[]; permissions: string[] }>({
  userId: isString,
  username: isString,
  roles: arrayOf(isString),
  permissions: arrayOf(isString),
});
const isLogout = shape<{ loggedOut: boolean; userId: string }>({ loggedOut: isBoolean, userId: isString });

/** The password as `/auth/login` expects it: the UTF-8 bytes encrypted with the server's key, base64-encoded. */
export function encryptPassword(publicKeyPem: string, rsaPadding: string, password: string): string {
  const bytes = Buffer.from(password, 'utf8');
  if (rsaPadding === 'oaep-sha256')
    return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, bytes).toString('base64');
  if (rsaPadding === 'pkcs1') return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, bytes).toString('base64');
  throw new Error(`unsupported rsaPadding ${rsaPadding}`);
}

export class AdminApi {
  readonly client: Client<paths>;
  readonly tokens = new TokenStore();

  constructor(
    baseUrl: string,
    private readonly solveCaptcha?: CaptchaSolver,
  ) {
    this.client = createClient<paths>({ baseUrl });
    this.client.use(this.tokens.bearer());
  }

  /** `GET /auth/getConfig`: whether a captcha is needed, and the key and padding to encrypt the password with. */
  async loginConfig() {
    return described(expectSuccess(await this.client.GET('/auth/getConfig')).data, isLoginConfig, 'login configuration');
  }

  /** `GET /auth/captchaImage`, answered by the solver: the `{code, uuid}` of the login body. */
  private async captcha(): Promise<{ code: string; uuid: string }> {
    if (!this.solveCaptcha) throw new Error('the server asks for a captcha and this client has no solver');
    const captcha = described(expectSuccess(await this.client.GET('/auth/captchaImage')).data, isCaptcha, 'captcha');
    if (!captcha.captchaEnabled) throw new Error('the login configuration asks for a captcha, but the captcha endpoint says it is off');
    return { code: await this.solveCaptcha({ img: captcha.img, uuid: captcha.uuid }), uuid: captcha.uuid };
  }

  /** `POST /auth/login` with the encrypted password (and the captcha when it is on); keeps the tokens. */
  async login(username: string, password: string) {
    const config = await this.loginConfig();
    const captcha = config.captchaEnabled ? await this.captcha() : {};
    const encrypted = encryptPassword(config.publicKey, config.rsaPadding, password);
    const res = await this.client.POST('/auth/login', { body: { username, password: encrypted, ...captcha } });
    const result = described(finished(expectSuccess(res).data), isLoginResult, 'login result');
    this.tokens.set(result);
    return result;
  }

  /** `GET /auth/me`: the logged-in user, roles and permissions. */
  async me() {
    return described(expectSuccess(await this.client.GET('/auth/me')).data, isCurrentUser, 'current user');
  }

  /** `POST /auth/refresh-token`: a new token pair (the refresh token is single use; the old access token ends). */
  async refresh() {
    const res = await this.client.POST('/auth/refresh-token', { body: { refreshToken: this.tokens.refreshToken() } });
    const pair = described(expectSuccess(res).data, isTokenPair, 'token pair');
    this.tokens.set(pair);
    return pair;
  }

  /** `POST /auth/logout`: ends the session and its refresh token; the tokens are forgotten whatever the answer. */
  async logout() {
    try {
      return described(expectSuccess(await this.client.POST('/auth/logout')).data, isLogout, 'logout result');
    } finally {
      this.tokens.clear();
    }
  }
}

/** The whole flow: log in, who am I, refresh, log out. */
export async function adminFlow(baseUrl: string, username: string, password: string, solveCaptcha?: CaptchaSolver) {
  const api = new AdminApi(baseUrl, solveCaptcha);
  const login = await api.login(username, password);
  const me = await api.me();
  const refreshed = await api.refresh();
  const meAfterRefresh = await api.me();
  const logout = await api.logout();
  return { login, me, refreshed, meAfterRefresh, logout };
}
