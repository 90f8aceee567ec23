import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { SqlUserDirectory } from '../../src/adapters/sql/sql-user-directory';
import { FIXTURE } from '../contract/user-directory.contract';
import { ScratchDatabase, requireMariaDb } from '../support/mariadb';
import { seedSqlFixture } from './fixture';

const root = path.join(__dirname, '../..');

function cli(args: readonly string[], input: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
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
    const env = { SVC_DIRECTORY: 'sql', SVC_DATASOURCE_URL: ds.url, SVC_DATASOURCE_USERNAME: ds.username, SVC_DATASOURCE_PASSWORD: ds.password };
    const r = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer,auditor'], 'operator-pass-1\n', env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /operator/);
    const user = await new SqlUserDirectory(db.pool).findByUsername('operator');
    assert.ok(user);
    assert.deepEqual([...user.roles].sort(), ['auditor', 'viewer']);
    assert.ok(bcrypt.compareSync('operator-pass-1', user.passwordHash));
    const taken = await cli(['users', 'add', '--username', 'operator', '--roles', 'viewer'], 'another-pass-1\n', env);
    assert.equal(taken.code, 1, taken.stderr);
  });
});
