import assert from 'node:assert/strict';
import { InMemoryBackend } from '../../src/adapters/memory/in-memory-backend';
import { SessionManager } from '../../src/application/session/session-manager';
import { hashToken, sameTokenHash } from '../../src/application/session/session-token';
import { type SessionSettings } from '../../src/application/session/session-settings';
import { DEFAULT_SESSION_POLICY, EXPIRED_GRACE_MS, type Principal } from '../../src/domain/session';
import { FakeClock } from '../support/fake-clock';
import type { LoginType } from '../../src/domain/login-type';

const alice: Principal = { userId: '1', username: 'alice', roles: ['admin'], permissions: ['*:*:*'] };
const bob: Principal = { userId: '2', username: 'bob', roles: [], permissions: [] };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function setup(overrides: Partial<SessionSettings> = {}, loginType: LoginType = 'admin') {
  const clock = new FakeClock();
  const store = new InMemoryBackend(clock).sessions;
  const policy: SessionSettings = { ...DEFAULT_SESSION_POLICY, shareSecret: '', ...overrides };
  const manager = new SessionManager(loginType, policy, store, clock);
  return { clock, store, manager };
}

async function reasonOf(manager: SessionManager, header: string | undefined): Promise<string> {
  const r = await manager.resolveHeader(header);
  return r.ok ? 'ok' : r.reason;
}

describe('SessionManager (the session core)', () => {
  describe('token-style', () => {
    it('uuid (default) issues v4 UUIDs', async () => {
      const { manager } = setup();
      const { token } = await manager.login(alice);
      assert.match(token, UUID);
    });
    it('simple-uuid issues 32 hex characters', async () => {
      const { manager } = setup({ tokenStyle: 'simple-uuid' });
      const { token } = await manager.login(alice);
      assert.match(token, /^[0-9a-f]{32}$/);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
    });
    it('random-64 issues 64 alphanumerics', async () => {
      const { manager } = setup({ tokenStyle: 'random-64' });
      const { token } = await manager.login(alice);
      assert.match(token, /^[A-Za-z0-9]{64}$/);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
    });
    it('every login gets a new token (is-share false)', async () => {
      const { manager } = setup();
      const a = await manager.login(alice);
      const b = await manager.login(alice);
      assert.notEqual(a.token, b.token);
      assert.equal((await manager.listSessions('1')).length, 2);
    });
  });

  describe('token-name / token-prefix', () => {
    it('reads "Bearer <token>" with a case-insensitive scheme', async () => {
      const { manager } = setup();
      const { token } = await manager.login(alice);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
      assert.equal(await reasonOf(manager, `bearer ${token}`), 'ok');
      assert.equal(await reasonOf(manager, `BEARER  ${token} `), 'ok');
    });
    it('reports a missing token and a wrong prefix', async () => {
      const { manager } = setup();
      const { token } = await manager.login(alice);
      assert.equal(await reasonOf(manager, undefined), 'token-missing');
      assert.equal(await reasonOf(manager, ''), 'token-missing');
      assert.equal(await reasonOf(manager, 'Bearer '), 'token-missing');
      assert.equal(await reasonOf(manager, token), 'token-bad-prefix');
      assert.equal(await reasonOf(manager, `Basic ${token}`), 'token-bad-prefix');
    });
    it('an empty prefix takes the bare token', async () => {
      const { manager } = setup({ tokenPrefix: '' });
      const { token } = await manager.login(alice);
      assert.equal(await reasonOf(manager, token), 'ok');
    });
    it('unknown and malformed tokens are invalid, and presented', async () => {
      const { manager } = setup();
      const r = await manager.resolveHeader('Bearer 00000000-0000-4000-8000-000000000000');
      assert.deepEqual(r, { ok: false, reason: 'token-invalid', tokenPresented: true });
      assert.equal(await reasonOf(manager, 'Bearer not-a-token'), 'token-invalid');
    });
  });

  describe('storage', () => {
    it('stores only the SHA-256 of the token, never the token', async () => {
      const { manager, store } = setup();
      const { token, tokenId } = await manager.login(alice);
      assert.equal(await store.findByTokenId('admin', tokenId), hashToken(token));
      const sessions = await manager.listSessions('1');
      assert.equal(sessions[0]?.tokenHash, hashToken(token));
      assert.ok(!JSON.stringify(sessions).includes(token));
    });
    it('a token of one login type is invalid for the other', async () => {
      const clock = new FakeClock();
      const store = new InMemoryBackend(clock).sessions;
      const policy = { ...DEFAULT_SESSION_POLICY, shareSecret: '' };
      const admin = new SessionManager('admin', policy, store, clock);
      const web = new SessionManager('web', policy, store, clock);
      const { token } = await admin.login(alice);
      assert.equal(await reasonOf(web, `Bearer ${token}`), 'token-invalid');
      assert.equal(await reasonOf(admin, `Bearer ${token}`), 'ok');
    });
  });

  describe('timeout', () => {
    it('expires after session.timeout seconds ("expired"), then is forgotten ("invalid")', async () => {
      const { manager, clock } = setup({ timeout: 60 });
      const { token, record } = await manager.login(alice);
      assert.equal(record.expiresAt, clock.now() + 60_000);
      clock.advance(59_999);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
      clock.advance(1);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'token-expired');
      clock.advance(EXPIRED_GRACE_MS + 1);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'token-invalid');
    });
    it('-1 never expires', async () => {
      const { manager, clock } = setup({ timeout: -1 });
      const { token, record } = await manager.login(alice);
      assert.equal(record.expiresAt, null);
      clock.advance(10 * 365 * 86400_000);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
    });
    it('renew extends the lifetime', async () => {
      const { manager, clock } = setup({ timeout: 60 });
      const { token } = await manager.login(alice);
      clock.advance(50_000);
      const r = await manager.resolveToken(token);
      assert.ok(r.ok);
      const renewed = await manager.renew(r.session);
      assert.equal(renewed?.expiresAt, clock.now() + 60_000);
      clock.advance(50_000);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
    });
  });

  describe('active-timeout', () => {
    it('-1 (default): no inactivity expiry', async () => {
      const { manager, clock } = setup({ activeTimeout: -1 });
      const { token } = await manager.login(alice);
      clock.advance(6 * 86400_000);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok');
    });
    it('freezes a token idle longer than active-timeout; activity keeps it alive', async () => {
      const { manager, clock } = setup({ activeTimeout: 30 });
      const { token } = await manager.login(alice);
      for (let i = 0; i < 5; i++) {
        clock.advance(29_000);
        assert.equal(await reasonOf(manager, `Bearer ${token}`), 'ok', `request ${i}`);
      }
      clock.advance(30_001);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'token-frozen');
      // a frozen token stays frozen: a failed resolve does not touch it
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'token-frozen');
    });
  });

  describe('is-concurrent', () => {
    it('true (default): several sessions of one account live side by side', async () => {
      const { manager } = setup({ isConcurrent: true });
      const a = await manager.login(alice);
      const b = await manager.login(alice);
      assert.equal(await reasonOf(manager, `Bearer ${a.token}`), 'ok');
      assert.equal(await reasonOf(manager, `Bearer ${b.token}`), 'ok');
    });
    it('false: a new login replaces the older tokens, which then report "replaced"', async () => {
      const { manager } = setup({ isConcurrent: false });
      const a = await manager.login(alice);
      const other = await manager.login(bob);
      const b = await manager.login(alice);
      assert.equal(await reasonOf(manager, `Bearer ${a.token}`), 'token-replaced');
      assert.equal(await reasonOf(manager, `Bearer ${b.token}`), 'ok');
      assert.equal(await reasonOf(manager, `Bearer ${other.token}`), 'ok', 'other users are untouched');
    });
  });

  describe('is-share', () => {
    it('true with concurrency: a second login reuses the live token', async () => {
      const { manager } = setup({ isShare: true, shareSecret: 'x'.repeat(32) });
      const a = await manager.login(alice);
      const b = await manager.login(alice);
      assert.equal(b.token, a.token);
      assert.equal(b.reused, true);
      assert.equal((await manager.listSessions('1')).length, 1);
      const c = await manager.login(bob);
      assert.notEqual(c.token, a.token);
    });
    it('true: after logout a new token is issued', async () => {
      const { manager } = setup({ isShare: true, shareSecret: 'x'.repeat(32) });
      const a = await manager.login(alice);
      await manager.logout(a.token);
      const b = await manager.login(alice);
      assert.notEqual(b.token, a.token);
      assert.equal(await reasonOf(manager, `Bearer ${b.token}`), 'ok');
    });
    it('compares token hashes in constant time, only as 32-byte values', () => {
      const h = hashToken('t');
      assert.equal(sameTokenHash(h, hashToken('t')), true);
      assert.equal(sameTokenHash(h, hashToken('u')), false);
      assert.equal(sameTokenHash(h, h.slice(0, 62)), false, 'a shorter value never matches (and never throws)');
      assert.equal(sameTokenHash(h, 'not hex'), false);
      assert.equal(sameTokenHash('', ''), false);
    });
    it('share also works with random-64 tokens', async () => {
      const { manager } = setup({ isShare: true, shareSecret: 'y'.repeat(32), tokenStyle: 'random-64' });
      const a = await manager.login(alice);
      assert.equal((await manager.login(alice)).token, a.token);
    });
  });

  describe('logout, kickout, listing', () => {
    it('logout makes the token invalid', async () => {
      const { manager } = setup();
      const { token } = await manager.login(alice);
      assert.equal(await manager.logout(token), true);
      assert.equal(await reasonOf(manager, `Bearer ${token}`), 'token-invalid');
      assert.equal(await manager.logout(token), false);
    });
    it('logoutAll ends every session of the user only', async () => {
      const { manager } = setup();
      const a = await manager.login(alice);
      const b = await manager.login(alice);
      const c = await manager.login(bob);
      assert.equal(await manager.logoutAll('1'), 2);
      assert.equal(await reasonOf(manager, `Bearer ${a.token}`), 'token-invalid');
      assert.equal(await reasonOf(manager, `Bearer ${b.token}`), 'token-invalid');
      assert.equal(await reasonOf(manager, `Bearer ${c.token}`), 'ok');
    });
    it('kickout by user reports "kicked out"', async () => {
      const { manager } = setup();
      const a = await manager.login(alice);
      assert.equal(await manager.kickoutUser('1'), 1);
      assert.equal(await reasonOf(manager, `Bearer ${a.token}`), 'token-kicked-out');
      assert.deepEqual(await manager.listSessions('1'), []);
    });
    it('kickout by token id ends only that session', async () => {
      const { manager } = setup();
      const a = await manager.login(alice);
      const b = await manager.login(alice);
      assert.equal(await manager.kickoutTokenId(a.tokenId), true);
      assert.equal(await reasonOf(manager, `Bearer ${a.token}`), 'token-kicked-out');
      assert.equal(await reasonOf(manager, `Bearer ${b.token}`), 'ok');
      assert.equal(await manager.kickoutTokenId('0000000000000000'), false);
      assert.equal(await manager.kickoutTokenId('../../etc'), false);
    });
    it("lists a user's sessions with client info, and all sessions of the type", async () => {
      const { manager } = setup();
      await manager.login(alice, { ip: '10.0.0.1', userAgent: 'UA1' });
      await manager.login(bob, { ip: '10.0.0.2' });
      const mine = await manager.listSessions('1');
      assert.equal(mine.length, 1);
      assert.equal(mine[0]?.record.client.ip, '10.0.0.1');
      const page = await manager.listPage({ offset: 0, limit: 10, scanLimit: 100, exactCountUpTo: 100 });
      assert.deepEqual([page.sessions.length, page.total, page.totalExact], [2, 2, true]);
    });
    it('updatePrincipal changes the snapshot every live session sees', async () => {
      const { manager } = setup();
      const { token } = await manager.login(bob);
      assert.equal(await manager.updatePrincipal('2', { ...bob, permissions: ['system:user:list'] }), 1);
      const r = await manager.resolveToken(token);
      assert.ok(r.ok);
      assert.deepEqual(r.session.record.principal.permissions, ['system:user:list']);
    });
  });
});
