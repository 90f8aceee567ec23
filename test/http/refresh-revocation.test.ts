/**
 * Refresh tokens against logout, kick, "log out everywhere" and the one-session policy, on both
 * stores: no path that ends a login may leave a refresh token (or a refresh in flight) able to
 * mint a live session.
 */
import type { Container } from 'inversify';
import type Koa from 'koa';
import assert from 'node:assert/strict';
import 'reflect-metadata';
import request from 'supertest';
import { EndSession } from '../../src/application/auth/end-session';
import { Logout } from '../../src/application/auth/logout';
import { RefreshToken } from '../../src/application/auth/refresh-token';
import type { KeyValueStore } from '../../src/application/ports/key-value-store';
import { SessionManagers } from '../../src/application/session/session-manager';
import { hashToken, tokenIdOf } from '../../src/application/session/session-token';
import { DomainError } from '../../src/domain/errors';
import type { ConfigKey } from '../../src/main/config';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

/** Lets a test stop a refresh right after it consumed its token (the race window). */
class Gate {
  armed = false;
  private reachedResolve: (() => void) | undefined;
  private releaseResolve: (() => void) | undefined;
  reached = new Promise<void>((r) => (this.reachedResolve = r));
  private released = new Promise<void>((r) => (this.releaseResolve = r));
  arm(): void {
    this.reached = new Promise<void>((r) => (this.reachedResolve = r));
    this.released = new Promise<void>((r) => (this.releaseResolve = r));
    this.armed = true;
  }
  async pass(): Promise<void> {
    if (!this.armed) return;
    this.armed = false;
    this.reachedResolve?.();
    await this.released;
  }
  release(): void {
    this.releaseResolve?.();
  }
}

function gatedKv(kv: KeyValueStore, gate: Gate): KeyValueStore {
  return new Proxy(kv, {
    get(target, prop, receiver) {
      if (prop === 'replaceIfEquals') {
        return async (...args: Parameters<KeyValueStore['replaceIfEquals']>) => {
          const taken = await target.replaceIfEquals(...args);
          if (args[0].startsWith('rf:')) await gate.pass();
          return taken;
        };
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface Ctx {
  infra: TestInfra;
  web: Koa;
  container: Container;
  managers: SessionManagers;
  clock: FakeClock;
  gate: Gate;
}

async function setup(kind: StoreKind, label: string, overrides: Partial<Record<ConfigKey, unknown>> = {}): Promise<Ctx> {
  const clock = new FakeClock(Date.now());
  const config = testConfig(
    { 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides },
    kind,
  );
  const infra = testInfra(config, { clock, label });
  const gate = new Gate();
  const built = buildBoth(config, { ...infra, kv: gatedKv(infra.kv, gate) });
  const container = built.web.container;
  return { infra, web: built.web.app, container, managers: container.get(SessionManagers), clock, gate };
}

let ipSeq = 0;
const nextIp = () => `10.9.${Math.floor(++ipSeq / 200)}.${(ipSeq % 200) + 1}`;

async function login(c: Ctx, ua = 'test-agent'): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await request(c.web.callback())
    .post('/auth/login')
    .set('X-Forwarded-For', nextIp())
    .set('User-Agent', ua)
    .send({ username: 'alice', password: 'alice-pass-123' });
  assert.equal(res.status, 200, res.text);
  return res.body as { accessToken: string; refreshToken: string };
}

function refresh(c: Ctx, refreshToken: string) {
  return request(c.web.callback()).post('/auth/refresh-token').set('X-Forwarded-For', nextIp()).send({ refreshToken });
}

function profile(c: Ctx, accessToken: string) {
  return request(c.web.callback()).get('/user/profile').set(bearer(accessToken));
}

async function familyOf(c: Ctx, accessToken: string): Promise<string> {
  const r = await c.managers.get('web').resolveToken(accessToken);
  assert.ok(r.ok);
  const f = r.session.record.attrs.rtFamily;
  assert.ok(f !== undefined);
  return f;
}

const liveSessions = async (c: Ctx) => (await c.managers.get('web').listSessions('1')).length;

for (const kind of STORE_KINDS) {
  describe(`refresh-token revocation (${kind} store)`, function () {
    this.timeout(30000);

    describe('logout and kick racing a refresh', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'rt-race');
      });
      after(async () => c?.infra.dispose());
      afterEach(async () => {
        await request(c.web.callback())
          .post('/user/logout-all')
          .set(bearer((await login(c)).accessToken));
      });

      it('a logout that authenticated just before a refresh rotated ends the pair the refresh minted', async () => {
        const first = await login(c);
        const family = await familyOf(c, first.accessToken);
        // the logout request resolved its token here; the refresh then wins the race and rotates
        const next = (await refresh(c, first.refreshToken).expect(200)).body as { accessToken: string; refreshToken: string };
        await c.container.get(Logout).execute({ loginType: 'web', tokenHash: hashToken(first.accessToken), family });
        assert.equal((await profile(c, next.accessToken)).status, 401, 'the access token minted by the racing refresh is dead');
        assert.equal((await refresh(c, next.refreshToken)).status, 401);
        assert.equal(await liveSessions(c), 0);
      });

      for (const kick of [true, false]) {
        it(`${kick ? 'a kick' : 'ending a session'} while a refresh has consumed its token leaves no live session`, async () => {
          const first = await login(c);
          c.gate.arm();
          const racing = c.container.get(RefreshToken).execute({ loginType: 'web', refreshToken: first.refreshToken, client: {} });
          const settled = racing.then(
            (v) => ({ ok: true as const, v }),
            (e: unknown) => ({ ok: false as const, e }),
          );
          await c.gate.reached;
          await c.container.get(EndSession).execute({ loginType: 'web', tokenId: tokenIdOf(hashToken(first.accessToken)), kick });
          c.gate.release();
          const out = await settled;
          assert.equal(out.ok, false, 'the refresh that raced the kick is refused');
          if (!out.ok) assert.ok(out.e instanceof DomainError && out.e.reason.startsWith('refresh-token-'), String(out.e));
          assert.equal(await liveSessions(c), 0);
        });
      }

      it('concurrent refresh + logout, repeated: once the logout succeeded no access token of the family works', async () => {
        for (let i = 0; i < 15; i++) {
          const first = await login(c);
          const [r, out] = await Promise.all([
            refresh(c, first.refreshToken),
            request(c.web.callback()).post('/auth/logout').set(bearer(first.accessToken)),
          ]);
          if (out.status === 200) {
            if (r.status === 200) {
              assert.equal((await profile(c, (r.body as { accessToken: string }).accessToken)).status, 401, `round ${i}`);
              assert.equal((await refresh(c, (r.body as { refreshToken: string }).refreshToken)).status, 401, `round ${i}`);
            }
            assert.equal(await liveSessions(c), 0, `round ${i}`);
          } else {
            // the refresh rotated first: the logout's token was already gone, the new pair is legitimate
            assert.equal(out.status, 401);
            assert.equal(r.status, 200);
            await request(c.web.callback())
              .post('/auth/logout')
              .set(bearer((r.body as { accessToken: string }).accessToken))
              .expect(200);
          }
        }
      });
    });

    describe('a replaced or kicked-out login cannot come back through its refresh token', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'rt-replaced', { 'session.is-concurrent': false });
      });
      after(async () => c?.infra.dispose());

      it('is-concurrent=false: device A, replaced by B, cannot refresh and replace B', async () => {
        const a = await login(c, 'device-a');
        const b = await login(c, 'device-b');
        assert.equal((await profile(c, a.accessToken)).body.code, 'token-replaced');
        assert.equal((await refresh(c, a.refreshToken)).body.code, 'refresh-token-invalid');
        await profile(c, b.accessToken).expect(200);
        assert.equal((await profile(c, a.accessToken)).body.code, 'token-replaced', 'the tombstone is kept');
        // B's own refresh still works, and A's token stays dead afterwards (its family was revoked)
        const b2 = (await refresh(c, b.refreshToken).expect(200)).body as { accessToken: string };
        await profile(c, b2.accessToken).expect(200);
        assert.equal((await refresh(c, a.refreshToken)).status, 401);
        await profile(c, b2.accessToken).expect(200);
      });

      it('is-concurrent=false: a login on a clock that moves while it runs is not refused by the cut-off it writes itself', async () => {
        // The replacement writes the user's refresh cut-off after the login read the account: a later cut-off than that
        // read is what a concurrent password change leaves, but this one is the login's own (found by bench:scale).
        c.clock.tickPerRead = 1;
        try {
          const a = await login(c, 'ticking-a');
          const b = await login(c, 'ticking-b');
          await profile(c, b.accessToken).expect(200);
          assert.equal((await profile(c, a.accessToken)).body.code, 'token-replaced');
          const b2 = (await refresh(c, b.refreshToken).expect(200)).body as { accessToken: string };
          await profile(c, b2.accessToken).expect(200);
        } finally {
          c.clock.tickPerRead = 0;
        }
      });

      it('is-concurrent=false: a device replaced after its old session was purged still cannot come back', async () => {
        const a = await login(c, 'device-a-old');
        c.clock.advance(604800 * 1000 + 2 * 3600 * 1000); // A's session expired and its record (the tombstone's carrier) is gone
        const b = await login(c, 'device-b-new');
        // B's login is the only one allowed: every refresh family of the user born before it is refused.
        assert.equal((await refresh(c, a.refreshToken)).body.code, 'refresh-token-invalid');
        await profile(c, b.accessToken).expect(200);
        const b2 = (await refresh(c, b.refreshToken).expect(200)).body as { accessToken: string };
        await profile(c, b2.accessToken).expect(200);
      });

      it('a kicked-out session cannot refresh (the user is still enabled)', async () => {
        const k = await login(c, 'kicked');
        assert.equal(await c.managers.get('web').kickoutUser('1'), 1);
        assert.equal((await refresh(c, k.refreshToken)).body.code, 'refresh-token-invalid');
        assert.equal((await profile(c, k.accessToken)).body.code, 'token-kicked-out');
        assert.equal(await liveSessions(c), 0);
      });

      it('an expired or logged-out access token still refreshes', async () => {
        const e = await login(c, 'expired');
        c.clock.advance(604800 * 1000 + 1000); // expired, record still kept for the grace hour
        assert.equal((await profile(c, e.accessToken)).body.code, 'token-expired');
        const e2 = (await refresh(c, e.refreshToken).expect(200)).body as { accessToken: string; refreshToken: string };
        c.clock.advance(604800 * 1000 + 2 * 3600 * 1000); // expired and purged
        const e3 = (await refresh(c, e2.refreshToken).expect(200)).body as { accessToken: string; refreshToken: string };
        await profile(c, e3.accessToken).expect(200);
        // the member ended this device themselves (the refresh token stays: only a revocation ends it)
        await c.managers.get('web').logoutByHash(hashToken(e3.accessToken));
        const e4 = (await refresh(c, e3.refreshToken).expect(200)).body as { accessToken: string };
        await profile(c, e4.accessToken).expect(200);
      });
    });

    describe('"log out everywhere" reaches every refresh token of the user', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, 'rt-logout-all');
      });
      after(async () => c?.infra.dispose());

      it('a device whose access token lapsed (no longer listed) cannot refresh after logout-all', async () => {
        const old = await login(c, 'old-device');
        c.clock.advance(604800 * 1000 + 3600 * 1000 + 1000); // past session.timeout + the 1 h grace: not listed any more
        const now = await login(c, 'new-device');
        const all = await request(c.web.callback()).post('/user/logout-all').set(bearer(now.accessToken)).expect(200);
        assert.deepEqual(all.body, { endedSessions: 1 }, 'the lapsed session is not among the listed ones');
        const res = await refresh(c, old.refreshToken);
        assert.equal(res.status, 401, res.text);
        assert.equal(res.body.code, 'refresh-token-invalid');
        assert.equal(await liveSessions(c), 0);
        // a login after the cut-off works and refreshes normally
        c.clock.advance(1);
        const fresh = await login(c, 'after');
        const next = (await refresh(c, fresh.refreshToken).expect(200)).body as { accessToken: string };
        await profile(c, next.accessToken).expect(200);
      });

      it('a refresh that consumed its token before logout-all does not keep the pair it mints', async () => {
        c.clock.advance(10);
        const a = await login(c, 'racing');
        c.clock.advance(10);
        const b = await login(c, 'caller');
        c.gate.arm();
        const settled = c.container
          .get(RefreshToken)
          .execute({ loginType: 'web', refreshToken: a.refreshToken, client: {} })
          .then(
            () => true,
            (e: unknown) => (e instanceof DomainError ? false : Promise.reject(e)),
          );
        await c.gate.reached;
        await request(c.web.callback()).post('/user/logout-all').set(bearer(b.accessToken)).expect(200);
        c.gate.release();
        assert.equal(await settled, false, 'the racing refresh is refused');
        assert.equal(await liveSessions(c), 0);
      });
    });
  });
}
