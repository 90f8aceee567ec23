/**
 * Ending one user's many sessions at once (issue 30): logout-all, kick-all and a replacing login
 * over more sessions than one chunk (SessionManager BULK_CHUNK), on every store: every session
 * ends, every refresh token of theirs is refused, and nothing is left listed.
 */
import assert from 'node:assert/strict';
import 'reflect-metadata';
import { LogoutAll } from '../../src/application/auth/logout-all';
import { RefreshTokenRegistry } from '../../src/application/session/refresh-token-registry';
import { BULK_CHUNK } from '../../src/application/session/in-chunks';
import { SessionManagers } from '../../src/application/session/session-manager';
import { BackgroundWork } from '../../src/application/shared/background-work';
import { EndUserSessions } from '../../src/application/users/end-user-sessions';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';

const N = BULK_CHUNK * 2 + 37;
const principal = (userId: string) => ({ userId, username: `bulk-${userId}`, roles: ['member'], permissions: [] });

for (const kind of STORE_KINDS) {
  describe(`bulk ends of one user's ${N} sessions (${kind} store)`, function () {
    this.timeout(120_000);
    let infra: TestInfra;
    let apps: ReturnType<typeof buildBoth>;
    let clock: FakeClock;

    before(async function () {
      if (kind === 'redis') await requireRedis(this);
    });
    beforeEach(() => {
      clock = new FakeClock(Date.now());
      const config = testConfig({ 'session.max-login-count': -1 }, kind);
      infra = testInfra(config, { clock, label: 'bulk-ends' });
      apps = buildBoth(config, infra);
    });
    afterEach(async () => infra?.dispose());

    /** N sessions of the user, each with its refresh token (what a login with remember-me leaves). */
    async function fill(type: 'admin' | 'web', userId: string): Promise<Array<{ token: string; refresh: string }>> {
      const container = (type === 'admin' ? apps.admin : apps.web).container;
      const manager = container.get(SessionManagers).get(type);
      const registry = container.get(RefreshTokenRegistry);
      const out: Array<{ token: string; refresh: string }> = [];
      for (let i = 0; i < N; i += 100) {
        const made = await Promise.all(
          Array.from({ length: Math.min(100, N - i) }, async () => {
            const family = registry.newFamily();
            const s = await manager.login(principal(userId), { ip: '198.51.100.9' }, { rtFamily: family });
            return { token: s.token, refresh: await registry.issue(type, userId, family, s.tokenHash) };
          }),
        );
        out.push(...made);
      }
      return out;
    }

    it('logout-all ends every session and revokes every refresh family', async () => {
      const made = await fill('web', 'w1');
      clock.advance(1);
      const ended = await apps.web.container.get(LogoutAll).execute({ loginType: 'web', userId: 'w1', username: 'bulk-w1' });
      assert.equal(ended, N);
      // Every session has ended by the answer; the refresh families are revoked in the background after it (their
      // refresh is refused all along by the account's cut-off).
      await apps.web.container.get(BackgroundWork).idle();
      const manager = apps.web.container.get(SessionManagers).get('web');
      assert.deepEqual(await manager.listSessions('w1'), []);
      for (const m of [made[0], made[BULK_CHUNK + 1], made[N - 1]]) {
        assert.equal((await manager.resolveToken(m!.token)).ok, false);
        assert.equal((await apps.web.container.get(RefreshTokenRegistry).consume('web', m!.refresh)).kind, 'invalid');
      }
    });

    it('kick-all tombstones every session (token-kicked-out)', async () => {
      const made = await fill('admin', 'a1');
      clock.advance(1);
      const ended = await apps.admin.container.get(EndUserSessions).execute({ loginType: 'admin', userId: 'a1', username: 'bulk-a1' });
      assert.equal(ended, N);
      const manager = apps.admin.container.get(SessionManagers).get('admin');
      assert.deepEqual(await manager.listSessions('a1'), []);
      const last = await manager.resolveToken(made[N - 1]!.token);
      assert.deepEqual(last.ok ? null : last.reason, 'token-kicked-out');
    });
  });
}
