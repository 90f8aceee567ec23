import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, envNameOf, loadConfig } from '../../src/main/config';

const emptyDir = () => mkdtempSync(path.join(tmpdir(), 'agcfg-'));
const rsaKey = (bits: number) => generateKeyPairSync('rsa', { modulusLength: bits }).privateKey;
const RSA_2048 = rsaKey(2048);
const PROD_SECRETS = {
  SVC_RSA_PRIVATE_KEY: RSA_2048.export({ type: 'pkcs8', format: 'pem' }).toString(),
  SVC_REDIS_URL: 'redis://:s3cret@127.0.0.1:6379/0',
  SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123"}',
  SVC_LOGIN_DEVICE_COOKIE_SECRET: 'device-cookie-key-0123456789abcdef',
  SVC_IDEMPOTENCY_TOKEN_SECRET: 'idempotency-token-key-0123456789abcdef',
};

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected ConfigError, got ${String(e)}`);
    return [...e.problems];
  }
  assert.fail('expected the configuration to be refused');
}

describe('configuration', () => {
  it('maps keys to environment variable names', () => {
    assert.equal(envNameOf('svc.captcha.enabled'), 'SVC_CAPTCHA_ENABLED');
    assert.equal(envNameOf('session.timeout'), 'SESSION_TIMEOUT');
    assert.equal(envNameOf('svc.rsa-private-key'), 'SVC_RSA_PRIVATE_KEY');
    assert.equal(envNameOf('svc.security.sign.apps'), 'SVC_SECURITY_SIGN_APPS');
  });

  it('defaults every session.* key to the spec table', () => {
    const c = loadConfig({ env: {}, configDir: emptyDir() });
    assert.equal(c.profile, 'dev');
    assert.deepEqual(
      { ...c.session, shareSecret: undefined },
      {
        tokenName: 'Authorization',
        tokenPrefix: 'Bearer',
        timeout: 604800,
        activeTimeout: -1,
        isConcurrent: true,
        isShare: false,
        isReadCookie: false,
        tokenStyle: 'uuid',
        isLog: false,
        isPrint: false,
        replacedRange: 'CURR_DEVICE_TYPE',
        replacedLoginExitMode: 'OLD_DEVICE',
        maxLoginCount: 12,
        overflowLogoutMode: 'LOGOUT',
        noRememberTimeout: 86400,
        tombstoneRetention: 86400,
        shareSecret: undefined,
      },
    );
    assert.equal(c.sign.enabled, true);
    assert.equal(c.sign.timeoutSeconds, 300);
    assert.equal(c.sign.nonceTtlSeconds, 600);
    assert.equal(c.adminPort, 8080);
    assert.equal(c.webPort, 8081);
    assert.equal(c.store, 'memory');
    assert.equal(c.rsaPrivateKey, '', 'no default secret');
    assert.deepEqual(c.sign.apps, {});
  });

  it('layers defaults < application.yml < application-<profile>.yml < environment', () => {
    const dir = emptyDir();
    writeFileSync(
      path.join(dir, 'application.yml'),
      'session:\n  timeout: 100\n  active-timeout: 50\nsvc:\n  captcha:\n    captcha-type: text\n',
    );
    writeFileSync(path.join(dir, 'application-test.yml'), 'session:\n  timeout: 200\n');
    const c = loadConfig({ env: { APP_PROFILE: 'test', SESSION_ACTIVE_TIMEOUT: '60' }, configDir: dir });
    assert.equal(c.session.timeout, 200);
    assert.equal(c.session.activeTimeout, 60);
    assert.equal(c.captcha.type, 'text');
  });

  it('parses lists, booleans and JSON maps from the environment', () => {
    const c = loadConfig({
      env: {
        SVC_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8',
        SVC_CAPTCHA_ENABLED: 'false',
        SVC_SECURITY_SIGN_APPS: '{"app1":"0123456789abcdef"}',
      },
      configDir: emptyDir(),
    });
    assert.deepEqual(c.trustedProxies, ['127.0.0.1', '10.0.0.0/8']);
    assert.equal(c.captcha.enabled, false);
    assert.deepEqual(c.sign.apps, { app1: '0123456789abcdef' });
  });

  it('accepts REDIS_URL, and SVC_REDIS_URL wins over it', () => {
    assert.equal(loadConfig({ env: { REDIS_URL: 'redis://a:6379' }, configDir: emptyDir() }).redis.url, 'redis://a:6379');
    assert.equal(
      loadConfig({ env: { REDIS_URL: 'redis://a:6379', SVC_REDIS_URL: 'redis://b:6379' }, configDir: emptyDir() }).redis.url,
      'redis://b:6379',
    );
  });

  it('names the key of every wrong value at once', () => {
    const problems = problemsOf(() =>
      loadConfig({
        env: { SESSION_TIMEOUT: 'soon', SVC_CAPTCHA_CAPTCHA_TYPE: 'audio', SVC_ADMIN_PORT: '70000', SVC_TRUSTED_PROXIES: 'not-an-ip' },
        configDir: emptyDir(),
      }),
    );
    assert.ok(
      problems.some((p) => p.startsWith('session.timeout (SESSION_TIMEOUT)')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('svc.captcha.captcha-type')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('svc.admin.port')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('svc.trusted-proxies')),
      problems.join('\n'),
    );
  });

  it('rejects unknown keys in YAML (typos do not pass silently)', () => {
    const dir = emptyDir();
    writeFileSync(path.join(dir, 'application.yml'), 'session:\n  timout: 5\n');
    const problems = problemsOf(() => loadConfig({ env: {}, configDir: dir }));
    assert.ok(problems.some((p) => p.includes('session.timout')));
  });

  it("validates Sa-Token's session policy keys at start, naming each (every problem at once)", () => {
    const problems = problemsOf(() =>
      loadConfig({
        env: {
          SESSION_REPLACED_RANGE: 'curr_device_type',
          SESSION_REPLACED_LOGIN_EXIT_MODE: 'NEWEST',
          SESSION_MAX_LOGIN_COUNT: '0',
          SESSION_OVERFLOW_LOGOUT_MODE: 'BAN',
          SESSION_NO_REMEMBER_TIMEOUT: '-1',
          SESSION_TOMBSTONE_RETENTION: '10',
        },
        configDir: emptyDir(),
      }),
    );
    for (const key of [
      'session.replaced-range',
      'session.replaced-login-exit-mode',
      'session.max-login-count',
      'session.overflow-logout-mode',
      'session.no-remember-timeout',
      'session.tombstone-retention',
    ])
      assert.ok(
        problems.some((p) => p.startsWith(key)),
        `${key}: ${problems.join('\n')}`,
      );
    const ok = loadConfig({
      env: {
        SESSION_MAX_LOGIN_COUNT: '-1',
        SESSION_REPLACED_RANGE: 'ALL_DEVICE_TYPE',
        SESSION_OVERFLOW_LOGOUT_MODE: 'KICKOUT',
        SESSION_TOMBSTONE_RETENTION: '600',
      },
      configDir: emptyDir(),
    });
    assert.deepEqual(
      [ok.session.maxLoginCount, ok.session.replacedRange, ok.session.overflowLogoutMode, ok.session.tombstoneRetention],
      [-1, 'ALL_DEVICE_TYPE', 'KICKOUT', 600],
    );
  });

  it('rejects an unknown profile', () => {
    const problems = problemsOf(() => loadConfig({ env: { APP_PROFILE: 'staging' }, configDir: emptyDir() }));
    assert.match(problems[0] ?? '', /APP_PROFILE/);
  });

  describe('production has no default secrets', () => {
    it('lists every missing secret at once and refuses the memory store', () => {
      const problems = problemsOf(() => loadConfig({ env: { APP_PROFILE: 'prod', SVC_STORE: 'memory' }, configDir: emptyDir() }));
      const joined = problems.join('\n');
      assert.match(joined, /svc\.store/);
      assert.match(joined, /svc\.rsa-private-key/);
      assert.match(joined, /svc\.redis\.url/);
      assert.match(joined, /svc\.security\.sign\.apps/);
      assert.match(joined, /svc\.login\.device-cookie-secret/);
      assert.match(joined, /svc\.idempotency\.token-secret/);
    });

    for (const missing of Object.keys(PROD_SECRETS)) {
      it(`refuses to start when only ${missing} is missing`, () => {
        const env: Record<string, string> = { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS };
        delete env[missing];
        const problems = problemsOf(() => loadConfig({ env, configDir: emptyDir() }));
        assert.equal(problems.length, 1, problems.join('\n'));
        assert.match(problems[0] ?? '', new RegExp(missing));
      });
    }

    it('requires a password in the Redis URL', () => {
      const problems = problemsOf(() =>
        loadConfig({
          env: { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS, SVC_REDIS_URL: 'redis://127.0.0.1:6379' },
          configDir: emptyDir(),
        }),
      );
      assert.match(problems.join('\n'), /password/);
    });

    it('does not require app secrets when signing is off', () => {
      const env: Record<string, string> = { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS, SVC_SECURITY_SIGN_ENABLED: 'false' };
      delete env.SVC_SECURITY_SIGN_APPS;
      assert.equal(loadConfig({ env, configDir: emptyDir() }).profile, 'prod');
    });

    it('starts with every secret supplied', () => {
      const c = loadConfig({ env: { APP_PROFILE: 'prod', SVC_STORE: 'redis', ...PROD_SECRETS }, configDir: emptyDir() });
      assert.equal(c.store, 'redis');
    });
  });

  describe('web app members and problem URIs', () => {
    it('dev and test seed config/members.yml and point problem types at the local web app; prod seeds nobody', () => {
      for (const profile of ['dev', 'test']) {
        const c = loadConfig({ env: { APP_PROFILE: profile } });
        assert.match(c.membersFile, /config[\\/]members\.yml$/);
        assert.equal(c.problemBaseUri, 'http://localhost:8081/problems/');
        assert.equal(c.registerPerHour, 10);
      }
      const prod = loadConfig({ env: { APP_PROFILE: 'prod', ...PROD_SECRETS } });
      assert.equal(prod.membersFile, '');
      assert.equal(prod.problemBaseUri, 'https://authguard.example/problems/');
    });
    it('a missing members file or a bad register limit fails the start, naming the key', () => {
      const p1 = problemsOf(() => loadConfig({ env: { SVC_MEMBERS_FILE: 'nope.yml' }, configDir: emptyDir() }));
      assert.ok(
        p1.some((p) => p.startsWith('svc.members-file (SVC_MEMBERS_FILE): no such file')),
        p1.join('\n'),
      );
      const p2 = problemsOf(() => loadConfig({ env: { SVC_REGISTER_RATE_LIMIT_PER_HOUR: '0' }, configDir: emptyDir() }));
      assert.ok(
        p2.some((p) => p.startsWith('svc.register.rate-limit-per-hour (SVC_REGISTER_RATE_LIMIT_PER_HOUR)')),
        p2.join('\n'),
      );
    });
  });

  describe('svc.rsa-private-key', () => {
    const load = (key: string) => loadConfig({ env: { APP_PROFILE: 'dev', SVC_RSA_PRIVATE_KEY: key }, configDir: emptyDir() });
    it('accepts PEM PKCS#8, PEM PKCS#1 (also with \\n escapes) and base64 DER', () => {
      load(RSA_2048.export({ type: 'pkcs8', format: 'pem' }).toString());
      const pkcs1 = RSA_2048.export({ type: 'pkcs1', format: 'pem' }).toString();
      load(pkcs1);
      load(pkcs1.replace(/\n/g, '\\n'));
      load(RSA_2048.export({ type: 'pkcs8', format: 'der' }).toString('base64'));
      load(RSA_2048.export({ type: 'pkcs1', format: 'der' }).toString('base64'));
    });
    it('refuses a key under 2048 bits, garbage and non-RSA keys, naming the key', () => {
      for (const bad of [
        rsaKey(1024).export({ type: 'pkcs8', format: 'pem' }).toString(),
        'not a key',
        generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      ]) {
        const problems = problemsOf(() => load(bad));
        assert.match(problems.join('\n'), /^svc\.rsa-private-key \(SVC_RSA_PRIVATE_KEY\)/);
      }
      assert.match(problemsOf(() => load(rsaKey(1024).export({ type: 'pkcs8', format: 'pem' }).toString())).join(), /1024 bits/);
    });
  });

  it('requires a share secret when is-share is on', () => {
    const problems = problemsOf(() => loadConfig({ env: { SESSION_IS_SHARE: 'true' }, configDir: emptyDir() }));
    assert.match(problems.join('\n'), /session\.share-secret/);
  });

  it('the repository config files load for every profile without secrets (dev, test)', () => {
    assert.equal(loadConfig({ env: { APP_PROFILE: 'dev' } }).store, 'memory');
    assert.equal(loadConfig({ env: { APP_PROFILE: 'test' } }).store, 'memory');
  });
});
