/**
 * Issue 28, "How it is shown": a small SPA page shipped with the tests (test/browser/spa, never with the service) logs
 * in through the admin app in a real browser, fetches GET /auth/routes, builds vue-router-style route records from
 * it and uses them: the menu shows what the account may see, a page opens by its path with the buttons its
 * meta.auths allow, and a revalidation with the ETag answers 304. The page and the API share one origin (the test's
 * server hands /spa/* to the page's files and everything else to the admin app), as an SPA behind its proxy does.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildAdminApp } from '../../src/main/admin';
import { testConfig, testInfra, type TestInfra } from '../support/apps';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';

// The page functions passed to evaluate run in the browser (the project's tsconfig has no DOM lib).
declare const document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null; textContent: string | null }> };
declare const window: { spa: { open(path: string): Promise<void>; revalidated: number } };

const PAGE_DIR = path.join(__dirname, 'spa');
const PAGE_FILES: Readonly<Record<string, string>> = { '/spa/': 'index.html', '/spa/spa.js': 'spa.js' };

describe('an SPA builds its routes from GET /auth/routes (chromium)', function () {
  this.timeout(60000);
  let browser: Browser | undefined;
  let infra: TestInfra;
  let server: http.Server;
  let base: string;

  before(async function () {
    requireChromium(this);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const config = testConfig({ 'svc.crypto.worker-threads': 1 });
    infra = testInfra(config, { label: 'spa-browser' });
    const api = buildAdminApp(config, infra).app.callback();
    server = http.createServer((req, res) => {
      if (req.url === '/favicon.ico') return void res.writeHead(204).end(); // the page has none
      const file = PAGE_FILES[req.url ?? ''];
      if (file === undefined) return void api(req, res);
      res.setHeader('Content-Type', file.endsWith('.js') ? 'text/javascript' : 'text/html; charset=utf-8');
      res.end(readFileSync(path.join(PAGE_DIR, file)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
    await infra?.dispose();
  });

  async function logIn(username: string, password: string): Promise<{ page: Page; problems: string[] }> {
    const page = await (browser as Browser).newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(`${base}/spa/`);
    await page.fill('#username', username);
    await page.fill('#password', password);
    await page.click('#submit');
    await page.waitForFunction(() => /^(ready|error)/.test(document.querySelectorAll('#status')[0]?.textContent ?? ''));
    return { page, problems };
  }

  const menuOf = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll('#menu li')).map((li) => `${li.getAttribute('data-depth')} ${li.getAttribute('data-path')}`),
    );

  const opened = async (page: Page, target: string) => {
    await page.evaluate((p) => window.spa.open(p), target);
    return page.evaluate(() => ({
      view: document.querySelectorAll('#page h1')[0]?.getAttribute('data-view') ?? null,
      title: document.querySelectorAll('#page h1')[0]?.textContent ?? document.querySelectorAll('#page')[0]?.textContent ?? null,
      buttons: Array.from(document.querySelectorAll('#page button.auth')).map((b) => b.getAttribute('data-auth')),
    }));
  };

  it('admin: the whole menu; a page opens with every button; the revalidation is 304', async () => {
    const { page, problems } = await logIn('admin', 'admin123');
    try {
      assert.match((await page.textContent('#status')) ?? '', /^ready \(2 top-level routes, revalidation 304\)/);
      assert.deepEqual(await menuOf(page), [
        '0 /system',
        '1 /system/user',
        '1 /system/role',
        '1 /system/menu',
        '0 /monitor',
        '1 /monitor/online',
        '1 /monitor/login-logs',
        '1 /monitor/operation-logs',
      ]);
      assert.deepEqual(await opened(page, '/system/role'), {
        view: 'system/role/index',
        title: 'System / Roles',
        buttons: ['add', 'edit', 'remove'],
      });
      const viaDirectory = await opened(page, '/monitor');
      assert.equal(viaDirectory.view, 'monitor/online/index', 'a directory redirects to its first page');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });

  it('viewer: only the pages its permissions open, and no button', async () => {
    const { page, problems } = await logIn('viewer', 'viewer123');
    try {
      assert.deepEqual(await menuOf(page), ['0 /system', '1 /system/user', '0 /monitor', '1 /monitor/online']);
      assert.deepEqual(await opened(page, '/system/user'), { view: 'system/user/index', title: 'System / Users', buttons: [] });
      assert.equal((await opened(page, '/system/role')).title, 'no route for /system/role');
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
