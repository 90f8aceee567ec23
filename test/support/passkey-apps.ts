/**
 * Both apps as the passkey tests drive them: logging in with a password (admin: RSA-encrypted, web:
 * plain), reading an answer in the app's format (admin `{code, message, data}`, web the bare value or
 * a problem), and the origin its front end runs on (svc.webauthn.admin-origins' and web-origins' dev defaults).
 */
import assert from 'node:assert/strict';
import type { Container } from 'inversify';
import type Koa from 'koa';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import type { Reason } from '../../src/domain/errors';
import type { LoginType } from '../../src/domain/login-type';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { adminLogin } from './flows';

export interface PasskeyApp {
  readonly type: LoginType;
  readonly app: Koa;
  /** The origin a browser on this app's front end reports (its app's svc.webauthn.admin-origins or web-origins). */
  readonly origin: string;
  /** Two accounts of the app: [username, password]. */
  readonly users: readonly (readonly [string, string])[];
  /** A password login from client address `ip`: the raw answer. */
  passwordLogin(username: string, password: string, ip: string): Promise<request.Response>;
  /** The success value of an answer (admin: `data`). */
  data(res: request.Response): unknown;
  /** Asserts an error answer in the app's format, with the reason's status. */
  refused(res: request.Response, reason: Reason): void;
  /**
   * A session for an account whose password login now asks for its second factor (a passkey was
   * registered): made through the app's session manager; the second step itself is tested in
   * test/http/mfa-login.test.ts and the browser test.
   */
  sessionOf(username: string): Promise<string>;
}

type Built = { readonly app: Koa; readonly container: Container };

function sessionMaker(built: Built, type: LoginType) {
  return async (username: string): Promise<string> => {
    const user = await built.container.get(TOKENS.UserDirectory).findByUsername(username);
    assert.ok(user, username);
    return (await built.container.get(SessionManagers).get(type).login(principalOf(user))).token;
  };
}

export function passkeyApps(built: { admin: Built; web: Built }, extraMember: readonly [string, string]): PasskeyApp[] {
  const admin = adminLogin(built.admin.app);
  return [
    {
      type: 'admin',
      app: built.admin.app,
      origin: 'http://localhost:8080',
      users: [
        ['admin', 'admin123'],
        ['viewer', 'viewer123'],
      ],
      passwordLogin: admin,
      sessionOf: sessionMaker(built.admin, 'admin'),
      data: (res) => (res.body as { data: unknown }).data,
      refused(res, reason) {
        const entry = ERROR_CATALOGUE[reason];
        assert.equal(res.status, entry.status, `${res.status} ${res.text.slice(0, 300)}`);
        assert.equal(res.body.code, entry.code);
        assert.equal(res.body.data, null);
      },
    },
    {
      type: 'web',
      app: built.web.app,
      origin: 'http://localhost:8081',
      users: [['alice', 'alice-pass-123'], extraMember],
      sessionOf: sessionMaker(built.web, 'web'),
      passwordLogin: (username, password, ip) =>
        request(built.web.app.callback()).post('/auth/login').set('X-Forwarded-For', ip).send({ username, password }),
      data: (res) => res.body as unknown,
      refused(res, reason) {
        assert.equal(res.status, ERROR_CATALOGUE[reason].status, `${res.status} ${res.text.slice(0, 300)}`);
        assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
        assert.equal(res.body.code, reason);
      },
    },
  ];
}

/** Logs `username` in with its password and returns the access token. */
export async function passwordToken(a: PasskeyApp, username: string, password: string, ip = '10.9.0.1'): Promise<string> {
  const res = await a.passwordLogin(username, password, ip);
  assert.equal(res.status, 200, res.text);
  const data = a.data(res) as { accessToken?: string; mfaRequired?: true };
  if (data.mfaRequired === true) return a.sessionOf(username);
  return data.accessToken as string;
}
