import 'reflect-metadata';
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type Koa from 'koa';
import { formatDateTime } from '../../src/application/shared/date-time';
import { TOKENS } from '../../src/application/tokens';
import type { ConfigKey } from '../../src/main/config';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from '../support/apps';

// jsencrypt's CommonJS bundle loads in Node without a window shim (checked: it only touches
// `window` when it exists); its default export is the class.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const JSEncrypt = require('jsencrypt') as new () => { setPublicKey(pem: string): void; encrypt(s: string): string | false };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REFRESH_TOKEN = /^\d{13}\.[A-Za-z0-9_-]{22}\.\d+\.[A-Za-z0-9_-]{32}$/;
const DATE = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

const oaep = (pem: string, text: string): string =>
  publicEncrypt({ key: pem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(text, 'utf8')).toString('base64');

function pkcs1(pem: string, text: string): string {
  const j = new JSEncrypt();
  j.setPublicKey(pem);
  const out = j.encrypt(text);
  if (out === false) throw new Error('jsencrypt failed');
  return out;
}

interface Ctx {
  infra: TestInfra;
  app: Koa;
  clock: FakeClock;
  publicKey: string;
  encrypt: (s: string) => string;
}

async function setup(kind: StoreKind, overrides: Partial<Record<ConfigKey, unknown>> = {}, label = 'admin-auth'): Promise<Ctx> {
  const clock = new FakeClock(Date.now());
  // supertest connects from loopback: trusting it lets each test pick its client IP with X-Forwarded-For
  const config = testConfig(
    { 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides },
    kind,
  );
  const infra = testInfra(config, { clock, label });
  const { admin } = buildBoth(config, infra);
  const app = admin.app;
  const cfg = await request(app.callback()).get('/auth/getConfig').expect(200);
  const publicKey = cfg.body.data.publicKey as string;
  const padding = config.rsaPadding;
  return { infra, app, clock, publicKey, encrypt: (s) => (padding === 'pkcs1' ? pkcs1(publicKey, s) : oaep(publicKey, s)) };
}

const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

function login(c: Ctx, username: string, password: string, ip = '10.0.0.1') {
  return request(c.app.callback())
    .post('/auth/login')
    .set('X-Forwarded-For', ip)
    .send({ username, password: c.encrypt(password) });
}

for (const kind of STORE_KINDS) {
  describe(`admin authentication over HTTP (${kind} store)`, function () {
    this.timeout(30000);

    describe('OAEP-SHA256 (default): the whole lifecycle', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind);
      });
      after(async () => c?.infra.dispose());

      it('getConfig publishes an SPKI PEM and the padding', async () => {
        const res = await request(c.app.callback()).get('/auth/getConfig').expect(200);
        assert.equal(res.body.code, 0);
        assert.deepEqual(Object.keys(res.body.data).sort(), ['captchaEnabled', 'captchaType', 'publicKey', 'rsaPadding']);
        assert.match(res.body.data.publicKey, /^-----BEGIN PUBLIC KEY-----\n/);
        assert.equal(res.body.data.rsaPadding, 'oaep-sha256');
        assert.equal(res.body.data.captchaEnabled, false);
      });

      it('login -> me -> refresh -> old access rejected -> reuse revokes the family -> logout', async () => {
        const res = await login(c, 'admin', 'admin123').expect(200);
        const d = res.body.data;
        assert.equal(res.body.code, 0);
        assert.match(d.accessToken, UUID);
        assert.match(d.refreshToken, REFRESH_TOKEN);
        assert.match(d.expires, DATE);
        assert.equal(d.expires, formatDateTime(c.clock.now() + 604800 * 1000, 'UTC'), 'expires = now + 7 days in svc.time-zone');
        assert.equal(d.username, 'admin');
        assert.equal(d.nickname, 'Administrator');
        assert.equal(d.avatar, '');
        assert.deepEqual(d.roles, ['admin']);
        assert.deepEqual(d.permissions, ['*:*:*']);
        assert.match(res.headers['ratelimit-policy'] ?? '', /^"login";q=5;w=60$/);

        const me = await request(c.app.callback()).get('/auth/me').set(bearer(d.accessToken)).expect(200);
        assert.deepEqual(me.body.data, {
          userId: '1',
          username: 'admin',
          nickname: 'Administrator',
          roles: ['admin'],
          permissions: ['*:*:*'],
        });

        c.clock.advance(1000);
        const r1 = await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(200);
        assert.deepEqual(Object.keys(r1.body.data).sort(), ['accessToken', 'expires', 'refreshToken']);
        assert.match(r1.body.data.accessToken, UUID);
        assert.match(r1.body.data.refreshToken, REFRESH_TOKEN);
        assert.match(r1.body.data.expires, DATE);
        assert.notEqual(r1.body.data.refreshToken, d.refreshToken);

        const old = await request(c.app.callback()).get('/auth/me').set(bearer(d.accessToken)).expect(401);
        assert.equal(old.body.code, 40102);
        await request(c.app.callback()).get('/auth/me').set(bearer(r1.body.data.accessToken)).expect(200);

        // inside the 2 s grace a second presentation is a concurrent duplicate: 401, family untouched
        const dupe = await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(401);
        assert.equal(dupe.body.code, 40111);
        await request(c.app.callback()).get('/auth/me').set(bearer(r1.body.data.accessToken)).expect(200);
        c.clock.advance(3000);
        // reuse of the rotated token: 401 and the whole family (the live pair) is revoked
        const reuse = await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(401);
        assert.equal(reuse.body.code, 40112);
        await request(c.app.callback()).get('/auth/me').set(bearer(r1.body.data.accessToken)).expect(401);
        const r2 = await request(c.app.callback())
          .post('/auth/refresh-token')
          .send({ refreshToken: r1.body.data.refreshToken })
          .expect(401);
        assert.ok([40111, 40112].includes(r2.body.code));

        // a fresh login, then logout: the token and its refresh token are dead
        const again = (await login(c, 'admin', 'admin123').expect(200)).body.data;
        await request(c.app.callback()).post('/auth/logout').set(bearer(again.accessToken)).expect(200);
        const after = await request(c.app.callback()).get('/auth/me').set(bearer(again.accessToken)).expect(401);
        assert.equal(after.body.code, 40102);
        const rAfter = await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: again.refreshToken }).expect(401);
        assert.equal(rAfter.body.code, 40111);
      });

      it('of concurrent refreshes with one token exactly one succeeds', async () => {
        const d = (await login(c, 'viewer', 'viewer123', '10.0.0.2').expect(200)).body.data;
        const results = await Promise.all(
          Array.from({ length: 8 }, () => request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken })),
        );
        assert.equal(results.filter((r) => r.status === 200).length, 1);
        assert.ok(results.every((r) => r.status === 200 || r.status === 401));
        const winner = results.find((r) => r.status === 200)?.body.data;
        await request(c.app.callback()).get('/auth/me').set(bearer(winner.accessToken)).expect(200);
      });

      it('refresh works after the access token lapsed and reloads roles from the directory', async () => {
        const d = (await login(c, 'viewer', 'viewer123', '10.0.0.3').expect(200)).body.data;
        c.clock.advance(604800 * 1000 + 1000);
        await request(c.app.callback()).get('/auth/me').set(bearer(d.accessToken)).expect(401);
        const r = await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(200);
        const me = await request(c.app.callback()).get('/auth/me').set(bearer(r.body.data.accessToken)).expect(200);
        assert.deepEqual(me.body.data.permissions, ['system:user:list', 'monitor:online:list']);
      });

      it('unknown user, wrong password, undecryptable password: same 401, code and message', async () => {
        const a = await login(c, 'nobody', 'admin123', '10.0.1.1').expect(401);
        const b = await login(c, 'admin', 'wrong-password', '10.0.1.2').expect(401);
        const u = await request(c.app.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', '10.0.1.3')
          .send({ username: 'admin', password: 'bm90LXJzYQ==' })
          .expect(401);
        const p = await request(c.app.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', '10.0.1.4')
          .send({ username: 'admin', password: 'admin123' })
          .expect(401);
        for (const r of [a, b, u, p]) {
          assert.deepEqual(r.body, { code: 40110, message: 'Wrong username or password.', data: null });
          assert.match(r.headers['www-authenticate'] ?? '', /^Bearer realm="admin"$/);
        }
      });

      it('a non-ASCII password round-trips', async () => {
        const token = (await login(c, 'admin', 'admin123', '10.0.2.1').expect(200)).body.data.accessToken;
        await request(c.app.callback())
          .post('/system/user')
          .set(bearer(token))
          .send({ username: 'zoë', password: c.encrypt('pässwörd-€-密码'), roles: ['viewer'] })
          .expect(400); // 'ë' is not a valid username character
        const created = await request(c.app.callback())
          .post('/system/user')
          .set(bearer(token))
          .send({ username: 'zoe', nickname: 'Zoë', password: c.encrypt('pässwörd-€-密码'), roles: ['viewer'] })
          .expect(200);
        assert.equal(created.body.data.username, 'zoe');
        const res = await login(c, 'zoe', 'pässwörd-€-密码', '10.0.2.2').expect(200);
        assert.equal(res.body.data.nickname, 'Zoë');
        assert.deepEqual(res.body.data.permissions, ['system:user:list', 'monitor:online:list']);
      });
    });

    describe('permissions on the system and monitor routes', () => {
      let c: Ctx;
      let adminToken: string;
      let viewerToken: string;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, {}, 'admin-perm');
        adminToken = (await login(c, 'admin', 'admin123').expect(200)).body.data.accessToken;
        viewerToken = (await login(c, 'viewer', 'viewer123').expect(200)).body.data.accessToken;
      });
      after(async () => c?.infra.dispose());

      it('POST /system/user: viewer 403, admin 200, duplicate 409, no token 401, bad token 401 invalid_token', async () => {
        const body = () => ({ username: 'carol', password: c.encrypt('carol-pass-1'), nickname: 'Carol', roles: ['viewer'] });
        const denied = await request(c.app.callback()).post('/system/user').set(bearer(viewerToken)).send(body()).expect(403);
        assert.equal(denied.body.code, 40300);
        const ok = await request(c.app.callback()).post('/system/user').set(bearer(adminToken)).send(body()).expect(200);
        assert.deepEqual(ok.body.data, { userId: '3', username: 'carol', nickname: 'Carol', avatar: '', enabled: true, roles: ['viewer'] });
        const dup = await request(c.app.callback()).post('/system/user').set(bearer(adminToken)).send(body()).expect(409);
        assert.equal(dup.body.code, 40900);
        const none = await request(c.app.callback()).post('/system/user').send(body()).expect(401);
        assert.equal(none.body.code, 40100);
        assert.equal(none.headers['www-authenticate'], 'Bearer realm="admin"');
        const bad = await request(c.app.callback())
          .post('/system/user')
          .set(bearer('3f1e2d4c-5b6a-4789-8abc-def012345678'))
          .send(body())
          .expect(401);
        assert.match(bad.headers['www-authenticate'] ?? '', /error="invalid_token"/);
        // The password policy: 400 password-policy (code 40040) listing every rule broken, and no account.
        const policy = async (password: string, details: string[]): Promise<void> => {
          const res = await request(c.app.callback())
            .post('/system/user')
            .set(bearer(adminToken))
            .send({ ...body(), username: 'dave', password: c.encrypt(password) })
            .expect(400);
          assert.deepEqual(
            { code: res.body.code, data: res.body.data, errors: res.body.errors },
            { code: 40040, data: null, errors: details.map((detail) => ({ pointer: '/password', detail })) },
          );
          assert.equal(await c.infra.directories.admins.findByUsername('dave'), null);
        };
        await policy('short', ['must be at least 8 characters']);
        await policy('Qwertyuiop', ['must not be a common or breached password']);
        await policy('DAVE', ['must be at least 8 characters', 'must not be the username']);
        const role = await request(c.app.callback())
          .post('/system/user')
          .set(bearer(adminToken))
          .send({ ...body(), username: 'erin', roles: ['nope'] })
          .expect(400);
        assert.equal(role.body.errors[0].pointer, '/roles');
      });

      it('GET /system/user/list pages the directory without hashes', async () => {
        const res = await request(c.app.callback()).get('/system/user/list?page=1&pageSize=2').set(bearer(viewerToken)).expect(200);
        assert.equal(res.body.data.list.length, 2);
        assert.ok(res.body.data.total >= 2);
        assert.ok(!JSON.stringify(res.body).includes('$2b$'));
        await request(c.app.callback()).get('/system/user/list?page=0').set(bearer(viewerToken)).expect(400);
      });

      it('online sessions: list, then force logout answers 401 kicked out', async () => {
        const victim = (await login(c, 'viewer', 'viewer123', '10.9.9.9').expect(200)).body.data;
        const list = await request(c.app.callback()).get('/monitor/online').set(bearer(viewerToken)).expect(200);
        const entry = (list.body.data.list as Array<Record<string, string>>).find((s) => s.ipaddr === '10.9.9.9');
        assert.ok(entry);
        assert.match(entry.tokenId as string, /^[0-9a-f]{32}$/);
        assert.equal(entry.username, 'viewer');
        assert.match(entry.loginTime as string, DATE);
        await request(c.app.callback()).delete(`/monitor/online/${entry.tokenId}`).set(bearer(viewerToken)).expect(403);
        await request(c.app.callback()).delete(`/monitor/online/${entry.tokenId}`).set(bearer(adminToken)).expect(200);
        const kicked = await request(c.app.callback()).get('/auth/me').set(bearer(victim.accessToken)).expect(401);
        assert.equal(kicked.body.code, 40105);
        await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: victim.refreshToken }).expect(401);
        await request(c.app.callback()).delete(`/monitor/online/${entry.tokenId}`).set(bearer(adminToken)).expect(404);
      });
    });

    describe('PKCS#1 v1.5 mode with JSEncrypt clients', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, { 'svc.rsa.padding': 'pkcs1' }, 'admin-pkcs1');
      });
      after(async () => c?.infra.dispose());

      it('getConfig -> JSEncrypt encrypt() -> login -> me -> refresh -> reuse revokes -> logout', async () => {
        const cfg = await request(c.app.callback()).get('/auth/getConfig').expect(200);
        assert.equal(cfg.body.data.rsaPadding, 'pkcs1');
        const d = (await login(c, 'admin', 'admin123').expect(200)).body.data;
        await request(c.app.callback()).get('/auth/me').set(bearer(d.accessToken)).expect(200);
        const r = (await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(200)).body
          .data;
        await request(c.app.callback()).get('/auth/me').set(bearer(d.accessToken)).expect(401);
        c.clock.advance(3000);
        await request(c.app.callback()).post('/auth/refresh-token').send({ refreshToken: d.refreshToken }).expect(401);
        await request(c.app.callback()).get('/auth/me').set(bearer(r.accessToken)).expect(401);
        const again = (await login(c, 'viewer', 'viewer123', '10.0.0.7').expect(200)).body.data;
        await request(c.app.callback()).post('/auth/logout').set(bearer(again.accessToken)).expect(200);
        await request(c.app.callback()).get('/auth/me').set(bearer(again.accessToken)).expect(401);
      });

      it('an OAEP ciphertext is refused in pkcs1 mode (no trial of both paddings)', async () => {
        const res = await request(c.app.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', '10.0.0.8')
          .send({ username: 'admin', password: oaep(c.publicKey, 'admin123') })
          .expect(401);
        assert.equal(res.body.code, 40110);
      });
    });

    describe('rate limits and the account lock', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, { 'svc.trusted-proxies': '10.0.0.0/8,127.0.0.1,::1', 'svc.login.max-failures': 3 }, 'admin-rl');
      });
      after(async () => c?.infra.dispose());

      it(
        'the 6th login from one IP inside 60 s gets 429 with Retry-After; another IP is unaffected ' + '(trusted proxy: XFF decides)',
        async () => {
          for (let i = 0; i < 5; i++) {
            const r = await request(c.app.callback())
              .post('/auth/login')
              .set('X-Forwarded-For', '203.0.113.5')
              .send({ username: `x${i}`, password: 'eA==' });
            assert.equal(r.status, 401);
            assert.equal(r.headers.ratelimit, `"login";r=${4 - i};t=60`);
          }
          const sixth = await request(c.app.callback())
            .post('/auth/login')
            .set('X-Forwarded-For', '203.0.113.5')
            .send({ username: 'admin', password: c.encrypt('admin123') })
            .expect(429);
          assert.equal(sixth.body.code, 42900);
          assert.equal(sixth.headers['retry-after'], '60');
          assert.equal(sixth.headers['ratelimit-policy'], '"login";q=5;w=60');
          assert.match(sixth.headers.ratelimit ?? '', /^"login";r=0;t=60$/);
          await request(c.app.callback())
            .post('/auth/login')
            .set('X-Forwarded-For', '203.0.113.6')
            .send({ username: 'admin', password: c.encrypt('admin123') })
            .expect(200);
          c.clock.advance(60_000);
          await request(c.app.callback())
            .post('/auth/login')
            .set('X-Forwarded-For', '203.0.113.5')
            .send({ username: 'admin', password: c.encrypt('admin123') })
            .expect(200);
        },
      );

      it(
        'the per-account lock: after max failures a client without a device cookie gets 428 ' +
          'captcha-required (known and unknown alike), expiring later',
        async () => {
          for (const name of ['viewer', 'ghost-user']) {
            for (let i = 0; i < 3; i++) {
              await request(c.app.callback())
                .post('/auth/login')
                .set('X-Forwarded-For', `198.51.100.${i}`)
                .send({ username: name, password: c.encrypt('nope-nope') })
                .expect(401);
            }
            const locked = await request(c.app.callback())
              .post('/auth/login')
              .set('X-Forwarded-For', '198.51.100.50')
              .send({ username: name, password: c.encrypt('viewer123') })
              .expect(428);
            assert.equal(locked.body.code, 42800);
            assert.equal(
              locked.headers['retry-after'],
              '3600',
              'a spent shared budget lasts svc.login.hard-lock-seconds after its last failure',
            );
          }
          c.clock.advance(3_600_000);
          await request(c.app.callback())
            .post('/auth/login')
            .set('X-Forwarded-For', '198.51.100.60')
            .send({ username: 'viewer', password: c.encrypt('viewer123') })
            .expect(200);
        },
      );
    });

    describe('client IP without a trusted proxy', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, { 'svc.trusted-proxies': '' }, 'admin-rl2');
      });
      after(async () => c?.infra.dispose());

      it('a forged X-Forwarded-For changes nothing: the socket peer is limited', async () => {
        for (let i = 0; i < 5; i++) {
          await request(c.app.callback())
            .post('/auth/login')
            .set('X-Forwarded-For', `192.0.2.${i}`)
            .send({ username: `x${i}`, password: 'eA==' })
            .expect(401);
        }
        const r = await request(c.app.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', '192.0.2.99')
          .send({ username: 'x', password: 'eA==' })
          .expect(429);
        assert.ok(Number(r.headers['retry-after']) > 0);
      });
    });

    describe('captcha', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        c = await setup(kind, { 'svc.captcha.enabled': true, 'svc.captcha.captcha-type': 'math' }, 'admin-captcha');
      });
      after(async () => c?.infra.dispose());

      /** Reads the answer the server stored (tests only): the image is an SVG drawn with paths. */
      async function captcha(): Promise<{ uuid: string; answer: string }> {
        const res = await request(c.app.callback()).get('/auth/captchaImage').expect(200);
        assert.equal(res.body.data.captchaEnabled, true);
        assert.match(res.body.data.uuid, UUID);
        assert.match(res.body.data.img, /^data:image\/svg\+xml;base64,/);
        assert.match(Buffer.from(res.body.data.img.split(',')[1], 'base64').toString(), /^<svg/);
        // Peek: take the stored challenge and put it back unchanged (expiry is judged on expiresAt).
        const uuid: string = res.body.data.uuid;
        const stored = await c.infra.captchas.take('admin', uuid);
        assert.ok(stored);
        await c.infra.captchas.save('admin', uuid, stored, 15 * 60_000);
        return { uuid, answer: stored.answer };
      }
      const send = (body: Record<string, unknown>, ip: string) =>
        request(c.app.callback())
          .post('/auth/login')
          .set('X-Forwarded-For', ip)
          .send({ username: 'admin', password: c.encrypt('admin123'), ...body });

      it('missing, wrong and expired are distinct; the answer works once only', async () => {
        assert.equal((await send({}, '10.1.0.1').expect(400)).body.code, 40010);
        const w = await captcha();
        assert.equal((await send({ uuid: w.uuid, code: `${w.answer}9` }, '10.1.0.2').expect(400)).body.code, 40012);
        // deleted at the first check, right or wrong
        assert.equal((await send({ uuid: w.uuid, code: w.answer }, '10.1.0.3').expect(400)).body.code, 40011);
        const ok = await captcha();
        await send({ uuid: ok.uuid, code: ok.answer }, '10.1.0.4').expect(200);
        assert.equal((await send({ uuid: ok.uuid, code: ok.answer }, '10.1.0.5').expect(400)).body.code, 40011);
        const late = await captcha();
        c.clock.advance(121_000);
        assert.equal((await send({ uuid: late.uuid, code: late.answer }, '10.1.0.6').expect(400)).body.code, 40011);
      });

      it('captchaImage has its own IP rate limit (30 per minute)', async () => {
        let last = 0;
        for (let i = 0; i < 31; i++)
          last = (await request(c.app.callback()).get('/auth/captchaImage').set('X-Forwarded-For', '10.2.0.1')).status;
        // no trusted proxy here: every request comes from the same peer, whatever the header says
        assert.equal(last, 429);
      });
    });

    describe('a disabled account', () => {
      let c: Ctx;
      before(async function () {
        if (kind === 'redis') await requireRedis(this);
        const dir = mkdtempSync(path.join(tmpdir(), 'agusers-'));
        const hash = '$2b$10$4RHDjNVgei8HvYnFA9k6Dexc9A3kGPD97o0h0HH3JAaT5rRBmH6Z2'; // viewer123
        writeFileSync(
          path.join(dir, 'users.yml'),
          `roles: {viewer: ['system:user:list']}\nusers:\n  - {id: 1, username: off, password: ` +
            `'${hash}', enabled: false, roles: [viewer]}\n`,
        );
        c = await setup(kind, { 'svc.users-file': path.join(dir, 'users.yml') }, 'admin-disabled');
      });
      after(async () => c?.infra.dispose());

      it('says account-disabled only to whoever knows the password; a wrong one is bad-credentials as for anyone', async () => {
        const right = await login(c, 'off', 'viewer123', '10.3.0.1').expect(401);
        const wrong = await login(c, 'off', 'not-it-1', '10.3.0.2').expect(401);
        assert.equal(right.body.code, 40114);
        assert.match(right.body.message, /disabled/);
        assert.equal(right.body.data, null);
        assert.equal(wrong.body.code, 40110);
      });
    });

    it('the container binds the admin directory with the dev seeds', async function () {
      if (kind === 'redis') await requireRedis(this);
      const config = testConfig({}, kind);
      const infra = testInfra(config, { label: 'admin-dir' });
      try {
        const dir = buildBoth(config, infra).admin.container.get(TOKENS.UserDirectory);
        assert.equal((await dir.findByUsername('admin'))?.id, '1');
        assert.equal((await dir.findByUsername('viewer'))?.enabled, true);
      } finally {
        await infra.dispose();
      }
    });
  });
}
