/**
 * The WebAuthn origins, one list per app: the dev defaults (each app its own port), the retired shared
 * svc.webauthn.origins refused naming the new keys, every entry an exact origin on the relying party's domain,
 * never an empty list, and an origin both apps accept starts with a warning. The container binds each app's
 * verifier to its own list (an answer from the other app's origin: test/attack/passkey-cross-app.test.ts).
 */
import assert from 'node:assert/strict';
import { configWarnings, loadConfig } from '../../src/main/config';
import { emptyConfigDir, problemsOf } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const load = (env: Record<string, string>) => loadConfig({ env, configDir: emptyConfigDir() });

describe('configuration: svc.webauthn.admin-origins and svc.webauthn.web-origins', () => {
  it('dev and test default to each app its own local origin; the packaged dev profile starts as is', () => {
    for (const profile of ['dev', 'test']) {
      const c = load({ APP_PROFILE: profile });
      assert.deepEqual(c.raw['svc.webauthn.admin-origins'], ['http://localhost:8080']);
      assert.deepEqual(c.raw['svc.webauthn.web-origins'], ['http://localhost:8081']);
      assert.deepEqual(
        configWarnings(c).filter((w) => w.includes('webauthn')),
        [],
      );
    }
    const packaged = loadConfig({ env: { APP_PROFILE: 'dev' } });
    assert.deepEqual(packaged.raw['svc.webauthn.admin-origins'], ['http://localhost:8080']);
  });

  it('each list is read from the environment, written as a browser reports an origin', () => {
    const c = load({
      APP_PROFILE: 'test',
      SVC_WEBAUTHN_RP_ID: 'example.com',
      SVC_WEBAUTHN_ADMIN_ORIGINS: 'HTTPS://Admin.Example.com/, https://example.com:8443',
      SVC_WEBAUTHN_WEB_ORIGINS: 'https://www.example.com',
    });
    assert.deepEqual(c.raw['svc.webauthn.admin-origins'], ['https://admin.example.com', 'https://example.com:8443']);
    assert.deepEqual(c.raw['svc.webauthn.web-origins'], ['https://www.example.com']);
  });

  it('the retired shared svc.webauthn.origins is refused, naming both new keys, in every profile', () => {
    for (const env of [{ APP_PROFILE: 'dev' }, prodEnv()]) {
      const problems = problemsOf({ ...env, SVC_WEBAUTHN_ORIGINS: 'http://localhost:8080' });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', /^svc\.webauthn\.origins \(SVC_WEBAUTHN_ORIGINS\): retired: both apps accepted every origin/);
      assert.match(problems[0] ?? '', /svc\.webauthn\.admin-origins \(SVC_WEBAUTHN_ADMIN_ORIGINS\)/);
      assert.match(problems[0] ?? '', /svc\.webauthn\.web-origins \(SVC_WEBAUTHN_WEB_ORIGINS\)/);
    }
  });

  it('refuses an entry that is not an exact origin, a wildcard, and an empty list, naming the key', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { SVC_WEBAUTHN_ADMIN_ORIGINS: 'http://localhost:8080/admin' },
        /^svc\.webauthn\.admin-origins .*"http:\/\/localhost:8080\/admin" is not/,
      ],
      [{ SVC_WEBAUTHN_WEB_ORIGINS: '*' }, /^svc\.webauthn\.web-origins \(SVC_WEBAUTHN_WEB_ORIGINS\): "\*" is not an exact origin/],
      [{ SVC_WEBAUTHN_WEB_ORIGINS: 'ftp://localhost' }, /^svc\.webauthn\.web-origins .*"ftp:\/\/localhost" is not an exact origin/],
      [{ SVC_WEBAUTHN_ADMIN_ORIGINS: ' , ' }, /^svc\.webauthn\.admin-origins .*expected at least one origin/],
    ];
    for (const [env, expected] of cases) {
      const problems = problemsOf({ APP_PROFILE: 'test', ...env });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0] ?? '', expected);
    }
  });

  it("refuses an origin outside the relying party's domain (a browser would run no ceremony there)", () => {
    const problems = problemsOf({
      APP_PROFILE: 'test',
      SVC_WEBAUTHN_RP_ID: 'example.com',
      SVC_WEBAUTHN_ADMIN_ORIGINS: 'https://admin.example.com,https://badexample.com',
      SVC_WEBAUTHN_WEB_ORIGINS: 'https://example.org',
    });
    assert.deepEqual(problems, [
      'svc.webauthn.admin-origins (SVC_WEBAUTHN_ADMIN_ORIGINS): "https://badexample.com" is not on svc.webauthn.rp-id ' +
        '(SVC_WEBAUTHN_RP_ID) "example.com" or a subdomain of it',
      'svc.webauthn.web-origins (SVC_WEBAUTHN_WEB_ORIGINS): "https://example.org" is not on svc.webauthn.rp-id ' +
        '(SVC_WEBAUTHN_RP_ID) "example.com" or a subdomain of it',
    ]);
  });

  it('an origin in both lists starts, with a warning that both apps accept answers made there', () => {
    const c = load({ APP_PROFILE: 'test', SVC_WEBAUTHN_WEB_ORIGINS: 'http://localhost:8081,http://localhost:8080' });
    const warnings = configWarnings(c).filter((w) => w.includes('webauthn'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', /^http:\/\/localhost:8080 is in both svc\.webauthn\.admin-origins .* accepted by both apps$/);
  });
});
