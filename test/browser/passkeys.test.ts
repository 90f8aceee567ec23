/**
 * Passkeys in a real browser: chromium with the DevTools virtual authenticator (CTAP2, internal
 * transport, resident keys, user verification) registers passkeys on both apps, served on
 * http://localhost:<port>, and logs in with them alone: on admin through the try-it page, on web
 * with the browser snippets of docs/integration-web.md run on the app's own origin. A copy of the
 * credential on a second authenticator whose counter lags behind (a clone) is refused.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import request from 'supertest';
import { userHandleOf } from '../../src/application/mfa/passkeys';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';
import { addVirtualAuthenticator, browserSnippet, newPage, serveApps, type ServedApps } from '../support/webauthn-browser';

// The page functions passed to waitForFunction run in the browser (the project's tsconfig has no DOM lib).
declare const document: {
  getElementById(id: string): { textContent: string | null } | null;
  querySelector(s: string): { textContent: string | null } | null;
};

describe('passkeys in chromium with a virtual authenticator', function () {
  this.timeout(60000);
  let browser: Browser | undefined;
  let apps: ServedApps;

  before(async function () {
    requireChromium(this);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    apps = await serveApps();
  });
  after(async () => {
    await browser?.close();
    await apps?.close();
  });

  /**
   * A passkey makes alice's password login ask for it as a second factor: each web test removes
   * what it registered (on a fresh session, so step-up passes), leaving the next one a password login.
   */
  async function removePasskeys(token: string): Promise<void> {
    const listed = await request(apps.web).get('/auth/passkeys').set('Authorization', `Bearer ${token}`).expect(200);
    for (const p of listed.body as { id: string }[]) {
      await request(apps.web).delete(`/auth/passkeys/${p.id}`).set('Authorization', `Bearer ${token}`).expect(204);
    }
  }

  async function adminLoginOnTryIt(page: Page): Promise<string> {
    await page.goto(`${apps.admin}/`);
    await page.waitForSelector('#login:not([disabled])');
    await page.fill('#username', 'admin');
    await page.fill('#password', 'admin123');
    await page.click('#login');
    await page.waitForFunction(() => document.getElementById('permissions')?.textContent === '*:*:*');
    return (await page.textContent('#access-token')) ?? '';
  }

  it('admin: the try-it page registers a passkey of this browser and lists it', async () => {
    const { page, problems } = await newPage(browser as Browser);
    try {
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
      const token = await adminLoginOnTryIt(page);
      await page.fill('#passkey-name', 'CI laptop');
      await page.click('#passkey-register:not([disabled])');
      await page.waitForFunction(() => document.querySelector('#passkeys li')?.textContent?.startsWith('CI laptop (created ') === true);

      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(credentials.length, 1);
      const [credential] = credentials;
      assert.equal(credential?.isResidentCredential, true, 'a discoverable credential');
      assert.equal(credential?.rpId, 'localhost');
      assert.equal(
        Buffer.from(credential?.userHandle ?? '', 'base64').toString('base64url'),
        userHandleOf('admin', '1'),
        "the user handle is the login type's and id's hash",
      );
      const listed = await request(apps.admin).get('/auth/passkeys').set('Authorization', `Bearer ${token}`).expect(200);
      const passkeys = listed.body.data as { id: string; name: string; lastUsedAt: string | null }[];
      assert.deepEqual(
        passkeys.map((p) => [p.name, p.lastUsedAt]),
        [['CI laptop', null]],
      );
      assert.equal(passkeys[0]?.id, Buffer.from(credential?.credentialId ?? '', 'base64').toString('base64url'));
      // The next test's password login must not ask for this browser's passkey as a second factor.
      for (const p of passkeys) {
        await request(apps.admin).delete(`/auth/passkeys/${p.id}`).set('Authorization', `Bearer ${token}`).expect(204);
      }
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it("web: the docs' browser snippet registers a passkey on the app's origin", async () => {
    const { page, problems } = await newPage(browser as Browser);
    try {
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
      const login = await request(apps.web).post('/auth/login').send({ username: 'alice', password: 'alice-pass-123' }).expect(200);
      const token = login.body.accessToken as string;
      await page.goto(`${apps.web}/problems/not-found`);
      await page.evaluate(`(async (accessToken) => {\n${browserSnippet('integration-web.md')}\n})(${JSON.stringify(token)})`);

      const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
      assert.equal(credentials.length, 1);
      const listed = await request(apps.web).get('/auth/passkeys').set('Authorization', `Bearer ${token}`).expect(200);
      assert.deepEqual(
        (listed.body as { name: string }[]).map((p) => p.name),
        ['Work laptop'],
      );
      await removePasskeys(token);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  /** The credential of an authenticator, copied onto a new one in a fresh browser context, its counter set to `signCount`. */
  async function cloneOnto(
    from: { cdp: CDPSession; authenticatorId: string },
    signCount: number,
  ): Promise<{ page: Page; problems: string[] }> {
    const { credentials } = await from.cdp.send('WebAuthn.getCredentials', { authenticatorId: from.authenticatorId });
    const [credential] = credentials;
    assert.ok(credential);
    const context = await (browser as Browser).newContext();
    const clone = await newPage(context);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(clone.page);
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential, signCount } });
    return clone;
  }

  it('admin: logs in with the passkey alone on the try-it page; a clone whose counter lags behind is refused', async () => {
    const { page, problems } = await newPage(browser as Browser);
    try {
      const authenticator = await addVirtualAuthenticator(page);
      await adminLoginOnTryIt(page);
      await page.click('#passkey-register:not([disabled])');
      await page.waitForFunction(() => document.querySelector('#passkeys li') !== null);
      await page.click('#logout');
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'logged out');

      await page.click('#passkey-login');
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'logged in with a passkey as admin');
      assert.equal(await page.textContent('#permissions'), '*:*:*');
      const token = (await page.textContent('#access-token')) ?? '';
      await request(apps.admin).get('/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      assert.deepEqual(problems, []);

      const clone = await cloneOnto(authenticator, 0);
      try {
        await clone.page.goto(`${apps.admin}/`);
        await clone.page.click('#passkey-login');
        await clone.page.waitForFunction(
          () => document.getElementById('status')?.textContent?.startsWith('passkey login refused') === true,
        );
        assert.match((await clone.page.textContent('#output')) ?? '', /"code": 40117/);
      } finally {
        await clone.page.context().close();
      }
      // the same copy with a counter ahead of the stored one is accepted: the counter is what refused it
      const ahead = await cloneOnto(authenticator, 100);
      try {
        await ahead.page.goto(`${apps.admin}/`);
        await ahead.page.click('#passkey-login');
        await ahead.page.waitForFunction(() => document.getElementById('status')?.textContent === 'logged in with a passkey as admin');
      } finally {
        await ahead.page.context().close();
      }
    } finally {
      await page.close();
    }
  });

  it("web: the docs' passwordless snippet logs in on the app's origin", async () => {
    const { page, problems } = await newPage(browser as Browser);
    try {
      await addVirtualAuthenticator(page);
      const login = await request(apps.web).post('/auth/login').send({ username: 'alice', password: 'alice-pass-123' }).expect(200);
      await page.goto(`${apps.web}/problems/not-found`);
      await page.evaluate(
        `(async (accessToken) => {\n${browserSnippet('integration-web.md')}\n})(${JSON.stringify(login.body.accessToken)})`,
      );
      const tokens = (await page.evaluate(`(async () => {\n${browserSnippet('integration-web.md', 1)}\nreturn tokens;\n})()`)) as {
        accessToken: string;
      };
      const profile = await request(apps.web).get('/user/profile').set('Authorization', `Bearer ${tokens.accessToken}`).expect(200);
      assert.equal(profile.body.username, 'alice');
      await removePasskeys(tokens.accessToken);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
