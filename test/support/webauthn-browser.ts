/**
 * A real browser for the passkey tests: chromium (playwright-core) with the DevTools virtual
 * authenticator (CDP `WebAuthn.addVirtualAuthenticator`: CTAP2, internal transport, resident keys,
 * user verification that succeeds), and the apps served on http://localhost:<port>, a secure
 * context whose origin is the only one its app accepts (svc.webauthn.admin-origins / web-origins, relying party `localhost`).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import type { Clock } from '../../src/application/ports/clock';
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

/** Both apps on ports of their own, each port's origin allowed for WebAuthn by its app; `clock` replaces the real one. */
export async function serveApps(overrides: Partial<Record<ConfigKey, unknown>> = {}, opts: { clock?: Clock } = {}): Promise<ServedApps> {
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
    'svc.webauthn.admin-origins': [admin],
    'svc.webauthn.web-origins': [web],
    ...overrides,
  });
  const infra = testInfra(config, { label: 'passkeys-browser', ...(opts.clock ? { clock: opts.clock } : {}) });
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

/** The `n`th ```js block of an integration doc's section (`heading` as written, e.g. `## Passkeys`). */
export function browserSnippet(doc: string, n = 0, heading = '## Passkeys'): string {
  const text = readFileSync(path.join(__dirname, '../../docs', doc), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${doc} has no section "${heading}"`);
  const next = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, next < 0 ? undefined : next);
  const blocks = [...section.matchAll(/```js\n([\s\S]*?)\n```/g)].map((m) => m[1] as string);
  const block = blocks[n];
  if (block === undefined) throw new Error(`${doc} has no browser snippet ${n} under "${heading}"`);
  return block;
}

/** An answer read in the page: its status and parsed JSON body (null when empty). */
export interface PageAnswer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the apps' JSON, checked by each test
  readonly json: any;
}

/** A same-origin `fetch` run in `page` (as a front end on the app's origin makes it), with an optional bearer token. */
export async function fetchIn(page: Page, method: string, url: string, body?: unknown, token?: string): Promise<PageAnswer> {
  return page.evaluate(
    async ([m, u, b, t]) => {
      const headers: Record<string, string> = {};
      if (b !== undefined) headers['Content-Type'] = 'application/json';
      if (t !== undefined) headers.Authorization = `Bearer ${t}`;
      const res = await fetch(u, { method: m, headers, body: b === undefined ? undefined : JSON.stringify(b) });
      const text = await res.text();
      return { status: res.status, json: text === '' ? null : (JSON.parse(text) as unknown) };
    },
    [method, url, body, token] as const,
  );
}
