/**
 * Prod with svc.directory=file (and the encryption key): the file directory keeps no second factor, so TOTP enrolment
 * answers 409 directory-read-only on both apps, in each app's format, as passkey registration does: a factor only
 * one process knew would not be asked for by the other instances, nor after a restart
 * (test/attack/totp-file-directory.test.ts). A prod start that also requires a factor of some role is refused:
 * test/unit/config-mfa.test.ts.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth } from '../support/apps';
import { prodEnv } from '../support/prod-env';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

const CONFIG_DIR = path.join(__dirname, '../../config');

describe('prod, svc.directory=file: TOTP enrolment', function () {
  this.timeout(30_000);
  let redis: DisposableRedis;
  let infra: Infrastructure;
  let apps: ReturnType<typeof buildBoth>;

  before(async function () {
    await requireRedisServer(this);
    redis = await DisposableRedis.create({ password: 'prod-like-redis-pw' });
    const env = prodEnv({
      SVC_REDIS_URL: redis.url,
      SVC_CRYPTO_WORKER_THREADS: '1',
      SVC_DIRECTORY: 'file',
      SVC_USERS_FILE: path.join(CONFIG_DIR, 'users.yml'),
      SVC_MEMBERS_FILE: path.join(CONFIG_DIR, 'members.yml'),
    });
    const config = loadConfig({ env });
    assert.equal(config.profile, 'prod');
    infra = createInfrastructure(config, { log: silentLogger });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    await infra?.close().catch(() => undefined);
    await redis?.kill();
  });

  for (const type of ['admin', 'web'] as const) {
    it(`${type}: setup and confirm answer 409 directory-read-only; nothing is enrolled`, async () => {
      const c = apps[type].container;
      const username = type === 'admin' ? 'admin' : 'alice';
      const user = await c.get(TOKENS.UserDirectory).findByUsername(username);
      assert.ok(user);
      const { token } = await c.get(SessionManagers).get(type).login(principalOf(user));
      const call = () => request(apps[type].app.callback());
      const e = ERROR_CATALOGUE['directory-read-only'];
      for (const res of [
        await call().post('/auth/mfa/totp/setup').set('Authorization', `Bearer ${token}`),
        await call().post('/auth/mfa/totp/confirm').set('Authorization', `Bearer ${token}`).send({ code: '123456' }),
      ]) {
        assert.equal(res.status, 409, res.text);
        if (type === 'admin') assert.deepEqual([res.body.code, res.body.data], [e.code, null]);
        else assert.deepEqual([JSON.parse(res.text).code, JSON.parse(res.text).status], ['directory-read-only', 409]);
      }
      assert.equal(await c.get(TOKENS.TotpStore).active(type, user.id), null, 'nothing enrolled');
    });
  }
});
