/**
 * Example typed client of the web app (`:8081`), on openapi-fetch and the generated `clients/web.d.ts`: a path,
 * a method, a body or a required header the document does not declare is a compile error. It logs in with a plain
 * password (docs/integration-web.md), reads the profile, creates an order with a one-time idempotency token,
 * refreshes and logs out.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from '../web';
import { described, expectSuccess, finished, isBoolean, isNumber, isRecord, isString, shape } from './payload';
import { TokenStore } from './tokens';

// The fields this client relies on, checked at run time (and the fallback types while the document leaves them undescribed).
const isTokenPair = shape<{ accessToken: string }>({ accessToken: isString });
const isProfile = shape<{ userId: string; username: string; nickname: string }>({
  userId: isString,
  username: isString,
  nickname: isString,
});
const isIdempotencyToken = shape<{ token: string; expiresIn: number }>({ token: isString, expiresIn: isNumber });
const isOrder = shape<{ id: string; createdAt: string; data: Record<string, unknown> }>({
  id: isString,
  createdAt: isString,
  data: isRecord,
});
const isLogout = shape<{ loggedOut: boolean; userId: string }>({ loggedOut: isBoolean, userId: isString });

export class WebApi {
  readonly client: Client<paths>;
  readonly tokens = new TokenStore();

  constructor(baseUrl: string) {
    this.client = createClient<paths>({ baseUrl });
    this.client.use(this.tokens.bearer());
  }

  /** `POST /auth/login` with the plain password (TLS protects it); keeps the tokens. */
  async login(username: string, password: string) {
    const pair = described(
      finished(expectSuccess(await this.client.POST('/auth/login', { body: { username, password } }))),
      isTokenPair,
      'token pair',
    );
    this.tokens.set(pair);
    return pair;
  }

  /** `GET /user/profile`: the logged-in member. */
  async profile() {
    return described(expectSuccess(await this.client.GET('/user/profile')), isProfile, 'profile');
  }

  /** `GET /idempotent/token`: a one-time token; fetched while logged in, only this session may spend it. */
  async idempotencyToken() {
    return described(expectSuccess(await this.client.GET('/idempotent/token')), isIdempotencyToken, 'idempotency token');
  }

  /** `POST /orders` (201): a new order, protected against double submission by a fresh X-Idempotent-Token. */
  async createOrder(item: string, quantity: number, token?: string) {
    const idempotent = token ?? (await this.idempotencyToken()).token;
    const res = await this.client.POST('/orders', { params: { header: { 'X-Idempotent-Token': idempotent } }, body: { item, quantity } });
    return described(expectSuccess(res, 201), isOrder, 'order');
  }

  /** `POST /auth/refresh-token`: a new token pair (the refresh token is single use; the old access token ends). */
  async refresh() {
    const res = await this.client.POST('/auth/refresh-token', { body: { refreshToken: this.tokens.refreshToken() } });
    const pair = described(expectSuccess(res), isTokenPair, 'token pair');
    this.tokens.set(pair);
    return pair;
  }

  /** `POST /auth/logout`: ends the session and its refresh token; the tokens are forgotten whatever the answer. */
  async logout() {
    try {
      return described(expectSuccess(await this.client.POST('/auth/logout')), isLogout, 'logout result');
    } finally {
      this.tokens.clear();
    }
  }
}

/** The whole flow: log in, profile, an order with its idempotency token, refresh, log out. */
export async function webFlow(baseUrl: string, username: string, password: string, order: { item: string; quantity: number }) {
  const api = new WebApi(baseUrl);
  const login = await api.login(username, password);
  const profile = await api.profile();
  const created = await api.createOrder(order.item, order.quantity);
  const refreshed = await api.refresh();
  const profileAfterRefresh = await api.profile();
  const logout = await api.logout();
  return { login, profile, created, refreshed, profileAfterRefresh, logout };
}
