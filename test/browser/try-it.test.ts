/**
 * The try-it page (GET / on the admin app) in a real browser: it encrypts the password with
 * WebCrypto (or JSEncrypt for PKCS#1), logs in, shows the permissions, calls /auth/me,
 * refreshes and logs out, all under the app's CSP.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import type { ConfigKey } from '../../src/main/config';
import { loadConfig } from '../../src/main/config';
import { buildAdminApp } from '../../src/main/admin';
import { prodEnv } from '../support/prod-env';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';
import { testConfig, testInfra, type TestInfra } from '../support/apps';

// The page functions passed to waitForFunction run in the browser (the project's tsconfig has no DOM lib).
declare const document: { getElementById(id: string): { textContent: string | null } | null };

describe('try-it page: mounted by svc.try-it.enabled', () => {
  it('is on in dev, off in test and prod, and can be switched on', async () => {
    assert.equal(loadConfig({ env: { APP_PROFILE: 'dev' } }).tryItEnabled, true);
    assert.equal(loadConfig({ env: { APP_PROFILE: 'test' } }).tryItEnabled, false);
    assert.equal(loadConfig({ env: prodEnv() }).tryItEnabled, false);
    assert.equal(loadConfig({ env: prodEnv({ SVC_TRY_IT_ENABLED: 'true' }) }).tryItEnabled, true);
    for (const [enabled, status] of [
      [false, 404],
      [true, 200],
    ] as const) {
      const config = testConfig({ 'svc.try-it.enabled': enabled, 'svc.crypto.worker-threads': 1 });
      const infra = testInfra(config, { label: 'try-it' });
      try {
        const app = buildAdminApp(config, infra).app.callback();
        const res = await request(app).get('/').expect(status);
        if (enabled) {
          assert.match(res.headers['content-type'] ?? '', /^text\/html/);
          assert.match(res.headers['content-security-policy'] ?? '', /script-src 'self'/);
          assert.ok(
            !/<script>/.test(res.text) && !/https?:\/\//.test(res.text.replace(/<meta[^>]*>/g, '')),
            'no inline script, no external URL',
          );
          await request(app)
            .get('/try-it/app.js')
            .expect(200)
            .expect('Content-Type', /javascript/);
          const passkeys = await request(app)
            .get('/try-it/passkeys.js')
            .expect(200)
            .expect('Content-Type', /javascript/);
          assert.ok(passkeys.text.includes('parseCreationOptionsFromJSON'));
          const totp = await request(app)
            .get('/try-it/totp.js')
            .expect(200)
            .expect('Content-Type', /javascript/);
          assert.ok(totp.text.includes('/auth/mfa/totp/setup') && totp.text.includes('data:image/svg+xml;base64,'));
          assert.ok(!/innerHTML|insertAdjacentHTML|document\.write/.test(totp.text), 'nothing from an answer goes in as markup');
          assert.ok(res.text.includes('<script src="/try-it/totp.js"></script>'));
          const js = await request(app).get('/try-it/jsencrypt.min.js').expect(200);
          assert.ok(js.text.includes('encryptOAEP'));
        }
      } finally {
        await infra.dispose();
      }
    }
  });
});

describe('try-it page in chromium (playwright-core)', function () {
  this.timeout(60000);
  let browser: Browser | undefined;

  before(async function () {
    requireChromium(this);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => browser?.close());

  async function withAdmin(
    overrides: Partial<Record<ConfigKey, unknown>>,
    fn: (page: Page, base: string, problems: string[]) => Promise<void>,
  ): Promise<void> {
    const config = testConfig({ 'svc.try-it.enabled': true, 'svc.captcha.enabled': false, 'svc.crypto.worker-threads': 1, ...overrides });
    const infra: TestInfra = testInfra(config, { label: 'try-it-browser' });
    const server = http.createServer(buildAdminApp(config, infra).app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await (browser as Browser).newPage();
    // any script error or CSP violation fails the test
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      await fn(page, base, problems);
    } finally {
      await page.close();
      await new Promise((r) => server.close(r));
      await infra.dispose();
    }
  }

  async function logIn(page: Page, base: string, password: string): Promise<void> {
    await page.goto(`${base}/`);
    await page.waitForSelector('#login:not([disabled])');
    await page.fill('#username', 'admin');
    await page.fill('#password', password);
    await page.click('#login');
  }

  it('logs in as admin/admin123 with WebCrypto RSA-OAEP and shows the permissions; me, refresh and logout work', async () => {
    await withAdmin({}, async (page, base, problems) => {
      // a wrong password first: refused, nothing shown
      await logIn(page, base, 'wrong-password');
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('login refused'));
      assert.equal(await page.textContent('#permissions'), '-');

      await page.fill('#password', 'admin123');
      await page.click('#login');
      await page.waitForFunction(() => document.getElementById('permissions')?.textContent === '*:*:*');
      assert.equal(await page.textContent('#roles'), 'admin');
      assert.match((await page.textContent('#expires')) ?? '', /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);
      const token = (await page.textContent('#access-token')) ?? '';
      assert.match(token, /^[0-9a-f-]{36}$/);
      assert.match((await page.textContent('#config')) ?? '', /WebCrypto RSA-OAEP SHA-256/);

      await page.click('#me');
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'GET /auth/me ok');
      assert.match((await page.textContent('#output')) ?? '', /"username": "admin"/);

      await page.click('#refresh');
      await page.waitForFunction((old) => {
        const t = document.getElementById('access-token')?.textContent;
        return t !== old && t !== '-';
      }, token);
      const refreshed = (await page.textContent('#access-token')) ?? '';
      await request(base).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
      await request(base).get('/auth/me').set('Authorization', `Bearer ${refreshed}`).expect(200);

      // change the password: a weak one is refused with the policy's reason, a strong one is taken
      await page.fill('#current-password', 'admin123');
      await page.fill('#new-password', 'password');
      await page.click('#change-password');
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('password change refused: 40040'));
      await page.fill('#new-password', 'a long and unusual passphrase');
      await page.click('#change-password');
      await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('password changed'));
      await request(base).get('/auth/me').set('Authorization', `Bearer ${refreshed}`).expect(200);

      await page.click('#logout');
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'logged out');
      await request(base).get('/auth/me').set('Authorization', `Bearer ${refreshed}`).expect(401);
      // the failed login's 401 is logged by the browser as a failed resource load: that is expected
      assert.deepEqual(
        problems.filter((p) => !/status of (401|400)/.test(p)),
        [],
      );
    });
  });

  it('logs in with the pkcs1 padding through JSEncrypt (served same-origin)', async () => {
    await withAdmin({ 'svc.rsa.padding': 'pkcs1' }, async (page, base, problems) => {
      await logIn(page, base, 'admin123');
      await page.waitForFunction(() => document.getElementById('permissions')?.textContent === '*:*:*');
      assert.match((await page.textContent('#config')) ?? '', /"encryptWith": "JSEncrypt"/);
      assert.deepEqual(problems, []);
    });
  });

  it('shows the SVG captcha when the captcha is on', async () => {
    await withAdmin({ 'svc.captcha.enabled': true }, async (page, base, problems) => {
      await page.goto(`${base}/`);
      await page.waitForSelector('#login:not([disabled])');
      assert.equal(await page.isVisible('#captcha-img'), true);
      assert.match((await page.getAttribute('#captcha-img', 'src')) ?? '', /^data:image\/svg\+xml;base64,/);
      assert.deepEqual(problems, []);
    });
  });
});
