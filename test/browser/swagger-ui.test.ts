/**
 * Issue 6, "Done when": /swagger-ui renders in dev — in a real browser, under the app's CSP,
 * from swagger-ui-dist served same-origin, showing the operations of /v3/api-docs.
 */
import 'reflect-metadata';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';
import { CHROMIUM, CHROMIUM_ARGS, requireChromium } from '../support/browser';

describe('Swagger UI in chromium (playwright-core)', function () {
  this.timeout(60000);
  let browser: Browser | undefined;
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;

  before(async function () {
    requireChromium(this);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const config = testConfig({ 'svc.crypto.worker-threads': 1 });
    infra = testInfra(config, { label: 'swagger-ui' });
    apps = buildBoth(config, infra);
  });
  after(async () => {
    await browser?.close();
    await infra?.dispose();
  });

  for (const name of ['admin', 'web'] as const) {
    it(`${name}: renders the API's operations with no script error or CSP violation`, async () => {
      const server = http.createServer(apps[name].app.callback());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const page = await (browser as Browser).newPage();
      const problems: string[] = [];
      const outside: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(m.text());
      });
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('request', (r) => {
        if (!r.url().startsWith(base)) outside.push(r.url());
      });
      try {
        await page.goto(`${base}/swagger-ui`);
        await page.waitForSelector('.opblock-summary-path', { timeout: 20000 });
        const paths = await page.$$eval('.opblock-summary-path', (els) =>
          els.map((e) => (e as unknown as { textContent: string | null }).textContent ?? ''),
        );
        const expected = name === 'admin' ? '/auth/login' : '/auth/register';
        assert.ok(
          paths.some((p) => p.replace(/\u200b/g, '') === expected),
          `${expected} among ${paths.length} operations`,
        );
        assert.deepEqual(problems, []);
        assert.deepEqual(outside, [], 'everything is served same-origin (no CDN)');
      } finally {
        await page.close();
        await new Promise((r) => server.close(r));
      }
    });
  }
});
