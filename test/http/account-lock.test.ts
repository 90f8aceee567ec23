/**
 * The per-account failure cap holds under a burst of parallel guesses: no more than the cap are
 * ever compared. Only failures spend it: a burst of parallel correct logins all succeed, since an
 * attempt that finds the last places held by attempts still being compared waits for them.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import { DomainError } from '../../src/domain/errors';
import type { ConfigKey } from '../../src/main/config';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';

/** Apps whose password compares are counted, on a clock the test moves. */
function lockApps(kind: StoreKind, label: string, overrides: Partial<Record<ConfigKey, unknown>> = {}) {
  const clock = new FakeClock(Date.now());
  const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 10, ...overrides }, kind);
  const infra = testInfra(config, { label, clock });
  const compares = { count: 0 };
  /** While set, every compare fails the way a full BCrypt queue does (503 server-busy). */
  const busy = { on: false };
  const hasher: PasswordHasher = {
    hash: (pw, cost) => infra.hasher.hash(pw, cost),
    verify: (pw, hash) => {
      compares.count++;
      if (busy.on) return Promise.reject(new DomainError('server-busy', 'The server is busy; retry shortly.', { retryAfterSeconds: 1 }));
      return infra.hasher.verify(pw, hash);
    },
  };
  return { infra, clock, compares, busy, ...buildBoth(config, { ...infra, hasher }) };
}

const webLogin = (cb: ReturnType<ReturnType<typeof buildBoth>['web']['app']['callback']>, ip: string, username: string, password: string) =>
  request(cb).post('/auth/login').set('X-Forwarded-For', ip).send({ username, password });

for (const kind of STORE_KINDS) {
  describe(`account lock under parallel guesses (${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra;
    let web: ReturnType<typeof buildBoth>['web'];
    before(async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 10 }, kind);
      infra = testInfra(config, { label: 'acctlock' });
      web = buildBoth(config, infra).web;
    });
    after(async () => infra?.dispose());

    it(
      '40 parallel wrong passwords from 40 addresses: at most 10 are checked, the rest 428 ' +
        'captcha-required, and so is the right password without a captcha',
      async () => {
        const cb = web.app.callback();
        const guesses = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            request(cb)
              .post('/auth/login')
              .set('X-Forwarded-For', `10.9.${i}.1`)
              .send({ username: 'alice', password: `wrong-guess-${i}` }),
          ),
        );
        const statuses = guesses.map((r) => r.status);
        const checked = statuses.filter((s) => s === 401).length;
        assert.equal(checked, 10, `exactly the cap is compared: ${statuses.join(',')}`);
        assert.equal(statuses.filter((s) => s === 428).length, 30);
        for (const r of guesses.filter((g) => g.status === 428)) assert.ok(Number(r.headers['retry-after']) >= 1);
        const right = await request(cb)
          .post('/auth/login')
          .set('X-Forwarded-For', '10.9.99.1')
          .send({ username: 'alice', password: 'alice-pass-123' });
        assert.equal(right.status, 428);
      },
    );
  });

  describe(`only failures spend the budget (${kind} store)`, function () {
    this.timeout(90_000);
    let apps: ReturnType<typeof lockApps> | undefined;
    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
    });
    afterEach(async () => {
      await apps?.infra.dispose();
      apps = undefined;
    });

    it('40 parallel correct logins of one account from 40 addresses: 40 × 200', async () => {
      apps = lockApps(kind, 'lockok');
      const cb = apps.web.app.callback();
      const logins = await Promise.all(Array.from({ length: 40 }, (_, i) => webLogin(cb, `10.8.${i}.1`, 'alice', 'alice-pass-123')));
      const statuses = logins.map((r) => r.status);
      assert.deepEqual(statuses, Array(40).fill(200), statuses.join(','));
      assert.equal(apps.compares.count, 40);
    });

    it('40 parallel correct logins on the admin app too (RSA and the envelope): 40 × 200', async () => {
      apps = lockApps(kind, 'lockokadm');
      const cb = apps.admin.app.callback();
      const { publicEncrypt, constants } = await import('node:crypto');
      const key = (await request(cb).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
      const encrypt = (s: string) =>
        publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(s)).toString('base64');
      const logins = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          request(cb)
            .post('/auth/login')
            .set('X-Forwarded-For', `10.7.${i}.1`)
            .send({ username: 'admin', password: encrypt('admin123') }),
        ),
      );
      assert.deepEqual(
        logins.map((r) => r.status),
        Array(40).fill(200),
      );
      for (const r of logins) assert.equal(r.body.code, 0);
    });

    it('40 parallel wrong ones: exactly max-failures compared, the rest 428 captcha-required with the true time left', async () => {
      apps = lockApps(kind, 'lockbad');
      const cb = apps.web.app.callback();
      const guesses = await Promise.all(Array.from({ length: 40 }, (_, i) => webLogin(cb, `10.6.${i}.1`, 'alice', `wrong-guess-${i}`)));
      const statuses = guesses.map((r) => r.status);
      assert.equal(apps.compares.count, 10, 'BCrypt compares');
      assert.equal(statuses.filter((s) => s === 401).length, 10, statuses.join(','));
      const refused = guesses.filter((g) => g.status === 428);
      assert.equal(refused.length, 30);
      for (const r of refused) {
        assert.equal(r.body.code, 'captcha-required');
        assert.equal(
          r.headers['retry-after'],
          '3600',
          'the shared budget was spent by the 10th failure: svc.login.hard-lock-seconds (3600 s) left on the test clock',
        );
      }
      apps.clock.advance(100_000);
      const later = await webLogin(cb, '10.6.99.1', 'alice', 'alice-pass-123').expect(428);
      assert.equal(later.headers['retry-after'], '3500');
      assert.equal(apps.compares.count, 10, 'a locked account compares nothing');
      apps.clock.advance(3_500_000);
      await webLogin(cb, '10.6.99.2', 'alice', 'alice-pass-123').expect(200);
    });

    it('an attempt ahead that never settles (its process died) holds the waiters a bounded time, and its place lapses', async () => {
      apps = lockApps(kind, 'lockstuck');
      const cb = apps.web.app.callback();
      const now = apps.clock.now();
      const inFlight = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`dead${i}`, now + 30_000]));
      await apps.infra.kv.set('loginfail:web:alice', JSON.stringify({ failures: 0, lockedUntil: 0, inFlight }), 30_000);
      const started = Date.now();
      const waited = await webLogin(cb, '10.4.0.1', 'alice', 'alice-pass-123').expect(429);
      const ms = Date.now() - started;
      assert.ok(ms >= 4_500 && ms < 12_000, `waited ${ms} ms`);
      assert.equal(waited.body.code, 'account-locked');
      assert.equal(waited.headers['retry-after'], '1', 'nothing is locked: try again in a moment');
      assert.equal(apps.compares.count, 0);
      apps.clock.advance(30_000);
      await webLogin(cb, '10.4.0.2', 'alice', 'alice-pass-123').expect(200);
    });

    it('attempts that end without a verdict (the hasher busy) give their place back: the owner is not locked out', async () => {
      apps = lockApps(kind, 'lockbusy');
      const cb = apps.web.app.callback();
      apps.busy.on = true;
      const busy = await Promise.all(Array.from({ length: 10 }, (_, i) => webLogin(cb, `10.9.${i}.1`, 'alice', 'wrong-pass')));
      assert.deepEqual(
        busy.map((r) => r.status),
        Array(10).fill(503),
      );
      apps.busy.on = false;
      const started = Date.now();
      await webLogin(cb, '10.9.200.1', 'alice', 'alice-pass-123').expect(200);
      assert.ok(Date.now() - started < 4_000, 'no wait behind places nobody holds (a held place would make it wait 5 s, then 429)');
      for (let i = 0; i < 9; i++) await webLogin(cb, `10.9.${100 + i}.1`, 'alice', 'wrong-pass').expect(401);
      await webLogin(cb, '10.9.201.1', 'alice', 'alice-pass-123').expect(200);
    });

    it('failures below the cap do not refuse a burst of correct logins, and a success clears them', async () => {
      apps = lockApps(kind, 'lockmix');
      const cb = apps.web.app.callback();
      for (let i = 0; i < 9; i++) await webLogin(cb, `10.5.${i}.1`, 'alice', 'wrong-pass').expect(401);
      const logins = await Promise.all(Array.from({ length: 20 }, (_, i) => webLogin(cb, `10.5.${100 + i}.1`, 'alice', 'alice-pass-123')));
      assert.deepEqual(
        logins.map((r) => r.status),
        Array(20).fill(200),
      );
      for (let i = 0; i < 9; i++) await webLogin(cb, `10.5.${200 + i}.1`, 'alice', 'wrong-pass').expect(401);
      await webLogin(cb, '10.5.250.1', 'alice', 'alice-pass-123').expect(200);
    });
  });
}
