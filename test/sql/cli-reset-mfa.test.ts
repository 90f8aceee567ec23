/**
 * `authguard users reset-mfa <admin|web> <userId>` (svc.directory=sql, svc.store=redis): the operator's reset of a
 * user's second factors, as `DELETE /system/user/{id}/mfa` does it (test/http/user-mfa-reset.test.ts): TOTP, recovery
 * codes and passkeys removed from the SQL directory, the user's live sessions ended. An unknown user exits 1; the file
 * directory, whose factors live in the server process, is refused.
 */
import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { buildAdminApp } from '../../src/main/admin';
import { createInfrastructure } from '../../src/main/infrastructure';
import { FIXTURE } from '../contract/user-directory.contract';
import { testConfig } from '../support/apps';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { REDIS_URL, deleteByPrefix, requireRedis, testKeyPrefix } from '../support/services';
import { seedSqlFixture } from './fixture';

const root = path.join(__dirname, '../..');

function cli(args: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/main/cli.ts', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', APP_PROFILE: 'test', ...env },
    });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end('');
  });
}

describe('CLI users reset-mfa (sql directory, redis store)', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let ids: Map<string, string>;
  before(async function () {
    await requireMariaDb(this);
    await requireRedis(this);
    db = await ScratchDatabase.create('clireset');
    ids = await seedSqlFixture(db.pool, FIXTURE);
  });
  after(async () => db?.drop());

  it("removes the user's factors and ends its sessions; an unknown user exits 1, the file directory is refused", async () => {
    const ds = db.settings;
    const prefix = testKeyPrefix('clireset');
    const sql = { 'svc.directory': 'sql', 'svc.datasource.url': ds.url, 'svc.datasource.username': ds.username };
    const config = testConfig({ ...sql, 'svc.datasource.password': ds.password, 'svc.redis.key-prefix': prefix }, 'redis');
    const infra = createInfrastructure(config, { log: silentLogger });
    try {
      const annId = ids.get('ann') as string;
      const { totp, passkeys } = infra.directories;
      await totp.savePending('admin', annId, 'sealed', Date.now() + 60_000);
      assert.ok(
        await totp.activate('admin', annId, { pendingSecret: 'sealed', lastStep: 1, recoveryCodeHashes: ['h1', 'h2'] }, Date.now()),
      );
      const passkey = { publicKey: 'AQ', counter: 0, transports: [], name: 'key', createdAt: 1, lastUsedAt: null, backedUp: false };
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBB'])
        assert.ok(await passkeys.add('admin', { ...passkey, id, userId: annId, deviceType: 'singleDevice' }));
      const managers = buildAdminApp(config, infra).container.get(SessionManagers);
      const { token } = await managers.get('admin').login({ userId: annId, username: 'ann', roles: ['viewer'], permissions: [] });
      const env = {
        SVC_STORE: 'redis',
        SVC_REDIS_URL: REDIS_URL,
        SVC_REDIS_KEY_PREFIX: prefix,
        SVC_DIRECTORY: 'sql',
        SVC_DATASOURCE_URL: ds.url,
        SVC_DATASOURCE_USERNAME: ds.username,
        SVC_DATASOURCE_PASSWORD: ds.password,
      };
      const r = await cli(['users', 'reset-mfa', 'admin', annId], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /admin user "ann" .*removed the TOTP factor and its recovery codes and 2 passkey\(s\); 1 live session\(s\) ended/,
      );
      assert.equal(await totp.active('admin', annId), null);
      assert.equal(await totp.recoveryCodesLeft('admin', annId), 0);
      assert.deepEqual(await passkeys.list('admin', annId), []);
      assert.equal((await managers.get('admin').resolveToken(token)).ok, false, 'the session ended');

      const unknown = await cli(['users', 'reset-mfa', 'web', '999999'], env);
      assert.equal(unknown.code, 1, unknown.stderr);
      assert.match(unknown.stderr, /No web user with id "999999"/);
      assert.equal((await cli(['users', 'reset-mfa', 'admin'], env)).code, 2, 'the user id is required');
      const file = await cli(['users', 'reset-mfa', 'admin', annId], { ...env, SVC_DIRECTORY: 'file' });
      assert.equal(file.code, 1, file.stderr);
      assert.match(file.stderr, /DELETE \/system\/user\/\{id\}\/mfa/);
    } finally {
      await infra.close();
      const c = new Redis(REDIS_URL);
      await deleteByPrefix(c, prefix);
      c.disconnect();
    }
  });
});
