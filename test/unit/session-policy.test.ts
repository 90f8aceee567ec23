/**
 * The session policy Sa-Token 1.45 has (device types, replaced range, exit modes, the cap with its
 * overflow modes, remember-me) in the session core, on the in-memory store; the same rules through
 * both apps are in test/http/session-policy*.test.ts, and exactness under concurrency in the
 * store contract (test/contract/session-admission.contract.ts).
 */
import assert from 'node:assert/strict';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { admissionOf, noRememberTimeout, SessionManager } from '../../src/application/session/session-manager';
import type { SessionSettings } from '../../src/application/session/session-settings';
import { DEFAULT_DEVICE_TYPE, deviceTypeFromUserAgent } from '../../src/domain/device-type';
import { isDomainError } from '../../src/domain/errors';
import { DEFAULT_SESSION_POLICY, type Principal } from '../../src/domain/session';
import { FakeClock } from '../support/fake-clock';

const alice: Principal = { userId: '1', username: 'alice', roles: ['admin'], permissions: ['*:*:*'] };
const PC = { deviceType: 'PC' };
const APP = { deviceType: 'APP' };

function setup(overrides: Partial<SessionSettings> = {}) {
  const clock = new FakeClock();
  const store = new InMemoryBackend(clock).sessions;
  const manager = new SessionManager('admin', { ...DEFAULT_SESSION_POLICY, shareSecret: 'x'.repeat(32), ...overrides }, store, clock);
  const reasonOf = async (token: string): Promise<string> => {
    const r = await manager.resolveToken(token);
    return r.ok ? 'ok' : r.reason;
  };
  return { clock, manager, reasonOf };
}

describe('session policy (Sa-Token 1.45): device types, replaced range, exit modes, the cap, remember-me', () => {
  describe('device type from the User-Agent', () => {
    const cases: Array<[string | undefined, string]> = [
      [undefined, DEFAULT_DEVICE_TYPE],
      ['   ', 'DEF'],
      ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36', 'PC'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'PC'],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'PC'],
      ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', 'H5'],
      ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36', 'H5'],
      ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5', 'H5'],
      ['okhttp/4.12.0', 'APP'],
      ['MyShop/3.2 CFNetwork/1490.0.4 Darwin/23.2.0', 'APP'],
      ['Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8 Build/AP2A)', 'APP'],
      ['curl/8.5.0', 'APP'],
    ];
    for (const [ua, expected] of cases) {
      it(`${JSON.stringify(ua)} -> ${expected}`, () => assert.equal(deviceTypeFromUserAgent(ua), expected));
    }
    it("with the platform the login's User-Agent parse found: a bot is APP, a phone or tablet H5", () => {
      assert.equal(deviceTypeFromUserAgent('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'bot'), 'APP');
      assert.equal(deviceTypeFromUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Safari/537.36', 'tablet'), 'H5');
      assert.equal(deviceTypeFromUserAgent('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Safari/537.36', 'desktop'), 'PC');
      assert.equal(deviceTypeFromUserAgent('okhttp/4.12.0', 'mobile'), 'APP', 'a native app on a phone is an app');
    });
  });

  describe('admission (what a login does to the other sessions)', () => {
    const p = DEFAULT_SESSION_POLICY;
    it('concurrent, not shared: the cap of 12 (Sa-Token default) ending as LOGOUT', () => {
      assert.deepEqual(admissionOf(p, 'PC', false, false), { kind: 'cap', max: 12, state: 'logged-out' });
      assert.deepEqual(admissionOf({ ...p, overflowLogoutMode: 'KICKOUT' }, 'PC', false, false), {
        kind: 'cap',
        max: 12,
        state: 'kicked-out',
      });
      assert.deepEqual(admissionOf({ ...p, overflowLogoutMode: 'REPLACED' }, 'PC', false, true), {
        kind: 'cap',
        max: 12,
        state: 'replaced',
      });
    });
    it('no cap with -1 or is-share (as in Sa-Token)', () => {
      assert.deepEqual(admissionOf({ ...p, maxLoginCount: -1 }, 'PC', false, false), { kind: 'add' });
      assert.deepEqual(admissionOf({ ...p, isShare: true }, 'PC', true, false), { kind: 'add' });
    });
    it('is-concurrent=false: OLD_DEVICE replaces its range, NEW_DEVICE is exclusive (a refresh too); a refresh adds', () => {
      const one = { ...p, isConcurrent: false };
      assert.deepEqual(admissionOf(one, 'PC', false, false), { kind: 'replace', deviceType: 'PC' });
      assert.deepEqual(admissionOf({ ...one, replacedRange: 'ALL_DEVICE_TYPE' }, 'PC', false, false), {
        kind: 'replace',
        deviceType: null,
      });
      assert.deepEqual(admissionOf({ ...one, replacedLoginExitMode: 'NEW_DEVICE' }, 'PC', false, false), {
        kind: 'exclusive',
        deviceType: null,
      });
      assert.deepEqual(admissionOf(one, 'PC', false, true), { kind: 'add' });
      const refresh = admissionOf({ ...one, replacedLoginExitMode: 'NEW_DEVICE' }, 'PC', false, true);
      assert.deepEqual(
        refresh,
        { kind: 'exclusive', deviceType: null },
        'NEW_DEVICE: a refresh is no way around a login holding the account',
      );
    });
  });

  describe('is-concurrent=false', () => {
    it('CURR_DEVICE_TYPE (default): a login replaces only the sessions of its device type', async () => {
      const { manager, reasonOf } = setup({ isConcurrent: false });
      const pc = await manager.login(alice, PC);
      const app = await manager.login(alice, APP);
      const pc2 = await manager.login(alice, PC);
      assert.equal(await reasonOf(pc.token), 'token-replaced');
      assert.equal(await reasonOf(app.token), 'ok');
      assert.equal(await reasonOf(pc2.token), 'ok');
      assert.deepEqual(
        pc2.ended.map((e) => e.tokenHash),
        [pc.tokenHash],
      );
    });
    it('ALL_DEVICE_TYPE: a login replaces every session of the account', async () => {
      const { manager, reasonOf } = setup({ isConcurrent: false, replacedRange: 'ALL_DEVICE_TYPE' });
      const pc = await manager.login(alice, PC);
      const app = await manager.login(alice, APP);
      assert.equal(await reasonOf(pc.token), 'token-replaced');
      assert.equal(await reasonOf(app.token), 'ok');
    });
    it('NEW_DEVICE: a login while one is live (of any device type) is refused 409 already-logged-in; the old one stays', async () => {
      const { manager, reasonOf } = setup({ isConcurrent: false, replacedLoginExitMode: 'NEW_DEVICE' });
      const pc = await manager.login(alice, PC);
      await assert.rejects(manager.login(alice, APP), (e) => isDomainError(e) && e.reason === 'already-logged-in');
      await assert.rejects(manager.login(alice, PC), (e) => isDomainError(e) && e.reason === 'already-logged-in');
      assert.equal(await reasonOf(pc.token), 'ok');
      await manager.logout(pc.token);
      assert.equal(await reasonOf((await manager.login(alice, APP)).token), 'ok', 'once it is logged out, a login gets in');
    });
  });

  describe('max-login-count', () => {
    for (const [mode, reason] of [
      ['LOGOUT', 'token-invalid'],
      ['KICKOUT', 'token-kicked-out'],
      ['REPLACED', 'token-replaced'],
    ] as const) {
      it(`${mode}: the oldest beyond the cap answer 401 ${reason}`, async () => {
        const { manager, reasonOf } = setup({ maxLoginCount: 2, overflowLogoutMode: mode });
        const a = await manager.login(alice, PC);
        const b = await manager.login(alice, APP);
        const c = await manager.login(alice, PC);
        assert.equal(await reasonOf(a.token), reason);
        assert.equal(await reasonOf(b.token), 'ok');
        assert.equal(await reasonOf(c.token), 'ok');
        assert.equal((await manager.listSessions('1')).length, 2);
      });
    }
    it('-1: no cap', async () => {
      const { manager } = setup({ maxLoginCount: -1 });
      for (let i = 0; i < 20; i++) await manager.login(alice);
      assert.equal((await manager.listSessions('1')).length, 20);
    });
    it('does not apply with is-share (as in Sa-Token): the shared token is reused', async () => {
      const { manager } = setup({ maxLoginCount: 1, isShare: true });
      const a = await manager.login(alice, PC);
      const b = await manager.login(alice, PC);
      assert.equal(b.token, a.token);
    });
  });

  describe('is-share and device types', () => {
    it('shares a token only within one device type (and one remember-me choice)', async () => {
      const { manager } = setup({ isShare: true });
      const pc = await manager.login(alice, PC);
      const app = await manager.login(alice, APP);
      assert.notEqual(app.token, pc.token);
      assert.equal((await manager.login(alice, PC)).token, pc.token);
      assert.equal((await manager.login(alice, APP)).token, app.token);
      const brief = await manager.login(alice, PC, {}, undefined, { rememberMe: false });
      assert.notEqual(brief.token, pc.token);
    });
  });

  describe('remember-me', () => {
    it('false: the session lives session.no-remember-timeout, at most session.timeout', async () => {
      const { manager, clock } = setup({ noRememberTimeout: 3600 });
      const s = await manager.login(alice, PC, {}, undefined, { rememberMe: false });
      assert.equal(s.record.expiresAt, clock.now() + 3600_000);
      assert.equal(s.record.rememberMe, false);
      const long = await manager.login(alice, PC);
      assert.equal(long.record.expiresAt, clock.now() + DEFAULT_SESSION_POLICY.timeout * 1000);
      assert.equal(long.record.rememberMe, undefined);
      assert.equal(noRememberTimeout({ timeout: 600, noRememberTimeout: 86400 }), 600);
      assert.equal(noRememberTimeout({ timeout: -1, noRememberTimeout: 86400 }), 86400);
    });
  });
});
