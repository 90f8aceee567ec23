/**
 * Second factors in a real browser, on both apps: chromium enrols an authenticator app (the admin
 * try-it page; on web the docs' snippet on the app's own origin), oathtool computes its codes as the
 * app on a phone would, and the next login takes its second step with one; a passkey of the
 * DevTools virtual authenticator (CTAP2, internal transport, resident keys, user verification) is
 * the second step after a password, then a passwordless login; a clone of it whose counter lags
 * behind is refused as a second step.
 *
 * Each test serves both apps afresh (fresh accounts, fresh rate limits: a test makes up to four
 * logins, the limit is five a minute) on a clock it moves: 30 s between two codes (each code is
 * accepted once), past svc.step-up.max-age-seconds to see removal ask for a step-up. Each removes
 * what it enrolled all the same, through the page where the page offers it.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';
import { FakeClock } from '../support/fake-clock';
import { adminLogin } from '../support/flows';
import { oathtoolCode, requireOathtool } from '../support/oathtool';
import {
  addVirtualAuthenticator,
  browserSnippet,
  fetchIn,
  newPage,
  serveApps,
  type PageAnswer,
  type ServedApps,
  type VirtualAuthenticator,
} from '../support/webauthn-browser';

// The page functions passed to waitForFunction run in the browser (the project's tsconfig has no DOM lib).
declare const document: { getElementById(id: string): { textContent: string | null } | null };

const ALICE = { username: 'alice', password: 'alice-pass-123' };
const RECOVERY_CODE = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/;
/** Console lines a refused call leaves (chromium logs each 4xx answer as a failed resource load). */
const refusedLoad = (status: number) => (p: string) => !p.includes(`status of ${status}`);

describe('second factors in chromium: TOTP on the try-it page and on web, a passkey as second step and alone', function () {
  this.timeout(60000);
  let browser: Browser | undefined;

  before(async function () {
    requireChromium(this);
    requireOathtool(this);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  });
  after(async () => browser?.close());

  async function withApps(fn: (apps: ServedApps, clock: FakeClock) => Promise<void>): Promise<void> {
    const clock = new FakeClock(Date.now());
    const apps = await serveApps({}, { clock });
    try {
      await fn(apps, clock);
    } finally {
      await apps.close();
    }
  }

  async function statusIs(page: Page, text: string): Promise<void> {
    await page.waitForFunction((t) => document.getElementById('status')?.textContent === t, text);
  }

  /** Logs admin in on the try-it page; `code` answers the second step's prompt. */
  async function tryItLogin(page: Page, base: string, code?: string): Promise<string> {
    if (page.url() !== `${base}/`) {
      await page.goto(`${base}/`);
      await page.waitForSelector('#login:not([disabled])');
    }
    const prompts: string[] = [];
    if (code !== undefined)
      page.once('dialog', (d) => {
        prompts.push(d.message());
        void d.accept(code);
      });
    await page.fill('#password', 'admin123');
    await page.click('#login');
    await statusIs(page, 'logged in as admin');
    assert.equal(prompts.length, code === undefined ? 0 : 1, 'the code is asked for exactly when one is given');
    assert.equal(await page.textContent('#permissions'), '*:*:*');
    return (await page.textContent('#access-token')) ?? '';
  }

  async function logOut(page: Page): Promise<void> {
    await page.click('#logout');
    await statusIs(page, 'logged out');
  }

  it('admin: the try-it page enrols an authenticator app; the next login asks for its code; removal asks for a step-up', async () => {
    await withApps(async (apps, clock) => {
      const { page, problems } = await newPage(browser as Browser);
      await tryItLogin(page, apps.admin);

      await page.click('#totp-setup');
      await page.waitForSelector('#totp-enrol:not([hidden])');
      const secret = (await page.textContent('#totp-secret')) ?? '';
      assert.match(secret, /^[A-Z2-7]{16,}$/);
      assert.match((await page.textContent('#output')) ?? '', new RegExp(`otpauth://totp/[^"]*secret=${secret}`));
      const qr = (await page.getAttribute('#totp-qr', 'src')) ?? '';
      const prefix = 'data:image/svg+xml;base64,';
      assert.ok(qr.startsWith(prefix), qr.slice(0, 40));
      assert.match(Buffer.from(qr.slice(prefix.length), 'base64').toString('utf8'), /<svg[\s\S]*<\/svg>\s*$/);
      const width = await page.evaluate(
        `(async () => { const i = document.getElementById('totp-qr'); await i.decode(); return i.naturalWidth; })()`,
      );
      assert.ok((width as number) > 0, 'the QR code is drawn under the page CSP');

      await page.fill('#totp-code', oathtoolCode(secret, clock.now()));
      await page.click('#totp-confirm');
      await statusIs(page, 'authenticator app enrolled: keep the recovery codes');
      const codes = await page.locator('#totp-recovery-codes li').allTextContents();
      assert.equal(new Set(codes).size, 10);
      for (const c of codes) assert.match(c, RECOVERY_CODE);
      assert.equal(await page.isVisible('#totp-enrol'), false, 'the secret is shown no longer');
      await logOut(page);
      assert.deepEqual(await page.locator('#totp-recovery-codes li').allTextContents(), [], 'the recovery codes were shown once');

      // the next step's code: the confirming one was spent
      clock.advance(30_000);
      const token = await tryItLogin(page, apps.admin, oathtoolCode(secret, clock.now()));
      await request(apps.admin).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);

      clock.advance(301_000);
      await page.click('#totp-remove');
      await page.waitForSelector('#step-up:not([hidden])');
      assert.match((await page.textContent('#status')) ?? '', /needs a recent login/);
      assert.match((await page.textContent('#output')) ?? '', /"code": 40305/);
      await page.fill('#step-up-password', 'admin123');
      await page.click('#step-up-submit');
      await statusIs(page, 'authenticator app removed');
      assert.equal(await page.isVisible('#step-up'), false);

      const login = await adminLogin(apps.admin)('admin', 'admin123', '127.0.0.1');
      assert.equal(typeof login.body.data.accessToken, 'string', 'a password alone logs in again');
      assert.deepEqual(problems.filter(refusedLoad(403)), []);
      await page.close();
    });
  });

  it("web: the docs' snippet enrols an authenticator app on the app's origin; the next login's second step takes its code", async () => {
    await withApps(async (apps, clock) => {
      const { page, problems } = await newPage(browser as Browser);
      await page.goto(`${apps.web}/problems/not-found`);
      const first = await fetchIn(page, 'POST', '/auth/login', ALICE);
      assert.equal(first.status, 200);
      const token = first.json.accessToken as string;
      const snippet = browserSnippet('integration-web.md', 0, '## Second factor (TOTP)');
      const shown = (await page.evaluate(
        `(async (token) => {
          const qrImg = document.body.appendChild(document.createElement('img'));
          ${snippet}
          await qrImg.decode();
          return { secret, width: qrImg.naturalWidth };
        })(${JSON.stringify(token)})`,
      )) as { secret: string; width: number };
      assert.match(shown.secret, /^[A-Z2-7]{16,}$/);
      assert.ok(shown.width > 0, 'the QR code is drawn under the page CSP');

      const confirmed = await fetchIn(page, 'POST', '/auth/mfa/totp/confirm', { code: oathtoolCode(shown.secret, clock.now()) }, token);
      assert.equal(confirmed.status, 200);
      assert.equal(new Set(confirmed.json.recoveryCodes).size, 10);
      assert.equal((await fetchIn(page, 'POST', '/auth/logout', undefined, token)).status, 200);

      clock.advance(30_000);
      const code = oathtoolCode(shown.secret, clock.now());
      const tokens = await webSecondStep(page, async (login) => {
        assert.deepEqual(login.json.methods, ['totp', 'recovery']);
        return code;
      });
      const profile = await fetchIn(page, 'GET', '/user/profile', undefined, tokens.accessToken);
      assert.equal(profile.json.username, 'alice');

      assert.equal((await fetchIn(page, 'DELETE', '/auth/mfa/totp', undefined, tokens.accessToken)).status, 204);
      const again = await request(apps.web).post('/auth/login').send(ALICE).expect(200);
      assert.equal(typeof again.body.accessToken, 'string', 'a password alone logs in again');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });

  /**
   * A password login on web run in `page`, then its second step through the docs' snippet: a passkey
   * when the account has one, else the code `askCode` gives. Answers the tokens.
   */
  async function webSecondStep(page: Page, askCode?: (login: PageAnswer) => Promise<string>): Promise<{ accessToken: string }> {
    const answer = await webSecondStepAnswer(page, askCode);
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return answer.json as { accessToken: string };
  }

  async function webSecondStepAnswer(page: Page, askCode?: (login: PageAnswer) => Promise<string>): Promise<PageAnswer> {
    const login = await fetchIn(page, 'POST', '/auth/login', ALICE);
    assert.equal(login.status, 200);
    assert.equal(login.json.mfaRequired, true, 'the password alone is not enough');
    const code = askCode ? await askCode(login) : '';
    const snippet = browserSnippet('integration-web.md', 0, '## Login with a second factor');
    return (await page.evaluate(
      `(async (login, code) => {
        ${snippet}
        const res = await secondStep(login, async () => code);
        return { status: res.status, json: await res.json() };
      })(${JSON.stringify(login.json)}, ${JSON.stringify(code)})`,
    )) as PageAnswer;
  }

  /** A copy of the authenticator's passkey on a new authenticator in a fresh browser context, its counter set to 0. */
  async function clone(from: VirtualAuthenticator): Promise<{ page: Page; problems: string[] }> {
    const { credentials } = await from.cdp.send('WebAuthn.getCredentials', { authenticatorId: from.authenticatorId });
    const [credential] = credentials;
    assert.ok(credential && credentials.length === 1);
    const context = await (browser as Browser).newContext();
    const copy = await newPage(context);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(copy.page);
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount: 0 } });
    return copy;
  }

  async function signCount(a: VirtualAuthenticator): Promise<number | undefined> {
    const { credentials } = await a.cdp.send('WebAuthn.getCredentials', { authenticatorId: a.authenticatorId });
    return credentials[0]?.signCount;
  }

  it('admin: on the try-it page a passkey is the second step, then logs in alone; a lagging clone is refused', async () => {
    await withApps(async (apps) => {
      const { page, problems } = await newPage(browser as Browser);
      const authenticator = await addVirtualAuthenticator(page);
      await tryItLogin(page, apps.admin);
      await page.click('#passkey-register:not([disabled])');
      await page.waitForSelector('#passkeys li');
      await logOut(page);
      const registered = (await signCount(authenticator)) ?? NaN;

      const second = await tryItLogin(page, apps.admin);
      assert.equal(await signCount(authenticator), registered + 1, 'the second step was signed by the passkey');
      const listed = await request(apps.admin).get('/auth/passkeys').set('Authorization', `Bearer ${second}`).expect(200);
      assert.notEqual(listed.body.data[0].lastUsedAt, null);
      await logOut(page);

      await page.click('#passkey-login');
      await statusIs(page, 'logged in with a passkey as admin');
      assert.equal(await signCount(authenticator), registered + 2);
      const token = (await page.textContent('#access-token')) ?? '';

      const copy = await clone(authenticator);
      await copy.page.goto(`${apps.admin}/`);
      await copy.page.waitForSelector('#login:not([disabled])');
      await copy.page.fill('#password', 'admin123');
      await copy.page.click('#login');
      await copy.page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('login refused: 40117') === true);
      assert.equal(await copy.page.textContent('#permissions'), '-');
      assert.deepEqual(copy.problems.filter(refusedLoad(401)), []);
      await copy.page.context().close();

      for (const p of listed.body.data as { id: string }[])
        await request(apps.admin).delete(`/auth/passkeys/${p.id}`).set('Authorization', `Bearer ${token}`).expect(204);
      assert.deepEqual(problems, []);
      await page.close();
    });
  });

  it("web: the docs' snippets take a passkey as second step, then log in with it alone; a lagging clone is refused", async () => {
    await withApps(async (apps) => {
      const { page, problems } = await newPage(browser as Browser);
      const authenticator = await addVirtualAuthenticator(page);
      await page.goto(`${apps.web}/problems/not-found`);
      const first = await fetchIn(page, 'POST', '/auth/login', ALICE);
      await page.evaluate(
        `(async (accessToken) => {\n${browserSnippet('integration-web.md')}\n})(${JSON.stringify(first.json.accessToken)})`,
      );
      const registered = (await signCount(authenticator)) ?? NaN;

      const second = await webSecondStep(page);
      assert.equal(await signCount(authenticator), registered + 1, 'the second step was signed by the passkey');
      const profile = await fetchIn(page, 'GET', '/user/profile', undefined, second.accessToken);
      assert.equal(profile.json.username, 'alice');

      const alone = (await page.evaluate(`(async () => {\n${browserSnippet('integration-web.md', 1)}\nreturn tokens;\n})()`)) as {
        accessToken: string;
      };
      assert.equal(await signCount(authenticator), registered + 2);

      const copy = await clone(authenticator);
      await copy.page.goto(`${apps.web}/problems/not-found`);
      const refused = await webSecondStepAnswer(copy.page);
      assert.equal(refused.status, 401);
      assert.equal(refused.json.code, 'passkey-invalid');
      assert.deepEqual(copy.problems.filter(refusedLoad(401)), []);
      await copy.page.context().close();

      const listed = await fetchIn(page, 'GET', '/auth/passkeys', undefined, alone.accessToken);
      for (const p of listed.json as { id: string }[])
        assert.equal((await fetchIn(page, 'DELETE', `/auth/passkeys/${p.id}`, undefined, alone.accessToken)).status, 204);
      const again = await request(apps.web).post('/auth/login').send(ALICE).expect(200);
      assert.equal(typeof again.body.accessToken, 'string', 'a password alone logs in again');
      assert.deepEqual(problems, []);
      await page.close();
    });
  });
});
