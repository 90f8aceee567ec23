/**
 * A real browser for the passkey tests: chromium (playwright-core) with the DevTools virtual
 * authenticator (CDP `WebAuthn.addVirtualAuthenticator`: CTAP2, internal transport, resident keys,
 * user verification that succeeds), and the apps served on http://localhost:<port>, a secure
 * context whose origin is the only one in svc.webauthn.origins (relying party `localhost`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { ConfigKey } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type TestInfra } from './apps';

export interface ServedApps {
  /** http://localhost:<port> of each app. */
  readonly admin: string;
  readonly web: string;
  readonly infra: TestInfra;
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

/** Both apps on ports of their own, each port's origin allowed for WebAuthn. */
export async function serveApps(overrides: Partial<Record<ConfigKey, unknown>> = {}): Promise<ServedApps> {
  const handlers: { admin?: http.RequestListener; web?: http.RequestListener } = {};
  const adminServer = http.createServer((req, res) => handlers.admin?.(req, res));
  const webServer = http.createServer((req, res) => handlers.web?.(req, res));
  const [adminPort, webPort] = [await listen(adminServer), await listen(webServer)];
  const admin = `http://localhost:${adminPort}`;
  const web = `http://localhost:${webPort}`;
  const config = testConfig({
    'svc.try-it.enabled': true,
    'svc.crypto.worker-threads': 1,
    'svc.webauthn.rp-id': 'localhost',
    'svc.webauthn.origins': [admin, web],
    ...overrides,
  });
  const infra = testInfra(config, { label: 'passkeys-browser' });
  const built = buildBoth(config, infra);
  handlers.admin = built.admin.app.callback();
  handlers.web = built.web.app.callback();
  return {
    admin,
    web,
    infra,
    async close() {
      await Promise.all([adminServer, webServer].map((s) => new Promise((r) => s.close(r))));
      await infra.dispose();
    },
  };
}

export interface VirtualAuthenticator {
  readonly cdp: CDPSession;
  readonly authenticatorId: string;
}

/** A platform authenticator in `page`'s browser, as a phone or laptop has: resident keys, user verification. */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** A page whose script errors are collected (CSP violations included). */
export async function newPage(browser: Browser | BrowserContext): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  // the problem pages name no icon: the browser's own favicon request would log a 404
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems };
}
