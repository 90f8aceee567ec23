import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import 'reflect-metadata';
import type { AuthSettings } from '../../src/application/auth/auth-settings';
import { DeviceCookies } from '../../src/application/auth/device-cookies';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import type { Logger } from '../../src/application/ports/logger';
import { deviceCookieHeader } from '../../src/adapters/koa/routes/auth-routes';
import { ConfigError, loadConfig } from '../../src/main/config';
import { authSettingsOf } from '../../src/main/container';
import { FakeClock } from '../support/fake-clock';
import { prodEnv } from '../support/prod-env';

const KEY = 'device-cookie-key-0123456789abcdef-current';
const OLD = 'device-cookie-key-0123456789abcdef-previous';

function cookies(secrets: string[], clock = new FakeClock(), kv: KeyValueStore = new InMemoryBackend(clock).kv): DeviceCookies {
  const settings = { deviceCookie: { secrets, maxAgeSeconds: 3600, secure: false, path: '/' } } as unknown as AuthSettings;
  return new DeviceCookies(clock, settings, kv);
}

describe('device cookies', () => {
  it('verify only for the login type and account they were issued for (the folded name), until they expire', async () => {
    const clock = new FakeClock();
    const d = cookies([KEY], clock);
    const issued = d.issue('admin', 'Viewer');
    assert.equal(issued.maxAgeSeconds, 3600);
    const id = issued.value.split('.')[0];
    assert.equal(await d.verify('admin', 'viewer', [issued.value]), id);
    assert.equal(await d.verify('admin', 'VIEWER', [issued.value]), id);
    assert.equal(await d.verify('admin', 'ｖｉｅｗｅｒ', [issued.value]), id, 'NFKC folding');
    assert.equal(await d.verify('web', 'viewer', [issued.value]), null);
    assert.equal(await d.verify('admin', 'admin', [issued.value]), null);
    assert.equal(await d.verify('admin', 'viewer', []), null);
    assert.equal(await d.verify('admin', 'viewer', [`${issued.value}x`]), null);
    assert.equal(await d.verify('admin', 'viewer', [issued.value.toUpperCase()]), null);
    clock.advance(3599_000);
    assert.equal(await d.verify('admin', 'viewer', [issued.value]), id);
    clock.advance(1_000);
    assert.equal(await d.verify('admin', 'viewer', [issued.value]), null);
  });

  it('a cookie of the previous key verifies; one of another key does not; new cookies use the current key', async () => {
    const old = cookies([OLD]).issue('web', 'alice').value;
    const rotated = cookies([KEY, OLD]);
    assert.notEqual(await rotated.verify('web', 'alice', [old]), null);
    assert.equal(await cookies([KEY]).verify('web', 'alice', [old]), null);
    const fresh = rotated.issue('web', 'alice').value;
    assert.notEqual(await cookies([KEY]).verify('web', 'alice', [fresh]), null);
    assert.equal(await cookies([OLD]).verify('web', 'alice', [fresh]), null);
  });

  it('the Set-Cookie header: HttpOnly, SameSite=Strict, the configured Path, Max-Age; Secure when asked', () => {
    assert.equal(
      deviceCookieHeader('admin', { value: 'v', maxAgeSeconds: 60, secure: true, path: '/' }),
      'ag_device_admin=v; Max-Age=60; Path=/; HttpOnly; SameSite=Strict; Secure',
    );
    assert.equal(
      deviceCookieHeader('web', { value: 'v', maxAgeSeconds: 60, secure: false, path: '/api/auth' }),
      'ag_device_web=v; Max-Age=60; Path=/api/auth; HttpOnly; SameSite=Strict',
    );
  });

  it(
    "every value presented is tried (a planted junk or foreign cookie before the owner's hides " + 'nothing), at most 8 well-formed ones',
    async () => {
      const d = cookies([KEY]);
      const own = d.issue('web', 'alice').value;
      const foreign = d.issue('web', 'bob').value;
      const id = own.split('.')[0];
      assert.equal(await d.verify('web', 'alice', ['x', foreign, '', own]), id);
      assert.equal(await d.verify('web', 'alice', [...Array(50).fill('junk'), own]), id, 'junk does not count towards the cap');
      assert.equal(await d.verify('web', 'alice', [...Array(8).fill(foreign), own]), null, 'the ninth well-formed value is not read');
    },
  );

  it('revokeAll: cookies issued before it stop verifying (the form of earlier releases too); cookies issued after it verify', async () => {
    const clock = new FakeClock(Date.now());
    const kv = new InMemoryBackend(clock).kv;
    const d = cookies([KEY], clock, kv);
    const before = d.issue('admin', 'viewer').value;
    // the form of earlier releases: <id>.<expires>.<mac>, MAC without the issue time
    const { createHmac } = await import('node:crypto');
    const [id = '', exp = ''] = before.split('.');
    const legacyMac = createHmac('sha256', KEY).update(`authguard-device-cookie\nadmin\nviewer\n${id}\n${exp}`).digest('base64url');
    const legacy = `${id}.${exp}.${legacyMac}`;
    assert.equal(await d.verify('admin', 'viewer', [legacy]), id, 'a cookie of an earlier release verifies until a revocation');
    const otherAccount = d.issue('admin', 'admin').value;
    clock.advance(1);
    await d.revokeAll('admin', 'VIEWER');
    assert.equal(await d.verify('admin', 'viewer', [before]), null);
    assert.equal(await d.verify('admin', 'viewer', [legacy]), null);
    assert.notEqual(await d.verify('admin', 'admin', [otherAccount]), null, 'other accounts keep theirs');
    const after = d.issue('admin', 'viewer').value;
    assert.equal(await d.verify('admin', 'viewer', [before, after]), after.split('.')[0]);
    // the cut-off lives as long as a cookie does, and no longer
    clock.advance(3600_000);
    assert.equal(await kv.get('devcut:admin:viewer'), null);
  });

  it('junk cookies cost no store read', async () => {
    const clock = new FakeClock();
    const backend = new InMemoryBackend(clock).kv;
    let reads = 0;
    const kv = Object.assign(Object.create(backend) as KeyValueStore, { get: (k: string) => (reads++, backend.get(k)) });
    const d = cookies([KEY], clock, kv);
    assert.equal(await d.verify('admin', 'viewer', ['junk', 'a.b.c', `${'x'.repeat(22)}.99999999999.${'A'.repeat(43)}`]), null);
    assert.equal(reads, 0);
  });

  describe('configuration', () => {
    const emptyDir = () => mkdtempSync(path.join(tmpdir(), 'agdev-'));
    const warnings: string[] = [];
    const log: Logger = {
      debug: () => undefined,
      info: () => undefined,
      error: () => undefined,
      warn: (_o, msg) => warnings.push(msg ?? ''),
    };

    it('prod: the configured key (and the previous one), Secure cookies, a year and Path=/ by default', () => {
      const config = loadConfig({
        env: prodEnv({ SVC_LOGIN_DEVICE_COOKIE_SECRET: KEY, SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET: OLD }),
        configDir: emptyDir(),
      });
      assert.deepEqual(authSettingsOf(config).deviceCookie, { secrets: [KEY, OLD], maxAgeSeconds: 365 * 86400, secure: true, path: '/' });
    });

    it('the cookie path is a setting (a deployment behind a prefix); a value that is no URL path is refused, naming the key', () => {
      const config = loadConfig({ env: prodEnv({ SVC_LOGIN_DEVICE_COOKIE_PATH: '/api/auth' }), configDir: emptyDir() });
      assert.equal(authSettingsOf(config).deviceCookie.path, '/api/auth');
      for (const bad of ['auth', '/auth; Domain=evil.example', '/a b']) {
        assert.throws(
          () => loadConfig({ env: prodEnv({ SVC_LOGIN_DEVICE_COOKIE_PATH: bad }), configDir: emptyDir() }),
          (e) => e instanceof ConfigError && /svc\.login\.device-cookie-path/.test(e.message),
        );
      }
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
      assert.notDeepEqual(
        authSettingsOf(loadConfig({ env: { APP_PROFILE: 'dev' }, configDir: emptyDir() })).deviceCookie.secrets,
        a.secrets,
      );
      assert.equal(warnings.filter((w) => /device-cookie-secret/.test(w)).length, 1);
    });

    it('refuses a key shorter than 32 characters, naming the key', () => {
      for (const [env, key] of [
        ['SVC_LOGIN_DEVICE_COOKIE_SECRET', 'svc.login.device-cookie-secret'],
        ['SVC_LOGIN_DEVICE_COOKIE_PREVIOUS_SECRET', 'svc.login.device-cookie-previous-secret'],
      ] as const) {
        assert.throws(
          () => loadConfig({ env: { APP_PROFILE: 'dev', [env]: 'short' }, configDir: emptyDir() }),
          (e) =>
            e instanceof ConfigError && e.problems.length === 1 && (e.problems[0] ?? '').startsWith(`${key} (${env}): shorter than 32`),
        );
      }
    });
  });
});
