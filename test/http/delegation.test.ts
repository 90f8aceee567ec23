/**
 * Delegation rules of user administration (the outside look's high finding): a delegated
 * `useradmin` role (system:user:add, system:user:edit, system:user:list) tries every escalation
 * the pentest found; each is 403 delegation-denied naming what is missing, and nothing changes,
 * while granting a role its permissions cover (its own included) works. On the file directory
 * (memory) and on MariaDB (sql), where a change would be permanent.
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import type { BuiltApp } from '../../src/main/operations';
import { HASH, type DirectoryFixture } from '../contract/user-directory.contract';
import { seedSqlFixture } from '../sql/fixture';
import { testConfig, testInfra, type TestInfra } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';

const USER_ADMIN = ['system:user:add', 'system:user:edit', 'system:user:list'];

const FIXTURE: DirectoryFixture = {
  roles: [
    { key: 'admin', enabled: true, permissions: [] },
    { key: 'useradmin', enabled: true, permissions: USER_ADMIN },
    { key: 'lister', enabled: true, permissions: ['system:user:list'] },
    { key: 'auditor', enabled: true, permissions: ['monitor:log:list'] },
    // disabled today, yet granting it would hand out its permission the day it is enabled
    { key: 'dormant', enabled: false, permissions: ['system:config:edit'] },
    { key: 'wildcard', enabled: true, permissions: ['system:*'] },
  ],
  users: [
    { username: 'root', nickname: 'Root', passwordHash: HASH, enabled: true, roles: ['admin'] },
    { username: 'uadmin', nickname: 'User admin', passwordHash: HASH, enabled: true, roles: ['useradmin'] },
    { username: 'peer', nickname: 'Other user admin', passwordHash: HASH, enabled: true, roles: ['useradmin'] },
    { username: 'lee', nickname: 'Lister', passwordHash: HASH, enabled: true, roles: ['lister'] },
    { username: 'aud', nickname: 'Auditor', passwordHash: HASH, enabled: true, roles: ['auditor'] },
    // holds a disabled role: what it grants is dormant, not gone
    { username: 'sleeper', nickname: 'Sleeper', passwordHash: HASH, enabled: true, roles: ['lister', 'dormant'] },
  ],
};

/** The fixture as the file directory reads it (svc.users-file). */
function usersYaml(f: DirectoryFixture): string {
  const roles = f.roles.map(
    (r) =>
      `  ${r.key}: { enabled: ${r.enabled}, permissions: ` +
      `[${(r.key === 'admin' ? ['*:*:*'] : r.permissions).map((p) => `'${p}'`).join(', ')}] }`,
  );
  const users = f.users.map(
    (u, i) =>
      `  - { id: ${i + 1}, username: ${u.username}, nickname: '${u.nickname}', password: ` +
      `'${u.passwordHash}', roles: [${u.roles.join(', ')}] }`,
  );
  return ['roles:', ...roles, 'users:', ...users, ''].join('\n');
}

interface Setup {
  readonly app: BuiltApp;
  readonly ids: Map<string, string>;
  readonly close: () => Promise<void>;
}

const setups: Record<string, (ctx: Mocha.Context) => Promise<Setup>> = {
  'file directory': async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ag-delegation-'));
    const file = join(dir, 'users.yml');
    writeFileSync(file, usersYaml(FIXTURE));
    const config = testConfig({ 'svc.users-file': file });
    const infra: TestInfra = testInfra(config, { label: 'delegation' });
    const app = buildAdminApp(config, infra);
    const ids = new Map(FIXTURE.users.map((u, i) => [u.username, String(i + 1)]));
    return { app, ids, close: async () => (await infra.dispose(), rmSync(dir, { recursive: true, force: true })) };
  },
  'sql directory (MariaDB)': async (ctx) => {
    await requireMariaDb(ctx);
    const db = await ScratchDatabase.create('delegation');
    const ds = db.settings;
    const config = testConfig({
      'svc.directory': 'sql',
      'svc.datasource.url': ds.url,
      'svc.datasource.username': ds.username,
      'svc.datasource.password': ds.password,
    });
    const infra = testInfra(config, { label: 'delegation' });
    const app = buildAdminApp(config, infra);
    const ids = await seedSqlFixture(db.pool, FIXTURE);
    return { app, ids, close: async () => (await infra.dispose(), await db.drop()) };
  },
};

for (const [name, setup] of Object.entries(setups)) {
  describe(`delegation rules of user administration (${name})`, function () {
    this.timeout(30_000);
    let s: Setup;

    beforeEach(async function () {
      s = await setup(this);
    });
    afterEach(async () => s?.close());

    const http = () => request(s.app.app.callback());
    const id = (username: string) => s.ids.get(username) as string;
    const directory = () => s.app.container.get(TOKENS.AdminDirectory);
    const tokenOf = async (username: string) => {
      const u = await directory().findByUsername(username);
      assert.ok(u, username);
      return (await s.app.container.get(SessionManagers).get('admin').login(principalOf(u))).token;
    };
    const rolesOf = async (username: string) => [...((await directory().findByUsername(username))?.roles ?? [])].sort();
    const enabledOf = async (username: string) => (await directory().findByUsername(username))?.enabled;
    const denied = (res: request.Response, missing: RegExp) => {
      assert.equal(res.status, 403, res.text);
      assert.equal(res.body.code, 40302, res.text);
      assert.match(res.body.message, missing);
    };
    const encrypt = async (password: string) => {
      const key = (await http().get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString(
        'base64',
      );
    };

    it(
      'a user admin cannot make itself (or anyone) super admin, nor grant a permission it lacks, ' +
        'a dormant one included; nothing changes',
      async () => {
        const t = await tokenOf('uadmin');
        denied(
          await http()
            .post(`/system/user/${id('uadmin')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['admin'] }),
          /own account/,
        );
        denied(
          await http()
            .post(`/system/user/${id('lee')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['admin'] }),
          /"\*:\*:\*"/,
        );
        denied(
          await http()
            .post(`/system/user/${id('lee')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['lister', 'auditor'] }),
          /"monitor:log:list"/,
        );
        denied(
          await http()
            .post(`/system/user/${id('lee')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['dormant'] }),
          /"system:config:edit"/,
        );
        denied(
          await http()
            .post(`/system/user/${id('lee')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['wildcard'] }),
          /"system:\*"/,
        );
        assert.deepEqual(await rolesOf('lee'), ['lister']);
        assert.deepEqual(await rolesOf('uadmin'), ['useradmin']);
      },
    );

    it('a user admin cannot create a super admin or a user with more than it holds; nothing is created', async () => {
      const t = await tokenOf('uadmin');
      for (const roles of [['admin'], ['lister', 'auditor']]) {
        const res = await http()
          .post('/system/user')
          .set('Authorization', `Bearer ${t}`)
          .send({ username: `new-${roles.length}`, password: await encrypt('Fresh-pass-123'), roles });
        denied(res, /do not hold/);
        assert.equal(await directory().findByUsername(`new-${roles.length}`), null);
      }
    });

    it('a user admin cannot demote, disable or re-role the super admin, an account holding more, or itself', async () => {
      const t = await tokenOf('uadmin');
      denied(
        await http()
          .post(`/system/user/${id('root')}/roles`)
          .set('Authorization', `Bearer ${t}`)
          .send({ roles: ['lister'] }),
        /"\*:\*:\*"/,
      );
      denied(
        await http()
          .post(`/system/user/${id('root')}/disable`)
          .set('Authorization', `Bearer ${t}`),
        /"\*:\*:\*"/,
      );
      denied(
        await http()
          .post(`/system/user/${id('aud')}/roles`)
          .set('Authorization', `Bearer ${t}`)
          .send({ roles: ['lister'] }),
        /"monitor:log:list"/,
      );
      denied(
        await http()
          .post(`/system/user/${id('aud')}/disable`)
          .set('Authorization', `Bearer ${t}`),
        /"monitor:log:list"/,
      );
      denied(
        await http()
          .post(`/system/user/${id('uadmin')}/disable`)
          .set('Authorization', `Bearer ${t}`),
        /own account/,
      );
      denied(
        await http()
          .post(`/system/user/${id('uadmin')}/roles`)
          .set('Authorization', `Bearer ${t}`)
          .send({ roles: ['lister'] }),
        /own account/,
      );
      assert.deepEqual(await rolesOf('root'), ['admin']);
      assert.equal(await enabledOf('root'), true);
      assert.deepEqual(await rolesOf('aud'), ['auditor']);
      assert.equal(await enabledOf('aud'), true);
      assert.equal(await enabledOf('uadmin'), true);
      // a super admin may still do all of it
      const root = await tokenOf('root');
      await http()
        .post(`/system/user/${id('aud')}/roles`)
        .set('Authorization', `Bearer ${root}`)
        .send({ roles: ['lister'] })
        .expect(200);
    });

    it(
      'an account is judged on its disabled roles too: a user admin cannot re-role or disable one ' +
        'holding a dormant permission it lacks',
      async () => {
        const t = await tokenOf('uadmin');
        denied(
          await http()
            .post(`/system/user/${id('sleeper')}/roles`)
            .set('Authorization', `Bearer ${t}`)
            .send({ roles: ['lister'] }),
          /"system:config:edit"/,
        );
        denied(
          await http()
            .post(`/system/user/${id('sleeper')}/disable`)
            .set('Authorization', `Bearer ${t}`),
          /"system:config:edit"/,
        );
        assert.equal(await enabledOf('sleeper'), true);
        const root = await tokenOf('root');
        await http()
          .post(`/system/user/${id('sleeper')}/roles`)
          .set('Authorization', `Bearer ${root}`)
          .send({ roles: ['lister'] })
          .expect(200);
      },
    );

    it(
      'what the rules allow still works: grant a covered role, its own role, re-role and disable ' + 'an equal peer, create a covered user',
      async () => {
        const t = await tokenOf('uadmin');
        const ok = await http()
          .post(`/system/user/${id('lee')}/roles`)
          .set('Authorization', `Bearer ${t}`)
          .send({ roles: ['useradmin', 'lister'] });
        assert.equal(ok.status, 200, ok.text);
        assert.deepEqual([...ok.body.data.roles].sort(), ['lister', 'useradmin']);
        await http()
          .post(`/system/user/${id('peer')}/roles`)
          .set('Authorization', `Bearer ${t}`)
          .send({ roles: ['lister'] })
          .expect(200);
        await http()
          .post(`/system/user/${id('peer')}/disable`)
          .set('Authorization', `Bearer ${t}`)
          .expect(200);
        assert.equal(await enabledOf('peer'), false);
        const created = await http()
          .post('/system/user')
          .set('Authorization', `Bearer ${t}`)
          .send({ username: 'newbie', password: await encrypt('Fresh-pass-123'), roles: ['lister'] });
        assert.equal(created.status, 200, created.text);
        assert.deepEqual(await rolesOf('newbie'), ['lister']);
      },
    );

    it('an unknown role is still a validation failure (400 at /roles), an unknown user 404', async () => {
      const t = await tokenOf('uadmin');
      const bad = await http()
        .post(`/system/user/${id('lee')}/roles`)
        .set('Authorization', `Bearer ${t}`)
        .send({ roles: ['no-such-role'] });
      assert.equal(bad.status, 400, bad.text);
      await http()
        .post('/system/user/424242/roles')
        .set('Authorization', `Bearer ${t}`)
        .send({ roles: ['lister'] })
        .expect(404);
    });
  });
}
