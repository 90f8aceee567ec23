/**
 * Device cookies (OWASP): strangers' failures lock the account for clients without a device
 * cookie, never for a client whose cookie came from an earlier successful login of that account.
 */
import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import request from 'supertest';
import type { ConfigKey } from '../../src/main/config';
import { STORE_KINDS, buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { FakeClock } from '../support/fake-clock';
import { requireRedis } from '../support/services';

const KEY_A = 'device-cookie-key-A-0123456789abcdef';
const KEY_B = 'device-cookie-key-B-0123456789abcdef';
const KEY_C = 'device-cookie-key-C-0123456789abcdef';
const COOKIE = new RegExp(
  String.raw`^ag_device_admin=([A-Za-z0-9_-]{22}\.[1-9][0-9]*\.[1-9][0-9]*\.[A-Za-z0-9_-]{43}); ` +
    String.raw`Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$`,
);

type Apps = ReturnType<typeof buildBoth>;
let ipSeq = 0;
const nextIp = () => `10.60.${Math.floor(++ipSeq / 250) % 250}.${(ipSeq % 250) + 1}`;

function setCookies(res: request.Response): string[] {
  const raw = res.headers['set-cookie'] as unknown;
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
}

/** The device cookie value a response set (the test checks the whole header elsewhere). */
function deviceCookieOf(res: request.Response, name = 'ag_device_admin'): string {
  const header = setCookies(res).find((c) => c.startsWith(`${name}=`));
  assert.ok(header, `no ${name} cookie in ${JSON.stringify(setCookies(res))}`);
  return header.slice(name.length + 1).split(';')[0] ?? '';
}

class Client {
  private key: string | undefined;
  constructor(private readonly apps: Apps) {}

  async login(username: string, password: string, cookie?: string) {
    const cb = this.apps.admin.app.callback();
    this.key ??= (await request(cb).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
    const encrypted = publicEncrypt(
      { key: this.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(password),
    ).toString('base64');
    const req = request(cb).post('/auth/login').set('X-Forwarded-For', nextIp());
    if (cookie !== undefined) req.set('Cookie', `ag_device_admin=${cookie}`);
    return req.send({ username, password: encrypted });
  }

  /** `max-failures` wrong passwords for `username`, each from another address. */
  async lockOut(username: string, cookie?: string) {
    for (let i = 0; i < 10; i++) assert.equal((await this.login(username, `wrong-${i}`, cookie)).status, 401);
  }
}

/** A client without a valid cookie of the account, once strangers spent its budget: 428 until it solves a captcha. */
function captchaRequired(res: request.Response) {
  assert.equal(res.status, 428, res.text);
  assert.equal(res.body.code, 42800);
}

function locked(res: request.Response, retryAfter = '900') {
  assert.equal(res.status, 429, res.text);
  assert.equal(res.body.code, 42901);
  assert.equal(res.headers['retry-after'], retryAfter);
}

for (const kind of STORE_KINDS) {
  describe(`device cookies (${kind} store)`, function () {
    this.timeout(60_000);
    let infra: TestInfra | undefined;
    let clock: FakeClock;
    const build = (overrides: Partial<Record<ConfigKey, unknown>> = {}) => {
      const config = testConfig({ 'svc.trusted-proxies': '127.0.0.1,::1', 'svc.login.max-failures': 10, ...overrides }, kind);
      infra ??= testInfra(config, { label: 'devcookie', clock });
      return buildBoth(config, infra);
    };
    beforeEach(async function () {
      if (kind === 'redis') await requireRedis(this);
      clock = new FakeClock(Date.now());
    });
    afterEach(async () => {
      await infra?.dispose();
      infra = undefined;
    });

    it(
      'a successful login sets it (HttpOnly, SameSite=Strict, Path=/auth, long Max-Age, not ' +
        'Secure outside prod), never in the body; a failure sets none',
      async () => {
        const client = new Client(build());
        const ok = await client.login('viewer', 'viewer123');
        assert.equal(ok.status, 200);
        const cookies = setCookies(ok).filter((c) => c.startsWith('ag_device_admin='));
        assert.equal(cookies.length, 1);
        const m = COOKIE.exec(cookies[0] ?? '');
        assert.ok(m, cookies[0]);
        assert.ok(!ok.text.includes(m[1] ?? '-'), 'the body does not carry the cookie');
        assert.deepEqual(Object.keys(ok.body.data).sort(), [
          'accessToken',
          'avatar',
          'expires',
          'nickname',
          'passwordChangeRequired',
          'permissions',
          'refreshToken',
          'requiredActions',
          'roles',
          'username',
        ]);
        const bad = await client.login('viewer', 'wrong-pass', m[1]);
        assert.equal(bad.status, 401);
        assert.deepEqual(setCookies(bad), []);
      },
    );

    it(
      'after 10 failed logins of the account from 10 addresses, the cookie of an earlier login ' +
        'gets in; no cookie, another account’s, another login type’s or a forged one: 429',
      async () => {
        const apps = build();
        const client = new Client(apps);
        const viewerCookie = deviceCookieOf(await client.login('viewer', 'viewer123'));
        const adminCookie = deviceCookieOf(await client.login('admin', 'admin123'));
        // the web app's cookie of a member named viewer: same key, other login type
        const web = apps.web.app.callback();
        await request(web)
          .post('/auth/register')
          .set('X-Forwarded-For', nextIp())
          .send({ username: 'viewer', password: 'Viewer-pass-123' })
          .expect(201);
        const webCookie = deviceCookieOf(
          await request(web)
            .post('/auth/login')
            .set('X-Forwarded-For', nextIp())
            .send({ username: 'viewer', password: 'Viewer-pass-123' })
            .expect(200),
          'ag_device_web',
        );

        await client.lockOut('VIEWER');
        captchaRequired(await client.login('viewer', 'viewer123'));
        captchaRequired(await client.login('viewer', 'viewer123', adminCookie));
        captchaRequired(await client.login('viewer', 'viewer123', webCookie));
        const [id, exp, iss, mac] = viewerCookie.split('.') as [string, string, string, string];
        const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
        const forgeries = [
          `${id}.${exp}.${iss}.${flipped}`,
          `${'x'.repeat(22)}.${exp}.${iss}.${mac}`,
          `${id}.${Number(exp) + 86400}.${iss}.${mac}`,
          `${id}.${exp}.${Number(iss) + 1}.${mac}`,
          `${id}.${exp}.${mac}`,
          'garbage',
          '',
        ];
        for (const forged of forgeries) captchaRequired(await client.login('viewer', 'viewer123', forged));

        const inside = await client.login('viewer', 'viewer123', viewerCookie);
        assert.equal(inside.status, 200, inside.text);
        const renewed = deviceCookieOf(inside);
        assert.notEqual(renewed, viewerCookie, 'each login hands out a new cookie');
        assert.equal((await client.login('viewer', 'viewer123', renewed)).status, 200);
        captchaRequired(await client.login('viewer', 'viewer123'));
      },
    );

    it(
      'a cookie is judged on its own failures: 10 wrong with it spend the cookie, not the account ' +
        'nor another cookie; then it counts as no cookie',
      async () => {
        const client = new Client(build());
        const mine = deviceCookieOf(await client.login('viewer', 'viewer123'));
        const other = deviceCookieOf(await client.login('viewer', 'viewer123'));
        await client.lockOut('viewer', mine);
        assert.ok(infra);
        assert.equal(
          JSON.parse((await infra.kv.get('loginfail:admin:viewer')) ?? '{"failures":0}').failures ?? 0,
          0,
          'the account budget was not spent',
        );
        // a spent cookie is no worse off than a client without one: the shared budget judges it
        await client.lockOut('viewer', mine);
        captchaRequired(await client.login('viewer', 'viewer123', mine));
        captchaRequired(await client.login('viewer', 'viewer123'));
        assert.equal((await client.login('viewer', 'viewer123', other)).status, 200, 'another cookie keeps its own budget');
      },
    );

    it('the web app: a member’s cookie gets in while strangers have locked the account', async () => {
      const web = build().web.app.callback();
      const login = (password: string, cookie?: string) => {
        const req = request(web).post('/auth/login').set('X-Forwarded-For', nextIp());
        if (cookie !== undefined) req.set('Cookie', `ag_device_web=${cookie}`);
        return req.send({ username: 'alice', password });
      };
      const ok = await login('alice-pass-123').expect(200);
      assert.match(setCookies(ok).join('\n'), /^ag_device_web=[^;]+; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Strict$/m);
      assert.deepEqual(Object.keys(ok.body).sort(), ['accessToken', 'expires', 'refreshToken']);
      const cookie = deviceCookieOf(ok, 'ag_device_web');
      for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
      const refused = await login('alice-pass-123').expect(428);
      assert.equal(refused.body.code, 'captcha-required');
      assert.equal(refused.headers['content-type'], 'application/problem+json');
      await login('alice-pass-123', cookie).expect(200);
    });

    /** A captcha from the app's /auth/captchaImage, and its answer read from the store (the test plays the human). */
    async function captchaOf(
      cb: ReturnType<Apps['admin']['app']['callback']>,
      scope: 'admin' | 'web',
      path: string,
    ): Promise<{ uuid: string; code: string }> {
      const res = await request(cb).get(path).set('X-Forwarded-For', nextIp()).expect(200);
      const data = scope === 'admin' ? res.body.data : res.body;
      assert.equal(data.captchaEnabled, true, res.text);
      assert.match(data.img, /^data:image\/svg\+xml;base64,/);
      assert.ok(infra);
      const stored = await infra.captchas.take(scope, data.uuid);
      assert.ok(stored);
      await infra.captchas.save(scope, data.uuid, stored, 60_000);
      return { uuid: data.uuid, code: stored.answer };
    }

    it(
      'admin: once strangers spent the budget, the owner without a cookie gets 428, then 200 with ' +
        'a solved captcha (?purpose=unlock, though logins need none)',
      async () => {
        const apps = build();
        const client = new Client(apps);
        const cb = apps.admin.app.callback();
        assert.deepEqual(
          (await request(cb).get('/auth/captchaImage').expect(200)).body.data,
          { captchaEnabled: false },
          'logins need no captcha in this profile',
        );
        await client.lockOut('viewer');
        captchaRequired(await client.login('viewer', 'viewer123'));
        const key = (await request(cb).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
        const enc = (p: string) =>
          publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(p)).toString('base64');
        const send = (password: string, captcha: { uuid: string; code: string }) =>
          request(cb)
            .post('/auth/login')
            .set('X-Forwarded-For', nextIp())
            .send({ username: 'viewer', password: enc(password), ...captcha });
        // a wrong answer: 400 captcha-wrong, and that captcha is spent
        const wrong = await captchaOf(cb, 'admin', '/auth/captchaImage?purpose=unlock');
        assert.equal((await send('viewer123', { uuid: wrong.uuid, code: `${wrong.code}9` })).body.code, 40012);
        // a solved captcha with a wrong password: 401, and still counted (the account stays in this state)
        assert.equal((await send('wrong-again', await captchaOf(cb, 'admin', '/auth/captchaImage?purpose=unlock'))).status, 401);
        captchaRequired(await client.login('viewer', 'viewer123'));
        const ok = await send('viewer123', await captchaOf(cb, 'admin', '/auth/captchaImage?purpose=unlock'));
        assert.equal(ok.status, 200, ok.text);
        assert.ok(deviceCookieOf(ok));
        assert.equal((await client.login('viewer', 'viewer123')).status, 200, 'the owner’s success cleared the shared budget');
        assert.equal((await request(cb).get('/auth/captchaImage?purpose=nonsense').expect(400)).body.code, 40000);
      },
    );

    it(
      'web: 10 failures from 10 addresses, then 428 for the owner without a cookie, 200 with a ' + 'captcha from GET /auth/captchaImage',
      async () => {
        const web = build().web.app.callback();
        const login = (password: string, extra: Record<string, string> = {}) =>
          request(web)
            .post('/auth/login')
            .set('X-Forwarded-For', nextIp())
            .send({ username: 'alice', password, ...extra });
        for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
        const refused = await login('alice-pass-123').expect(428);
        assert.equal(refused.body.code, 'captcha-required');
        assert.equal(refused.body.status, 428);
        await login('alice-pass-123', { uuid: 'not-a-captcha', code: '12' }).expect(400);
        const ok = await login('alice-pass-123', await captchaOf(web, 'web', '/auth/captchaImage'));
        assert.equal(ok.status, 200, ok.text);
        assert.ok(ok.body.accessToken);
      },
    );

    it(
      'guessing stays bounded: past svc.login.captcha-max-failures captcha-solved failures, even ' +
        'a solved captcha is refused (429) for hard-lock-seconds; a device cookie still gets in',
      async () => {
        const apps = build({ 'svc.login.captcha-max-failures': 3 });
        const web = apps.web.app.callback();
        const login = (password: string, extra: Record<string, string> = {}, cookie?: string) => {
          const req = request(web).post('/auth/login').set('X-Forwarded-For', nextIp());
          if (cookie !== undefined) req.set('Cookie', `ag_device_web=${cookie}`);
          return req.send({ username: 'alice', password, ...extra });
        };
        const cookie = deviceCookieOf(await login('alice-pass-123').expect(200), 'ag_device_web');
        for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
        await login('alice-pass-123').expect(428);
        for (let i = 0; i < 3; i++) await login(`captcha-guess-${i}`, await captchaOf(web, 'web', '/auth/captchaImage')).expect(401);
        const refused = await login('alice-pass-123', await captchaOf(web, 'web', '/auth/captchaImage')).expect(429);
        assert.equal(refused.body.code, 'account-locked');
        assert.equal(refused.headers['retry-after'], '3600');
        await login('alice-pass-123').expect(429);
        await login('alice-pass-123', {}, cookie).expect(200);
        clock.advance(3600_000);
        await login('alice-pass-123').expect(200);
      },
    );

    it(
      'admin with a captcha on every login: the shared budget still caps failures (max-failures + ' + 'captcha-max-failures), then 429',
      async () => {
        const apps = build({ 'svc.captcha.enabled': true, 'svc.login.captcha-max-failures': 2 });
        const cb = apps.admin.app.callback();
        const key = (await request(cb).get('/auth/getConfig').expect(200)).body.data.publicKey as string;
        const enc = (p: string) =>
          publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(p)).toString('base64');
        const send = async (password: string) =>
          request(cb)
            .post('/auth/login')
            .set('X-Forwarded-For', nextIp())
            .send({ username: 'viewer', password: enc(password), ...(await captchaOf(cb, 'admin', '/auth/captchaImage')) });
        for (let i = 0; i < 12; i++) assert.equal((await send(`wrong-${i}`)).body.code, 40110, `guess ${i}`);
        const refused = await send('viewer123');
        assert.equal(refused.status, 429, refused.text);
        assert.equal(refused.body.code, 42901);
      },
    );

    it('svc.login.captcha-max-failures=0: a spent shared budget refuses outright (429), as before the captcha way in', async () => {
      const client = new Client(build({ 'svc.login.captcha-max-failures': 0 }));
      await client.lockOut('viewer');
      locked(await client.login('viewer', 'viewer123'));
    });

    it('a cookie from before log-out-everywhere no longer exempts; one issued after it does', async () => {
      const web = build().web.app.callback();
      const login = (password: string, cookie?: string) => {
        const req = request(web).post('/auth/login').set('X-Forwarded-For', nextIp());
        if (cookie !== undefined) req.set('Cookie', `ag_device_web=${cookie}`);
        return req.send({ username: 'alice', password });
      };
      const stolen = deviceCookieOf(await login('alice-pass-123').expect(200), 'ag_device_web');
      clock.advance(1);
      const owner = await login('alice-pass-123').expect(200);
      await request(web).post('/user/logout-all').set('Authorization', `Bearer ${owner.body.accessToken}`).expect(200);
      clock.advance(1);
      const fresh = deviceCookieOf(await login('alice-pass-123').expect(200), 'ag_device_web');
      for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
      assert.equal((await login('alice-pass-123', stolen)).status, 428, 'revoked by log-out-everywhere');
      assert.equal((await login('alice-pass-123', fresh)).status, 200);
    });

    it('every ag_device_<type> value sent is tried: a planted junk cookie before the owner’s hides nothing', async () => {
      const web = build().web.app.callback();
      const login = (password: string, cookieHeader?: string) => {
        const req = request(web).post('/auth/login').set('X-Forwarded-For', nextIp());
        if (cookieHeader !== undefined) req.set('Cookie', cookieHeader);
        return req.send({ username: 'alice', password });
      };
      const cookie = deviceCookieOf(await login('alice-pass-123').expect(200), 'ag_device_web');
      for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
      await login('alice-pass-123', 'ag_device_web=x').expect(428);
      await login('alice-pass-123', `ag_device_web=x; other=1; ag_device_web=${cookie}`).expect(200);
    });

    it('the cookie path is svc.login.device-cookie-path (default /: a deployment behind a prefix gets the cookie back)', async () => {
      const client = new Client(build({ 'svc.login.device-cookie-path': '/api/auth' }));
      const ok = await client.login('viewer', 'viewer123');
      assert.match(setCookies(ok).join('\n'), /^ag_device_admin=[^;]+; Max-Age=31536000; Path=\/api\/auth; HttpOnly; SameSite=Strict$/m);
    });

    it('an expired cookie exempts nothing', async () => {
      const client = new Client(build({ 'svc.login.device-cookie-max-age-seconds': 3600, 'svc.login.lock-seconds': 86400 }));
      const ok = await client.login('viewer', 'viewer123');
      assert.match(setCookies(ok).join('\n'), /; Max-Age=3600;/);
      const cookie = deviceCookieOf(ok);
      await client.lockOut('viewer');
      assert.equal((await client.login('viewer', 'viewer123', cookie)).status, 200);
      clock.advance(3600_000);
      captchaRequired(await client.login('viewer', 'viewer123', cookie));
    });

    it('the key rotates without logging devices out: the previous key still verifies, a dropped one does not', async () => {
      const before = new Client(build({ 'svc.login.device-cookie-secret': KEY_A }));
      const cookieA = deviceCookieOf(await before.login('viewer', 'viewer123'));
      const rotated = new Client(build({ 'svc.login.device-cookie-secret': KEY_B, 'svc.login.device-cookie-previous-secret': KEY_A }));
      await rotated.lockOut('viewer');
      captchaRequired(await rotated.login('viewer', 'viewer123'));
      const inside = await rotated.login('viewer', 'viewer123', cookieA);
      assert.equal(inside.status, 200, inside.text);
      const cookieB = deviceCookieOf(inside);
      const again = new Client(build({ 'svc.login.device-cookie-secret': KEY_C, 'svc.login.device-cookie-previous-secret': KEY_B }));
      captchaRequired(await again.login('viewer', 'viewer123', cookieA));
      assert.equal((await again.login('viewer', 'viewer123', cookieB)).status, 200);
    });
  });
}
