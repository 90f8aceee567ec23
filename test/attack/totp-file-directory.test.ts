/**
 * Attack: prod with svc.directory=file (the YAML directories) and several instances on one Redis. Passkeys are
 * refused there (their store is read-only in prod: a write would be lost at a restart), but TOTP factors are
 * enrolled into the process's memory (createFileDirectories: `new InMemoryTotpStore()`, writable in every
 * profile). The instance that took the enrolment asks for the code; every other instance, and the same one after a
 * restart, logs the password alone in. An attacker with the password retries until the load balancer picks another
 * instance. Either the enrolment is refused like a passkey's, or every instance sees the factor.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import request from 'supertest';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { SessionManagers } from '../../src/application/session/session-manager';
import { TOKENS } from '../../src/application/tokens';
import { principalOf } from '../../src/application/users/principal';
import { loadConfig } from '../../src/main/config';
import { createInfrastructure, type Infrastructure } from '../../src/main/infrastructure';
import { buildWebApp } from '../../src/main/web';
import { prodEnv } from '../support/prod-env';
import { DisposableRedis, requireRedisServer } from '../support/redis-server';
import { bearer, codeAt } from './support';

const CONFIG_DIR = path.join(__dirname, '../../config');

describe('attack: prod, svc.directory=file, two instances on one Redis: a TOTP factor only one of them knows', function () {
  this.timeout(60_000);
  let redis: DisposableRedis;
  const infras: Infrastructure[] = [];

  before(async function () {
    await requireRedisServer(this);
    redis = await DisposableRedis.create({ password: 'prod-like-redis-pw' });
  });
  after(async () => {
    for (const i of infras) await i.close().catch(() => undefined);
    await redis?.kill();
  });

  function instance() {
    const env = prodEnv({
      SVC_REDIS_URL: redis.url,
      SVC_CRYPTO_WORKER_THREADS: '1',
      SVC_DIRECTORY: 'file',
      SVC_USERS_FILE: path.join(CONFIG_DIR, 'users.yml'),
      SVC_MEMBERS_FILE: path.join(CONFIG_DIR, 'members.yml'),
    });
    const config = loadConfig({ env });
    assert.equal(config.profile, 'prod');
    const infra = createInfrastructure(config, { log: silentLogger });
    infras.push(infra);
    return buildWebApp(config, infra);
  }

  it('a password login on the other instance asks for the factor enrolled on the first (or enrolment is refused)', async () => {
    const [first, second] = [instance(), instance()];
    const user = await first.container.get(TOKENS.UserDirectory).findByUsername('alice');
    assert.ok(user);
    const { token } = await first.container.get(SessionManagers).get('web').login(principalOf(user));
    const setup = await request(first.app.callback()).post('/auth/mfa/totp/setup').set(bearer(token));
    if (setup.status === 409 && setup.body.code === 'directory-read-only') return; // refused like a passkey: nothing to bypass
    assert.equal(setup.status, 200, setup.text);
    const confirm = await request(first.app.callback())
      .post('/auth/mfa/totp/confirm')
      .set(bearer(token))
      .send({ code: codeAt(setup.body.secret as string, Date.now()) });
    assert.equal(confirm.status, 200, confirm.text);

    const login = (app: typeof first) =>
      request(app.app.callback()).post('/auth/login').send({ username: 'alice', password: 'alice-pass-123' });
    const onFirst = await login(first);
    assert.equal(onFirst.body.mfaRequired, true, `first instance: ${onFirst.text}`);
    const onSecond = await login(second);
    assert.equal(onSecond.status, 200, onSecond.text);
    assert.equal(onSecond.body.mfaRequired, true, `the other instance logged the password alone in: ${onSecond.text.slice(0, 120)}`);
  });
});
