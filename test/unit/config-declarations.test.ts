/**
 * Each key is declared once (src/main/config/settings/): its type, environment variables and simple
 * prod rules come from that declaration.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/main/config';
import { CONFIG_KEYS, declarationOf, envNameOf, envNamesOf, named, type SettingValue } from '../../src/main/config/keys';
import { HMAC_KEYS, requiredInProdChecks } from '../../src/main/config/declared-rules';
import type { AppConfig } from '../../src/main/config/app-config';
import { emptyConfigDir, problemsOf } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

describe('configuration keys are declared once', () => {
  it('every declaration has a one-line description and a default its own schema accepts (secrets default to nothing)', () => {
    for (const key of CONFIG_KEYS) {
      const d = declarationOf(key);
      assert.ok(d.doc.trim() !== '' && !d.doc.includes('\n'), `${key}: one-line doc`);
      assert.ok(d.schema.safeParse(d.default).success, `${key}: default passes its schema`);
      if (d.secret) assert.ok(d.default === '' || JSON.stringify(d.default) === '{}', `${key}: a secret has no default`);
      if (d.hmac !== undefined) assert.ok(d.secret, `${key}: an HMAC key is a secret`);
    }
  });

  it('a value is typed by its declaration (a wrong type does not compile)', () => {
    const c = loadConfig({ env: {}, configDir: emptyConfigDir() });
    const failures: SettingValue<'svc.login.max-failures'> = c.raw['svc.login.max-failures'];
    // @ts-expect-error a number setting is not a string
    const wrong: string = c.raw['svc.login.max-failures'];
    // @ts-expect-error an enum setting holds only its values
    const store: SettingValue<'svc.store'> = 'mongo';
    assert.equal(failures, 10);
    assert.equal(typeof wrong, 'number');
    assert.equal(store, 'mongo');
  });

  it('environment names: derived from the key, aliases read only when the variable is not set', () => {
    assert.equal(envNameOf('session.timeout'), 'SESSION_TIMEOUT');
    assert.deepEqual(envNamesOf('svc.redis.url'), ['SVC_REDIS_URL', 'REDIS_URL']);
    assert.equal(named('svc.redis.url'), 'svc.redis.url (SVC_REDIS_URL or REDIS_URL)');
    const url = (env: Record<string, string>) => loadConfig({ env, configDir: emptyConfigDir() }).redis.url;
    assert.equal(url({ REDIS_URL: 'redis://a:6379' }), 'redis://a:6379');
    assert.equal(url({ REDIS_URL: 'redis://a:6379', SVC_REDIS_URL: 'redis://b:6379' }), 'redis://b:6379');
  });

  it('a key declared requiredInProd is refused in prod when empty, naming its key and variable', () => {
    const required = CONFIG_KEYS.filter((k) => declarationOf(k).requiredInProd !== undefined);
    assert.deepEqual(required, ['svc.rsa-private-key', 'svc.login.device-cookie-secret', 'svc.idempotency.token-secret']);
    for (const key of required) {
      const problems = problemsOf(prodEnv({ [envNameOf(key)]: '  ' }));
      assert.deepEqual(problems, [`${named(key)}: required in prod (${declarationOf(key).requiredInProd?.why})`]);
    }
  });

  it('requiredInProd counts a number or a flag as a value (only blanks, an empty list or map are missing)', () => {
    const c = loadConfig({ env: {}, configDir: emptyConfigDir() });
    const prod = { ...c, profile: 'prod' as const };
    const rules = CONFIG_KEYS.filter((k) => declarationOf(k).requiredInProd !== undefined);
    assert.deepEqual(requiredInProdChecks(prod).length, rules.length);
    const filled = {
      ...prod,
      raw: { ...prod.raw, 'svc.rsa-private-key': 0, 'svc.login.device-cookie-secret': false, 'svc.idempotency.token-secret': ['x'] },
    };
    assert.deepEqual(requiredInProdChecks(filled as unknown as AppConfig), []);
  });

  it('the HMAC keys are the session share secret, the device-cookie keys and the idempotency token keys', () => {
    assert.deepEqual(HMAC_KEYS, [
      'session.share-secret',
      'svc.login.device-cookie-secret',
      'svc.login.device-cookie-previous-secret',
      'svc.idempotency.token-secret',
      'svc.idempotency.token-previous-secret',
    ]);
  });
});
