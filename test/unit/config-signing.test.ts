/** The signing scheme and public URL keys: environment mapping, defaults and the start-up refusals. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { configWarnings, DEFAULT_CONFIG_DIR, envNameOf, loadConfig } from '../../src/main/config';
import { emptyConfigDir, problemsOf } from '../support/config-problems';

const APPS = '{"partner":"0123456789abcdef0123","legacy":"fedcba98765432100123"}';

describe('configuration: svc.security.sign.schemes and svc.security.sign.public-urls', () => {
  it('map to SVC_SECURITY_SIGN_SCHEMES and SVC_SECURITY_SIGN_PUBLIC_URLS (JSON objects, like the apps)', () => {
    assert.equal(envNameOf('svc.security.sign.schemes'), 'SVC_SECURITY_SIGN_SCHEMES');
    assert.equal(envNameOf('svc.security.sign.public-urls'), 'SVC_SECURITY_SIGN_PUBLIC_URLS');
    const c = loadConfig({
      env: {
        SVC_SECURITY_SIGN_APPS: APPS,
        SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421","legacy":" v1 , rfc9421 "}',
        SVC_SECURITY_SIGN_PUBLIC_URLS: '{"web":"https://API.example.com/gw/","admin":"http://admin.example.com:8080"}',
      },
      configDir: emptyConfigDir(),
    });
    assert.deepEqual(c.sign.schemes, { partner: ['rfc9421'], legacy: ['v1', 'rfc9421'] });
    assert.deepEqual(c.sign.publicUrls, { web: 'https://api.example.com/gw', admin: 'http://admin.example.com:8080' });
  });

  it('default to {} (every app signs with v1; @target-uri from the Host header)', () => {
    const c = loadConfig({ env: {}, configDir: emptyConfigDir() });
    assert.deepEqual(c.sign.schemes, {});
    assert.deepEqual(c.sign.publicUrls, {});
  });

  it('are read from YAML too', () => {
    const dir = emptyConfigDir();
    writeFileSync(
      path.join(dir, 'application.yml'),
      'svc:\n  security:\n    sign:\n      apps: {partner: "0123456789abcdef0123"}\n      ' +
        'schemes: {partner: "v1,rfc9421"}\n      public-urls: {web: "https://api.example.com"}\n',
    );
    const c = loadConfig({ env: {}, configDir: dir });
    assert.deepEqual(c.sign.schemes, { partner: ['v1', 'rfc9421'] });
    assert.deepEqual(c.sign.publicUrls, { web: 'https://api.example.com' });
  });

  for (const [value, named] of [
    ['{"partner":"v2"}', '"v2"'],
    ['{"partner":"v1,hmac"}', '"hmac"'],
    ['{"partner":""}', '""'],
    ['{"partner":"RFC9421"}', '"RFC9421"'],
  ] as const) {
    it(`an unknown scheme (${value}) fails the start naming the key, the app and the scheme`, () => {
      const problems = problemsOf({ SVC_SECURITY_SIGN_APPS: APPS, SVC_SECURITY_SIGN_SCHEMES: value });
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(
        problems[0] as string,
        /^svc\.security\.sign\.schemes \(SVC_SECURITY_SIGN_SCHEMES\): app "partner": unknown signing scheme /,
      );
      assert.ok((problems[0] as string).includes(named), problems[0]);
    });
  }

  it('refuses a scheme map that is not an object of strings, and a scheme for an app that is not registered', () => {
    assert.match(
      problemsOf({ SVC_SECURITY_SIGN_SCHEMES: 'rfc9421' })[0] as string,
      /^svc\.security\.sign\.schemes \(SVC_SECURITY_SIGN_SCHEMES\): expected a JSON object/,
    );
    assert.match(problemsOf({ SVC_SECURITY_SIGN_SCHEMES: '{"partner":["v1"]}' })[0] as string, /^svc\.security\.sign\.schemes /);
    const unregistered = problemsOf({ SVC_SECURITY_SIGN_APPS: APPS, SVC_SECURITY_SIGN_SCHEMES: '{"ghost":"rfc9421"}' });
    assert.deepEqual(unregistered, ['svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): app "ghost" is not in svc.security.sign.apps']);
  });

  describe("the packaged profiles' schemes for apps the operator's map does not contain", () => {
    const OWN = '{"partner":"0123456789abcdef0123"}';

    it(
      "a dev start with only one's own app (SVC_SECURITY_SIGN_APPS, as .env.example shows) " +
        "starts: the dev profile's demo-app scheme is dropped with a warning",
      () => {
        const c = loadConfig({ env: { APP_PROFILE: 'dev', SVC_SECURITY_SIGN_APPS: OWN } });
        assert.deepEqual(c.sign.apps, { partner: '0123456789abcdef0123' });
        assert.deepEqual(c.sign.schemes, {}, 'partner signs with v1, the default');
        assert.deepEqual(c.raw['svc.security.sign.schemes'], {});
        const warnings = configWarnings(c).filter((w) => w.startsWith('svc.security.sign.schemes'));
        assert.equal(warnings.length, 1, configWarnings(c).join('\n'));
        assert.match(
          warnings[0] as string,
          new RegExp(
            String.raw`^svc\.security\.sign\.schemes \(SVC_SECURITY_SIGN_SCHEMES\): the entry for app "demo-app" in` +
              String.raw` config\/application-dev\.yml is ignored: "demo-app" is not in svc\.security\.sign\.apps`,
          ),
        );
      },
    );

    it("keeps the entry, without a warning, when the app is in the map (the packaged default, or the operator's map naming it)", () => {
      const own = loadConfig({ env: { APP_PROFILE: 'dev' } });
      assert.deepEqual(own.sign.schemes, { 'demo-app': ['v1', 'rfc9421'] });
      assert.deepEqual(
        configWarnings(own).filter((w) => w.includes('sign.schemes')),
        [],
      );
      const both = loadConfig({
        env: { APP_PROFILE: 'dev', SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123","demo-app":"fedcba98765432100123"}' },
      });
      assert.deepEqual(both.sign.schemes, { 'demo-app': ['v1', 'rfc9421'] });
      assert.deepEqual(
        configWarnings(both).filter((w) => w.includes('sign.schemes')),
        [],
      );
    });

    it('still refuses a schemes entry the operator wrote in the environment for an unknown app, naming the key', () => {
      const problems = problemsOf(
        { APP_PROFILE: 'dev', SVC_SECURITY_SIGN_APPS: OWN, SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421","ghost":"v1"}' },
        DEFAULT_CONFIG_DIR,
      );
      assert.deepEqual(problems, ['svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): app "ghost" is not in svc.security.sign.apps']);
    });

    it(
      "still refuses a schemes entry in the operator's own configuration directory " +
        '(SVC_CONFIG_DIR) for an unknown app, naming the key and the file',
      () => {
        const dir = emptyConfigDir();
        writeFileSync(path.join(dir, 'application-dev.yml'), 'svc:\n  security:\n    sign:\n      schemes: {ghost: "rfc9421"}\n');
        const problems = problemsOf({ APP_PROFILE: 'dev', SVC_SECURITY_SIGN_APPS: OWN }, dir);
        assert.deepEqual(problems, [
          'svc.security.sign.schemes (SVC_SECURITY_SIGN_SCHEMES): app "ghost" is not in ' +
            'svc.security.sign.apps (the entry is in application-dev.yml)',
        ]);
        assert.throws(
          () => loadConfig({ env: { APP_PROFILE: 'dev', SVC_SECURITY_SIGN_APPS: OWN, SVC_CONFIG_DIR: dir } }),
          /app "ghost" is not in svc\.security\.sign\.apps/,
        );
      },
    );
  });

  it('an rfc9421 app key must be printable ASCII (it is the keyid, an RFC 8941 string)', () => {
    const problems = problemsOf({
      SVC_SECURITY_SIGN_APPS: '{"partnér":"0123456789abcdef0123"}',
      SVC_SECURITY_SIGN_SCHEMES: '{"partnér":"rfc9421"}',
    });
    assert.match(problems[0] as string, /app "partnér" signs with rfc9421, so its key \(the keyid\) must be printable ASCII/);
    loadConfig({ env: { SVC_SECURITY_SIGN_APPS: '{"partnér":"0123456789abcdef0123"}' }, configDir: emptyConfigDir() }); // v1 takes any key
  });

  for (const [value, pattern] of [
    ['{"api":"https://api.example.com"}', /"api" is not an app \(expected admin or web\)/],
    ['{"web":"ftp://api.example.com"}', /web: "ftp:\/\/api\.example\.com" is not an http\(s\) base URL/],
    ['{"web":"https://api.example.com/?x=1"}', /is not an http\(s\) base URL without query or fragment/],
    ['{"web":"https://api.example.com/#f"}', /is not an http\(s\) base URL without query or fragment/],
    ['{"web":"not a url"}', /is not an http\(s\) base URL/],
  ] as const) {
    it(`public-urls ${value} fails the start naming the key`, () => {
      const problems = problemsOf({ SVC_SECURITY_SIGN_PUBLIC_URLS: value });
      assert.match(problems[0] as string, /^svc\.security\.sign\.public-urls \(SVC_SECURITY_SIGN_PUBLIC_URLS\): /);
      assert.match(problems[0] as string, pattern);
    });
  }
});
