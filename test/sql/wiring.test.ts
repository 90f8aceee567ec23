import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { isDomainError } from '../../src/domain/errors';
import { createInfrastructure } from '../../src/main/infrastructure';
import { buildAdminApp } from '../../src/main/admin';
import { buildWebApp } from '../../src/main/web';
import { createDirectories } from '../../src/main/directories';
import { testConfig } from '../support/apps';
import { freePort } from '../support/redis-server';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { FIXTURE } from '../contract/user-directory.contract';
import { seedSqlFixture } from './fixture';
import { TOKENS } from '../../src/application/tokens';

describe('svc.directory wiring', () => {
  it('file (default) serves the YAML admin directory, the same instance to login, administration and account changes', async () => {
    const config = testConfig();
    const dirs = createDirectories(config, silentLogger);
    assert.equal((await dirs.admins.findByUsername('admin'))?.username, 'admin');
    assert.equal(dirs.administration, dirs.admins);
    assert.equal(dirs.adminAccounts, dirs.admins);
    assert.equal(dirs.memberAccounts, dirs.members);
    const infra = createInfrastructure(config, { log: silentLogger });
    try {
      const { container } = buildAdminApp(config, infra);
      assert.equal(container.get(TOKENS.AdminDirectory), infra.directories.admins);
      assert.ok(container.isBound(TOKENS.UserAdministration));
      assert.equal(container.get(TOKENS.AccountStore), infra.directories.adminAccounts, 'the admin app changes admin accounts');
      assert.equal(buildWebApp(config, infra).container.get(TOKENS.AccountStore), infra.directories.memberAccounts, 'the web app, members');
    } finally {
      await infra.close();
    }
  });

  it('sql: an unreachable database answers directory-unavailable (503), never a 500', async () => {
    const port = await freePort();
    const config = testConfig({
      'svc.directory': 'sql',
      'svc.datasource.url': `mysql://127.0.0.1:${port}/nothing`,
      'svc.datasource.username': 'root',
    });
    const dirs = createDirectories(config, silentLogger);
    try {
      await assert.rejects(dirs.admins.findByUsername('admin'), (e) => isDomainError(e) && e.reason === 'directory-unavailable');
      await assert.rejects(
        dirs.administration?.setRoles('1', []) ?? Promise.reject(new Error('no administration')),
        (e) => isDomainError(e) && e.reason === 'directory-unavailable',
      );
      for (const accounts of [dirs.adminAccounts, dirs.memberAccounts]) {
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['setPassword', () => accounts.setPassword('1', { passwordHash: 'x', mustChange: false, keepHistory: 1 })],
          ['passwordHistory', () => accounts.passwordHistory('1', 5)],
          ['setStatus', () => accounts.setStatus('1', { enabled: true })],
          ['findByEmail', () => accounts.findByEmail('a@example.test')],
          ['setEmail', () => accounts.setEmail('1', 'a@example.test', false)],
          ['markEmailVerified', () => accounts.markEmailVerified('1', 'a@example.test')],
        ];
        for (const [name, call] of calls) {
          await assert.rejects(call(), (e) => isDomainError(e) && e.reason === 'directory-unavailable', name);
        }
      }
    } finally {
      await dirs.close();
    }
  });

  describe('sql against MariaDB', function () {
    let db: ScratchDatabase;
    before(async function () {
      await requireMariaDb(this);
      db = await ScratchDatabase.create('wiring');
      await seedSqlFixture(db.pool, FIXTURE);
    });
    after(async () => db?.drop());

    it('the container of an app holds the SQL directories; closing the infrastructure ends the pool', async () => {
      const ds = db.settings;
      const config = testConfig({
        'svc.directory': 'sql',
        'svc.datasource.url': ds.url,
        'svc.datasource.username': ds.username,
        'svc.datasource.password': ds.password,
      });
      const infra = createInfrastructure(config, { log: silentLogger });
      try {
        const { container } = buildAdminApp(config, infra);
        const ann = await container.get(TOKENS.AdminDirectory).findByUsername('ann');
        assert.deepEqual(ann?.roles, ['auditor', 'viewer']);
        assert.ok(container.isBound(TOKENS.UserAdministration));
        assert.equal(await container.get(TOKENS.MemberDirectory).findByUsername('ann'), null);
        const annId = (await container.get(TOKENS.AdminDirectory).findByUsername('ann'))?.id ?? '';
        const banned = await container.get(TOKENS.AccountStore).setStatus(annId, { enabled: false, reason: 'r', until: null });
        assert.equal(banned?.username, 'ann', "the admin app's AccountStore is sys_user's");
        const web = buildWebApp(config, infra).container.get(TOKENS.AccountStore);
        assert.equal(await web.setStatus(annId, { enabled: true }), null, "the web app's is member's (no member ann)");
      } finally {
        await infra.close();
      }
    });
  });
});
