import bcrypt from 'bcryptjs';
import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure } from '../../src/main/infrastructure';
import { FIXTURE } from '../contract/user-directory.contract';
import { testConfig } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';
import { seedSqlFixture } from './fixture';

const root = path.join(__dirname, '../..');

function cli(
  args: readonly string[],
  input: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/main/cli.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_PROFILE: 'test', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('CLI users add with svc.directory=sql', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  before(async function () {
    await requireMariaDb(this);
    db = await ScratchDatabase.create('cliusers');
    await seedSqlFixture(db.pool, FIXTURE);
  });
  after(async () => db?.drop());

  it('writes the user (BCrypt hash, roles) to sys_user where the servers read it; a taken name exits 1', async () => {
    const ds = db.settings;
    const env = {
      SVC_DIRECTORY: 'sql',
      SVC_DATASOURCE_URL: ds.url,
      SVC_DATASOURCE_USERNAME: ds.username,
      SVC_DATASOURCE_PASSWORD: ds.password,
    };
    const r = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer,auditor'], 'operator-pass-1\n', env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /operator/);
    const user = await new SqlUserDirectory(db.pool).findByUsername('operator');
    assert.ok(user);
    assert.deepEqual([...user.roles].sort(), ['auditor', 'viewer']);
    assert.ok(bcrypt.compareSync('operator-pass-1', user.passwordHash));
    const taken = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer'], 'another-pass-1\n', env);
    assert.equal(taken.code, 1, taken.stderr);
    const otherCase = await cli(['users', 'add', '--username', 'Operator', '--roles', 'viewer'], 'another-pass-1\n', env);
    assert.equal(otherCase.code, 1, otherCase.stderr);
    assert.match(otherCase.stderr, /already taken/);
  });
});

describe('CLI sessions resync after a direct database edit', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let ids: Map<string, string>;
  before(async function () {
    await requireMariaDb(this);
    await requireRedis(this);
    db = await ScratchDatabase.create('cliresync');
    ids = await seedSqlFixture(db.pool, FIXTURE);
  });
  after(async () => db?.drop());

  it('updates the live admin sessions of that user to the permissions now in sys_menu', async () => {
    const ds = db.settings;
    const prefix = testKeyPrefix('cliresync');
    const config = testConfig(
      {
        'svc.directory': 'sql',
        'svc.datasource.url': ds.url,
        'svc.datasource.username': ds.username,
        'svc.datasource.password': ds.password,
        'svc.redis.key-prefix': prefix,
      },
      'redis',
    );
    const infra = createInfrastructure(config, { log: silentLogger });
    try {
      const annId = ids.get('ann') as string;
      const managers = buildAdminApp(config, infra).container.get(SessionManagers);
      const { token } = await managers
        .get('admin')
        .login({ userId: annId, username: 'ann', roles: ['viewer'], permissions: ['system:user:list'] });
      const env = {
        SVC_STORE: 'redis',
        SVC_REDIS_URL: REDIS_URL,
        SVC_REDIS_KEY_PREFIX: prefix,
        SVC_DIRECTORY: 'sql',
        SVC_DATASOURCE_URL: ds.url,
        SVC_DATASOURCE_USERNAME: ds.username,
        SVC_DATASOURCE_PASSWORD: ds.password,
      };
      const r = await cli(['sessions', 'resync', annId], '', env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /1 live admin session\(s\) updated/);
      const resolved = await managers.get('admin').resolveToken(token);
      assert.ok(resolved.ok);
      assert.deepEqual([...resolved.session.record.principal.permissions].sort(), [
        'monitor:log:list',
        'monitor:online:list',
        'system:user:list',
      ]);
      assert.equal((await cli(['sessions', 'resync'], '', env)).code, 2, 'missing user id is a usage error');
    } finally {
      await infra.close();
      const c = new Redis(REDIS_URL);
      await deleteByPrefix(c, prefix);
      c.disconnect();
    }
  });
});
