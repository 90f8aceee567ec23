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
const COOKIE = /^ag_device_admin=([A-Za-z0-9_-]{22}\.[1-9][0-9]*\.[A-Za-z0-9_-]{43}); Max-Age=31536000; Path=\/auth; HttpOnly; SameSite=Strict$/;

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
    const encrypted = publicEncrypt({ key: this.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(password)).toString('base64');
    const req = request(cb).post('/auth/login').set('X-Forwarded-For', nextIp());
    if (cookie !== undefined) req.set('Cookie', `ag_device_admin=${cookie}`);
    return req.send({ username, password: encrypted });
  }

  /** `max-failures` wrong passwords for `username`, each from another address. */
  async lockOut(username: string, cookie?: string) {
    for (let i = 0; i < 10; i++) assert.equal((await this.login(username, `wrong-${i}`, cookie)).status, 401);
  }
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

    it('a successful login sets it (HttpOnly, SameSite=Strict, Path=/auth, long Max-Age, not Secure outside prod), never in the body; a failure sets none', async () => {
      const client = new Client(build());
      const ok = await client.login('viewer', 'viewer123');
      assert.equal(ok.status, 200);
      const cookies = setCookies(ok).filter((c) => c.startsWith('ag_device_admin='));
      assert.equal(cookies.length, 1);
      const m = COOKIE.exec(cookies[0] ?? '');
      assert.ok(m, cookies[0]);
      assert.ok(!ok.text.includes(m[1] ?? '-'), 'the body does not carry the cookie');
      assert.deepEqual(Object.keys(ok.body.data).sort(), ['accessToken', 'avatar', 'expires', 'nickname', 'permissions', 'refreshToken', 'roles', 'username']);
      const bad = await client.login('viewer', 'wrong-pass', m[1]);
      assert.equal(bad.status, 401);
      assert.deepEqual(setCookies(bad), []);
    });

    it('after 10 failed logins of the account from 10 addresses, the cookie of an earlier login gets in; no cookie, another account’s, another login type’s or a forged one: 429', async () => {
      const apps = build();
      const client = new Client(apps);
      const viewerCookie = deviceCookieOf(await client.login('viewer', 'viewer123'));
      const adminCookie = deviceCookieOf(await client.login('admin', 'admin123'));
      // the web app's cookie of a member named viewer: same key, other login type
      const web = apps.web.app.callback();
      await request(web).post('/auth/register').set('X-Forwarded-For', nextIp()).send({ username: 'viewer', password: 'Viewer-pass-123' }).expect(201);
      const webCookie = deviceCookieOf(await request(web).post('/auth/login').set('X-Forwarded-For', nextIp()).send({ username: 'viewer', password: 'Viewer-pass-123' }).expect(200), 'ag_device_web');

      await client.lockOut('VIEWER');
      locked(await client.login('viewer', 'viewer123'));
      locked(await client.login('viewer', 'viewer123', adminCookie));
      locked(await client.login('viewer', 'viewer123', webCookie));
      const [id, exp, mac] = viewerCookie.split('.') as [string, string, string];
      const flipped = `${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`;
      for (const forged of [`${id}.${exp}.${flipped}`, `${'x'.repeat(22)}.${exp}.${mac}`, `${id}.${Number(exp) + 86400}.${mac}`, 'garbage', '']) {
        locked(await client.login('viewer', 'viewer123', forged));
      }

      const inside = await client.login('viewer', 'viewer123', viewerCookie);
      assert.equal(inside.status, 200, inside.text);
      const renewed = deviceCookieOf(inside);
      assert.notEqual(renewed, viewerCookie, 'each login hands out a new cookie');
      assert.equal((await client.login('viewer', 'viewer123', renewed)).status, 200);
      locked(await client.login('viewer', 'viewer123'), '900');
    });

    it('a cookie is judged on its own failures: 10 wrong with it lock the cookie, not the account, nor another cookie', async () => {
      const client = new Client(build());
      const mine = deviceCookieOf(await client.login('viewer', 'viewer123'));
      const other = deviceCookieOf(await client.login('viewer', 'viewer123'));
      await client.lockOut('viewer', mine);
      locked(await client.login('viewer', 'viewer123', mine));
      clock.advance(60_000);
      locked(await client.login('viewer', 'viewer123', mine), '840');
      assert.equal((await client.login('viewer', 'viewer123', other)).status, 200);
      assert.equal((await client.login('viewer', 'viewer123')).status, 200, 'the account budget was not spent');
    });

    it('the web app: a member’s cookie gets in while strangers have locked the account', async () => {
      const web = build().web.app.callback();
      const login = (password: string, cookie?: string) => {
        const req = request(web).post('/auth/login').set('X-Forwarded-For', nextIp());
        if (cookie !== undefined) req.set('Cookie', `ag_device_web=${cookie}`);
        return req.send({ username: 'alice', password });
      };
      const ok = await login('alice-pass-123').expect(200);
      assert.match(setCookies(ok).join('\n'), /^ag_device_web=[^;]+; Max-Age=31536000; Path=\/auth; HttpOnly; SameSite=Strict$/m);
      assert.deepEqual(Object.keys(ok.body).sort(), ['accessToken', 'expires', 'refreshToken']);
      const cookie = deviceCookieOf(ok, 'ag_device_web');
      for (let i = 0; i < 10; i++) await login(`wrong-pass-${i}`).expect(401);
      const refused = await login('alice-pass-123').expect(429);
      assert.equal(refused.body.code, 'account-locked');
      await login('alice-pass-123', cookie).expect(200);
    });

    it('an expired cookie exempts nothing', async () => {
      const client = new Client(build({ 'svc.login.device-cookie-max-age-seconds': 3600, 'svc.login.lock-seconds': 86400 }));
      const ok = await client.login('viewer', 'viewer123');
      assert.match(setCookies(ok).join('\n'), /; Max-Age=3600;/);
      const cookie = deviceCookieOf(ok);
      await client.lockOut('viewer');
      assert.equal((await client.login('viewer', 'viewer123', cookie)).status, 200);
      clock.advance(3600_000);
      locked(await client.login('viewer', 'viewer123', cookie), String(86400 - 3600));
    });

    it('the key rotates without logging devices out: the previous key still verifies, a dropped one does not', async () => {
      const before = new Client(build({ 'svc.login.device-cookie-secret': KEY_A }));
      const cookieA = deviceCookieOf(await before.login('viewer', 'viewer123'));
      const rotated = new Client(build({ 'svc.login.device-cookie-secret': KEY_B, 'svc.login.device-cookie-previous-secret': KEY_A }));
      await rotated.lockOut('viewer');
      locked(await rotated.login('viewer', 'viewer123'));
      const inside = await rotated.login('viewer', 'viewer123', cookieA);
      assert.equal(inside.status, 200, inside.text);
      const cookieB = deviceCookieOf(inside);
      const again = new Client(build({ 'svc.login.device-cookie-secret': KEY_C, 'svc.login.device-cookie-previous-secret': KEY_B }));
      locked(await again.login('viewer', 'viewer123', cookieA));
      assert.equal((await again.login('viewer', 'viewer123', cookieB)).status, 200);
    });
  });
}
