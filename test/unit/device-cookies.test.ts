import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import type { AuthSettings } from '../../src/application/auth/auth-settings';
import { DeviceCookies } from '../../src/application/auth/device-cookies';
import type { Logger } from '../../src/application/ports/logger';
import { deviceCookieHeader } from '../../src/adapters/koa/routes/auth-routes';
import { ConfigError, loadConfig } from '../../src/main/config';
import { authSettingsOf } from '../../src/main/container';
import { FakeClock } from '../support/fake-clock';
import { prodEnv } from '../support/prod-env';

const KEY = 'device-cookie-key-0123456789abcdef-current';
const OLD = 'device-cookie-key-0123456789abcdef-previous';

function cookies(secrets: string[], clock = new FakeClock()): DeviceCookies {
  const settings = { deviceCookie: { secrets, maxAgeSeconds: 3600, secure: false } } as unknown as AuthSettings;
  return new DeviceCookies(clock, settings);
}

describe('device cookies', () => {
  it('verify only for the login type and account they were issued for (the folded name), until they expire', () => {
    const clock = new FakeClock();
    const d = cookies([KEY], clock);
    const issued = d.issue('admin', 'Viewer');
    assert.equal(issued.maxAgeSeconds, 3600);
    const id = issued.value.split('.')[0];
    assert.equal(d.verify('admin', 'viewer', issued.value), id);
    assert.equal(d.verify('admin', 'VIEWER', issued.value), id);
    assert.equal(d.verify('admin', 'ｖｉｅｗｅｒ', issued.value), id, 'NFKC folding');
    assert.equal(d.verify('web', 'viewer', issued.value), null);
    assert.equal(d.verify('admin', 'admin', issued.value), null);
    assert.equal(d.verify('admin', 'viewer', undefined), null);
    assert.equal(d.verify('admin', 'viewer', `${issued.value}x`), null);
    assert.equal(d.verify('admin', 'viewer', issued.value.toUpperCase()), null);
    clock.advance(3599_000);
    assert.equal(d.verify('admin', 'viewer', issued.value), id);
    clock.advance(1_000);
    assert.equal(d.verify('admin', 'viewer', issued.value), null);
  });

  it('a cookie of the previous key verifies; one of another key does not; new cookies use the current key', () => {
    const old = cookies([OLD]).issue('web', 'alice').value;
    const rotated = cookies([KEY, OLD]);
    assert.notEqual(rotated.verify('web', 'alice', old), null);
    assert.equal(cookies([KEY]).verify('web', 'alice', old), null);
    const fresh = rotated.issue('web', 'alice').value;
    assert.notEqual(cookies([KEY]).verify('web', 'alice', fresh), null);
    assert.equal(cookies([OLD]).verify('web', 'alice', fresh), null);
  });

  it('the Set-Cookie header: HttpOnly, SameSite=Strict, Path=/auth, Max-Age; Secure when asked', () => {
    assert.equal(deviceCookieHeader('admin', { value: 'v', maxAgeSeconds: 60, secure: true }), 'ag_device_admin=v; Max-Age=60; Path=/auth; HttpOnly; SameSite=Strict; Secure');
    assert.equal(deviceCookieHeader('web', { value: 'v', maxAgeSeconds: 60, secure: false }), 'ag_device_web=v; Max-Age=60; Path=/auth; HttpOnly; SameSite=Strict');
  });

  describe('configuration', () => {
    const emptyDir = () => mkdtempSync(path.join(tmpdir(), 'agdev-'));
    const warnings: string[] = [];
    const log: Logger = { debug: () => undefined, info: () => undefined, error: () => undefined, warn: (_o, msg) => warnings.push(msg ?? '') };

    it('prod: the configured key (and the previous one), Secure cookies, a year by default', () => {
      const config = loadConfig({ env: prodEnv({ SVC_LOGIN_DEVICE_COOKIE_SECRET: KEY, SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET: OLD }), configDir: emptyDir() });
      assert.deepEqual(authSettingsOf(config).deviceCookie, { secrets: [KEY, OLD], maxAgeSeconds: 365 * 86400, secure: true });
    });

    it('dev without a key: one random key per configuration (both apps share it), with a warning', () => {
      warnings.length = 0;
      const config = loadConfig({ env: { APP_PROFILE: 'dev' }, configDir: emptyDir() });
      const a = authSettingsOf(config, log).deviceCookie;
      const b = authSettingsOf(config, log).deviceCookie;
      assert.equal(a.secure, false);
      assert.equal(a.secrets.length, 1);
      assert.ok((a.secrets[0] ?? '').length >= 32);
      assert.deepEqual(b.secrets, a.secrets);
      assert.notDeepEqual(authSettingsOf(loadConfig({ env: { APP_PROFILE: 'dev' }, configDir: emptyDir() })).deviceCookie.secrets, a.secrets);
      assert.equal(warnings.filter((w) => /device-cookie-secret/.test(w)).length, 1);
    });

    it('refuses a key shorter than 32 characters, naming the key', () => {
      for (const [env, key] of [
        ['SVC_LOGIN_DEVICE_COOKIE_SECRET', 'svc.login.device-cookie-secret'],
        ['SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET', 'svc.login.device-cookie-previous-secret'],
      ] as const) {
        assert.throws(
          () => loadConfig({ env: { APP_PROFILE: 'dev', [env]: 'short' }, configDir: emptyDir() }),
          (e) => e instanceof ConfigError && e.problems.length === 1 && (e.problems[0] ?? '').startsWith(`${key} (${env}): shorter than 32`),
        );
      }
    });
  });
});
