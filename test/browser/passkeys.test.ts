/**
 * Passkeys in a real browser: chromium with the DevTools virtual authenticator (CTAP2, internal
 * transport, resident keys, user verification) registers passkeys on both apps, served on
 * http://localhost:<port>: on admin through the try-it page, on web with the browser snippet of
 * docs/integration-web.md run on the app's own origin.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';
import { addVirtualAuthenticator, newPage, serveApps, type ServedApps } from '../support/webauthn-browser';

// The page functions passed to waitForFunction run in the browser (the project's tsconfig has no DOM lib).
declare const document: {
  getElementById(id: string): { textContent: string | null } | null;
  querySelector(s: string): { textContent: string | null } | null;
};

/** The first ```js block after `## Passkeys` in an integration doc. */
function browserSnippet(doc: string): string {
  const text = readFileSync(path.join(__dirname, '../../docs', doc), 'utf8');
  const section = text.slice(text.indexOf('\n## Passkeys'));
  const m = /```js\n([\s\S]*?)\n```/.exec(section);
  if (!m?.[1]) throw new Error(`${doc} has no browser snippet under "## Passkeys"`);
  return m[1];
}

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
      assert.equal(Buffer.from(credential?.userHandle ?? '', 'base64').toString(), '1', 'the user handle is the user id');
      const listed = await request(apps.admin).get('/auth/passkeys').set('Authorization', `Bearer ${token}`).expect(200);
      const passkeys = listed.body.data as { id: string; name: string; lastUsedAt: string | null }[];
      assert.deepEqual(
        passkeys.map((p) => [p.name, p.lastUsedAt]),
        [['CI laptop', null]],
      );
      assert.equal(passkeys[0]?.id, Buffer.from(credential?.credentialId ?? '', 'base64').toString('base64url'));
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
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
