/**
 * Prod refuses the signing secret the repository publishes and low-entropy HMAC secrets: fewer than
 * MIN_DISTINCT_CHARACTERS distinct characters, or a shorter sequence repeated. Dev and test do not.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/main/config';
import { MIN_DISTINCT_CHARACTERS, PUBLISHED_SECRETS, weakSecretReason } from '../../src/main/config/secret-strength';
import { emptyConfigDir, problemsOf } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const root = path.join(__dirname, '../..');
const DEMO = 'dev-only-demo-secret-not-for-production';

describe('prod refuses published and low-entropy secrets', () => {
  it("the published list holds the dev profile's demo-app secret, the one the integration guide prints", () => {
    const dev = parseYaml(readFileSync(path.join(root, 'config/application-dev.yml'), 'utf8')) as {
      svc: { security: { sign: { apps: Record<string, string> } } };
    };
    const demo = dev.svc.security.sign.apps['demo-app'] ?? '';
    assert.equal(demo, DEMO);
    assert.ok(PUBLISHED_SECRETS.includes(demo));
    assert.ok(readFileSync(path.join(root, 'docs/integration-third-party.md'), 'utf8').includes(demo));
  });

  it('refuses the demo secret for any app, naming the key and the app, never echoing the secret', () => {
    for (const app of ['demo-app', 'partner']) {
      const problems = problemsOf(prodEnv({ SVC_SECURITY_SIGN_APPS: JSON.stringify({ [app]: DEMO }) }));
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(
        problems[0] ?? '',
        new RegExp(
          `^svc\\.security\\.sign\\.apps \\(SVC_SECURITY_SIGN_APPS\\): the secret of app "${app}" is ` +
            `the demo secret the repository publishes`,
        ),
      );
      assert.ok(!(problems[0] ?? '').includes(DEMO), 'the secret is not echoed');
    }
  });

  it('refuses a 32-identical-character device cookie secret and other low-entropy secrets, one problem each, naming the key', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { SVC_LOGIN_DEVICE_COOKIE_SECRET: 'a'.repeat(32) },
        new RegExp(
          String.raw`^svc\.login\.device-cookie-secret \(SVC_LOGIN_DEVICE_COOKIE_SECRET\):` +
            String.raw` the secret is low-entropy: 1 distinct character, fewer than 6`,
        ),
      ],
      [
        { SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET: 'ab'.repeat(20) },
        new RegExp(
          String.raw`^svc\.login\.device-cookie-previous-secret \(SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET\):` +
            String.raw` the secret is low-entropy: 2 distinct characters`,
        ),
      ],
      [
        { SVC_LOGIN_DEVICE_COOKIE_SECRET: '0123456789abcdef0123456789abcdef' },
        /^svc\.login\.device-cookie-secret .*a 16-character sequence repeated/,
      ],
      [
        { SVC_IDEMPOTENCY_TOKEN_SECRET: 'x'.repeat(40) },
        /^svc\.idempotency\.token-secret \(SVC_IDEMPOTENCY_TOKEN_SECRET\): the secret is low-entropy/,
      ],
      [
        { SVC_IDEMPOTENCY_TOKEN_PREVIOUS_SECRET: 'xy'.repeat(20) },
        /^svc\.idempotency\.token-previous-secret \(SVC_IDEMPOTENCY_TOKEN_PREVIOUS_SECRET\): the secret is low-entropy/,
      ],
      [
        { SVC_SECURITY_SIGN_APPS: '{"partner":"passwordpassword"}' },
        new RegExp(
          String.raw`^svc\.security\.sign\.apps \(SVC_SECURITY_SIGN_APPS\): the secret` +
            String.raw` of app "partner" is low-entropy: a 8-character sequence repeated`,
        ),
      ],
      [
        { SVC_SECURITY_SIGN_APPS: '{"partner":"1111122222333334444"}' },
        /the secret of app "partner" is low-entropy: 4 distinct characters/,
      ],
      [
        { SESSION_IS_SHARE: 'true', SESSION_SHARE_SECRET: 'x'.repeat(40) },
        /^session\.share-secret \(SESSION_SHARE_SECRET\): the secret is low-entropy/,
      ],
    ];
    for (const [env, expected] of cases) {
      const problems = problemsOf(prodEnv(env));
      assert.equal(problems.length, 1, `${JSON.stringify(env)}: ${problems.join('\n')}`);
      assert.match(problems[0] ?? '', expected);
    }
    const several = problemsOf(
      prodEnv({
        SVC_SECURITY_SIGN_APPS: '{"a":"zzzzzzzzzzzzzzzz","b":"0123456789abcdef0123"}',
        SVC_LOGIN_DEVICE_COOKIE_SECRET: '-'.repeat(32),
      }),
    );
    assert.equal(several.length, 2, several.join('\n'));
  });

  it('the rule: at least 6 distinct characters and not a shorter sequence repeated', () => {
    assert.equal(MIN_DISTINCT_CHARACTERS, 6);
    assert.equal(weakSecretReason('abcdeabcdeabcdeX'), null, '6 distinct, period 16');
    assert.match(weakSecretReason('abcdeabcdeabcdeab') ?? '', /5 distinct/);
    assert.match(weakSecretReason('abcdefabcdefabcdef') ?? '', /6-character sequence repeated/);
    assert.match(weakSecretReason('abcdefghabcdefghab') ?? '', /8-character sequence repeated/, 'a truncated repetition counts');
    assert.equal(weakSecretReason('abcdefghijabcdefg'), null, 'period 10 of 17: less than twice over');
    // the fixtures every prod test uses, and generated secrets, pass
    for (const ok of [
      '0123456789abcdef0123',
      'device-cookie-key-0123456789abcdef',
      randomBytes(32).toString('base64'),
      randomBytes(16).toString('hex'),
    ])
      assert.equal(weakSecretReason(ok), null, ok);
  });

  it('dev and test accept them (the dev profile ships the demo secret)', () => {
    for (const profile of ['dev', 'test']) {
      const c = loadConfig({
        env: {
          APP_PROFILE: profile,
          SVC_LOGIN_DEVICE_COOKIE_SECRET: 'a'.repeat(32),
          SVC_SECURITY_SIGN_APPS: JSON.stringify({ partner: DEMO }),
        },
        configDir: emptyConfigDir(),
      });
      assert.equal(c.deviceCookie.secret, 'a'.repeat(32));
    }
  });
});
