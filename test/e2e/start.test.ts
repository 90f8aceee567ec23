import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const tsx = path.join(root, 'node_modules/.bin/tsx');

describe('process start (prod refuses without secrets)', () => {
  it('APP_PROFILE=prod with no secrets exits non-zero within seconds, naming every missing key', function () {
    this.timeout(30_000);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, APP_PROFILE: 'prod' };
    const started = Date.now();
    const r = spawnSync(tsx, ['src/main/start.ts'], { cwd: root, env, encoding: 'utf8', timeout: 25_000 });
    assert.notEqual(r.status, 0);
    assert.ok(Date.now() - started < 25_000);
    for (const key of [
      'svc.rsa-private-key',
      'svc.redis.url',
      'svc.security.sign.apps',
      'svc.login.device-cookie-secret',
      'svc.idempotency.token-secret',
    ])
      assert.match(r.stderr, new RegExp(key.replace(/\./g, '\\.')));
  });
});
