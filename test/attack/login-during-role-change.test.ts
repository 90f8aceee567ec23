/**
 * Attack (stale permissions): "a change to a role's menus or status reaches the permission snapshot of every live
 * session of its users at once". A login reads the account (its roles and permissions) before its BCrypt compare
 * (~100 ms at the production cost) and writes the session after it. A role change landing in between updates the
 * live sessions it finds, not the one about to be written: that session keeps the permissions the role no longer
 * grants, for its whole lifetime (days), and the next permission check of the user still passes. A password change,
 * reset or disable landing there is caught (a refresh cut-off later than the read ends the login); a role or menu
 * change is not. The same holds for a change of the user's own roles (`POST /system/user/:id/roles`).
 *
 * The second step of a login (`POST /auth/mfa/verify`) and the passwordless login (`POST /auth/passkey-login`) read
 * the account after their proof and write the session after that read: a change landing between the two is the same
 * race (the second part: the directory read is held until the change is done).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { UserDirectory } from '../../src/application/ports/user-directory';
import { TOKENS } from '../../src/application/tokens';
import type { TestInfra } from '../support/apps';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { bearer, codeAt, enrolTotp, lab, nextIp, passwordSession, type Lab } from './support';

describe('attack: a login racing a role change keeps what the role no longer grants', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  for (const change of ['PUT /system/role/:id/menus', 'PUT /system/role/:id (disabled)', 'POST /system/user/:id/roles']) {
    it(`${change} while viewer's password is being checked: the new session is not a stale one`, async function () {
      const l = await lab(this, 'memory');
      infra = l.infra;
      const a = l.app('admin');
      const call = () => request(a.app.callback());
      const root = await passwordSession(a, 'admin', 'admin123');
      const hasher = l.built.admin.container.get<PasswordHasher>(TOKENS.PasswordHasher);
      const verify = hasher.verify.bind(hasher);
      let inCompare!: () => void;
      let release!: () => void;
      const entered = new Promise<void>((r) => (inCompare = r));
      const gate = new Promise<void>((r) => (release = r));
      hasher.verify = async (password, hash) => {
        const ok = await verify(password, hash);
        inCompare();
        await gate;
        return ok;
      };
      const login = a.passwordLogin('viewer', 'viewer123', nextIp());
      await entered;
      hasher.verify = verify;
      if (change === 'PUT /system/role/:id/menus') {
        await call()
          .put('/system/role/2/menus')
          .set(bearer(root))
          .send({ menuIds: ['100'] })
          .expect(200);
      } else if (change === 'PUT /system/role/:id (disabled)') {
        await call().put('/system/role/2').set(bearer(root)).send({ name: 'Viewer', enabled: false }).expect(200);
      } else {
        await call().post('/system/user/2/roles').set(bearer(root)).send({ roles: [] }).expect(200);
      }
      release();
      const res = await login;
      if (res.status !== 200) return; // refused: the login saw the change (acceptable)
      const token = (a.data(res) as { accessToken: string }).accessToken;
      const online = await call().get('/monitor/online').set(bearer(token));
      assert.equal(online.status, 403, `a session written after the change still lists sessions: ${online.text.slice(0, 120)}`);
    });
  }
});

describe('attack: a second step or a passwordless login racing a role change keeps what the role no longer grants', function () {
  this.timeout(60_000);
  let infra: TestInfra | undefined;
  afterEach(async () => infra?.dispose());

  /** Holds the next directory read of viewer (id 2) until `change` is done, then answers what it read before. */
  function holdNextRead(l: Lab, change: () => Promise<void>): void {
    const directory = l.built.admin.container.get<UserDirectory>(TOKENS.UserDirectory);
    const findById = directory.findById.bind(directory);
    directory.findById = async (id) => {
      if (id !== '2') return findById(id);
      directory.findById = findById;
      const read = await findById(id);
      await change();
      return read;
    };
  }

  for (const step of ['POST /auth/mfa/verify (TOTP)', 'POST /auth/passkey-login'] as const) {
    it(`${step}: a role's menus replaced between its account read and its session write do not stay in the session`, async function () {
      const l = await lab(this, 'memory');
      infra = l.infra;
      const a = l.app('admin');
      const call = () => request(a.app.callback());
      const root = await passwordSession(a, 'admin', 'admin123');
      const viewer = await passwordSession(a, 'viewer', 'viewer123');
      const removeMenus = async () => {
        await call()
          .put('/system/role/2/menus')
          .set(bearer(root))
          .send({ menuIds: ['100'] })
          .expect(200);
      };
      let res: request.Response;
      if (step === 'POST /auth/mfa/verify (TOTP)') {
        const { secret } = await enrolTotp(a, viewer, l.clock);
        l.clock.advance(60_000);
        const pending = a.data(await a.passwordLogin('viewer', 'viewer123', nextIp())) as { mfaToken: string };
        assert.ok(pending.mfaToken, 'the password login asks for the second factor');
        holdNextRead(l, removeMenus);
        res = await call()
          .post('/auth/mfa/verify')
          .set('X-Forwarded-For', nextIp())
          .send({ mfaToken: pending.mfaToken, code: codeAt(secret, l.clock.now()) });
      } else {
        const auth = new SoftAuthenticator(a.origin);
        const regOptions = a.data(await call().post('/auth/passkeys/options').set(bearer(viewer)).expect(200));
        await call()
          .post('/auth/passkeys')
          .set(bearer(viewer))
          .send({ response: auth.create(regOptions as Parameters<typeof auth.create>[0]) })
          .expect(201);
        const options = a.data(await call().post('/auth/passkey-login/options').set('X-Forwarded-For', nextIp()).expect(200));
        holdNextRead(l, removeMenus);
        res = await call()
          .post('/auth/passkey-login')
          .set('X-Forwarded-For', nextIp())
          .send({ response: auth.get(options as Parameters<typeof auth.get>[0]) });
      }
      assert.equal(res.status, 200, res.text);
      const out = a.data(res) as { accessToken: string; permissions: string[] };
      assert.ok(!out.permissions.includes('monitor:online:list'), `the answer lists the removed permission: ${out.permissions.join(',')}`);
      const online = await call().get('/monitor/online').set(bearer(out.accessToken));
      assert.equal(online.status, 403, `a session written after the change still lists sessions: ${online.text.slice(0, 120)}`);
    });
  }
});
