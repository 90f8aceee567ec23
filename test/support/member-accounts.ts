/**
 * Helpers of the HTTP tests of members' e-mail verification and password reset: the web app on the
 * memory or the Redis store with a clock the test moves, the messages its embedded mailbox kept,
 * and the RFC 9457 checks every refusal must pass.
 */
import assert from 'node:assert/strict';
import type Koa from 'koa';
import request from 'supertest';
import { ERROR_CATALOGUE } from '../../src/adapters/koa/error-catalogue';
import { BackgroundWork } from '../../src/application/shared/background-work';
import type { AppConfig, ConfigKey } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type StoreKind, type TestInfra } from './apps';
import { FakeClock } from './fake-clock';

export interface MemberTestbed {
  readonly infra: TestInfra;
  readonly config: AppConfig;
  readonly web: Koa;
  readonly clock: FakeClock;
  /** Resolves once the work the routes left for after their answers is done. */
  settle(): Promise<void>;
}

export function memberTestbed(kind: StoreKind, label: string, overrides: Partial<Record<ConfigKey, unknown>> = {}): MemberTestbed {
  const clock = new FakeClock(Date.now());
  // supertest connects from loopback: trusting it lets each test pick its client IP with X-Forwarded-For
  const config = testConfig(
    { 'svc.time-zone': 'UTC', 'svc.crypto.worker-threads': 2, 'svc.trusted-proxies': '127.0.0.1,::1', ...overrides },
    kind,
  );
  const infra = testInfra(config, { clock, label });
  const built = buildBoth(config, infra);
  const background = built.web.container.get(BackgroundWork);
  return { infra, config, web: built.web.app, clock, settle: () => background.idle() };
}

export const post = (app: Koa, path: string, ip: string) => request(app.callback()).post(path).set('X-Forwarded-For', ip);
export const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

export interface Mail {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/** What reads the messages sent: the infrastructure's embedded mailbox. */
export interface Mailbox {
  readonly mailbox: { list(): readonly Mail[] } | null;
}

/** The messages the embedded mailbox holds for `to` (compared without regard to case), newest first. */
export function mailsTo(infra: Mailbox, to: string): Mail[] {
  assert.ok(infra.mailbox, 'the test profile keeps messages in the embedded mailbox');
  return infra.mailbox.list().filter((m) => m.to.toLowerCase() === to.toLowerCase());
}

/** The six-digit code of the newest verification message to `to`. */
export function codeFor(infra: Mailbox, to: string): string {
  const [newest] = mailsTo(infra, to);
  const m = /verification code is (\d{6})\./.exec(newest?.text ?? '');
  assert.ok(m?.[1], `no verification code mailed to ${to}`);
  return m[1];
}

/** The token of the newest reset link mailed to `to`. */
export function resetTokenFor(infra: Mailbox, to: string): string {
  const [newest] = mailsTo(infra, to);
  const m = /[?&]token=([A-Za-z0-9_-]{43})\b/.exec(newest?.text ?? '');
  assert.ok(m?.[1], `no reset link mailed to ${to}`);
  return m[1];
}

/** Parses a problem answer and checks the RFC 9457 members every web error carries. */
export function problem(res: request.Response, status: number, code: string): Record<string, unknown> {
  assert.equal(res.status, status, `${res.status} ${res.text.slice(0, 300)}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.equal(body.title, ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].title);
  assert.ok(typeof body.detail === 'string' && body.detail.length > 0);
  return body;
}
