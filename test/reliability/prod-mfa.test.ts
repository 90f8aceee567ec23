/**
 * Prod without svc.mfa.encryption-key (and no role that must have a factor): the start warns, naming the key, and
 * TOTP enrolment answers 503 mfa-unavailable on both apps, in each app's format. (A prod start with
 * svc.mfa.required-roles and no key is refused: test/unit/config-mfa.test.ts.)
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import type { Logger } from '../../src/application/ports/logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildBoth } from '../support/apps';
import { prodEnv } from '../support/prod-env';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';

const CONFIG_DIR = path.join(__dirname, '../../config');

describe('prod without svc.mfa.encryption-key', function () {
  this.timeout(30_000);
  let redis: DisposableRedis;
  let infra: Infrastructure;
  let apps: ReturnType<typeof buildBoth>;
  const warnings: string[] = [];
  const log: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (_o, m) => warnings.push(m ?? '') };

  before(async function () {
    await requireRedisServer(this);
    redis = await DisposableRedis.create({ password: 'prod-like-redis-pw' });
    const { SVC_MFA_ENCRYPTION_KEY: _key, ...env } = prodEnv({
      SVC_REDIS_URL: redis.url,
      SVC_CRYPTO_WORKER_THREADS: '1',
      SVC_USERS_FILE: path.join(CONFIG_DIR, 'users.yml'),
      SVC_MEMBERS_FILE: path.join(CONFIG_DIR, 'members.yml'),
    });
    const config = loadConfig({ env });
    assert.equal(config.profile, 'prod');
    infra = createInfrastructure(config, { log });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    await infra?.close().catch(() => undefined);
    await redis?.kill();
  });

  it('the start warns, naming the key and what it means', () => {
    const mine = warnings.filter((w) => w.startsWith('svc.mfa.encryption-key (SVC_MFA_ENCRYPTION_KEY) is not set in prod'));
    assert.equal(mine.length, 1, warnings.join('\n'));
    assert.match(mine[0] ?? '', /503 mfa-unavailable/);
  });

  for (const type of ['admin', 'web'] as const) {
    it(`${type}: setup and confirm answer 503 mfa-unavailable`, async () => {
      const c = apps[type].container;
      const user = await c.get(TOKENS.UserDirectory).findByUsername(type === 'admin' ? 'admin' : 'alice');
      assert.ok(user);
      const { token } = await c.get(SessionManagers).get(type).login(principalOf(user));
      const e = ERROR_CATALOGUE['mfa-unavailable'];
      for (const res of [
        await request(apps[type].app.callback()).post('/auth/mfa/totp/setup').set('Authorization', `Bearer ${token}`),
        await request(apps[type].app.callback())
          .post('/auth/mfa/totp/confirm')
          .set('Authorization', `Bearer ${token}`)
          .send({ code: '123456' }),
      ]) {
        assert.equal(res.status, 503, res.text);
        if (type === 'admin') assert.equal(res.body.code, e.code);
        else assert.equal(JSON.parse(res.text).code, 'mfa-unavailable');
      }
    });
  }
});
