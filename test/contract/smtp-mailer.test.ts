/**
 * The SMTP mailer (nodemailer) against a real SMTP server started here (test/support/smtp-server.ts):
 * the Mailer contract with AUTH from the URL, STARTTLS and smtps with a self-signed certificate, and
 * what happens when the server refuses, is down or hangs: the send rejects within the timeout, and
 * DeliverMail resolves, counts the outcome and logs neither the password nor the body.
 */
import assert from 'node:assert/strict';
import { SmtpMailer, smtpTransportOptions } from '../../src/adapters/mail/smtp-mailer';
import { PromMetrics } from '../../src/adapters/metrics/prom-metrics';
import { DeliverMail } from '../../src/application/mail/deliver-mail';
import type { AccountSettings } from '../../src/application/users/account-settings';
import { sample } from '../support/prometheus';
import { recordingLogger } from '../support/recording-logger';
import { freePort } from '../support/redis-server';
import { selfSignedCertificate, startSilentServer, startSmtpServer, type TestSmtpServer } from '../support/smtp-server';
import { describeMailerContract } from './mailer.contract';

const FROM = 'authguard <no-reply@example.com>';
const MESSAGE = { to: 'alice@example.com', subject: 'Verify your e-mail', text: 'Your code is 482913.' };

/** A mailer on `url` that trusts the test certificate; closed by the caller. */
const mailerFor = (url: string, timeoutMs = 2_000, trust = true): SmtpMailer =>
  new SmtpMailer({ url, from: FROM, timeoutMs, ...(trust ? { trustedCa: selfSignedCertificate().cert } : {}) });

for (const tls of ['none', 'starttls', 'implicit'] as const) {
  describeMailerContract(`SMTP (${tls === 'none' ? 'plain' : tls === 'starttls' ? 'STARTTLS' : 'smtps'}, AUTH from the URL)`, async () => {
    const server = await startSmtpServer({ tls });
    const mailer = mailerFor(server.url);
    return {
      mailer,
      from: FROM,
      arrived: () => server.received,
      cleanup: async () => {
        await mailer.close();
        await server.close();
      },
    };
  });
}

describe('SmtpMailer', () => {
  let server: TestSmtpServer | undefined;
  let mailer: SmtpMailer | undefined;
  afterEach(async () => {
    await mailer?.close();
    await server?.close();
    mailer = server = undefined;
  });

  it('upgrades with STARTTLS when the server offers it: the message travels encrypted', async () => {
    server = await startSmtpServer({ tls: 'starttls' });
    assert.match(server.url, /^smtp:\/\//);
    mailer = mailerFor(server.url);
    await mailer.send(MESSAGE);
    assert.equal(server.received[0]?.secure, true);
  });

  it('sends in the clear when the server offers no STARTTLS (smtp://), and over TLS from the start with smtps://', async () => {
    server = await startSmtpServer({ tls: 'none' });
    mailer = mailerFor(server.url);
    await mailer.send(MESSAGE);
    assert.equal(server.received[0]?.secure, false);
    await mailer.close();
    await server.close();
    server = await startSmtpServer({ tls: 'implicit' });
    mailer = mailerFor(server.url);
    await mailer.send(MESSAGE);
    assert.equal(server.received[0]?.secure, true);
  });

  it("checks the server's certificate: an untrusted one is refused and nothing is sent", async () => {
    server = await startSmtpServer({ tls: 'starttls' });
    mailer = mailerFor(server.url, 2_000, false);
    await assert.rejects(mailer.send(MESSAGE), /certificate/i);
    assert.equal(server.received.length, 0);
  });

  it('a wrong password rejects, and the error does not carry the password', async () => {
    server = await startSmtpServer({ pass: 'the-right-one' });
    const wrong = 'wr0ng-S3cret%pass';
    mailer = mailerFor(`smtp://mailer:${encodeURIComponent(wrong)}@127.0.0.1:${server.port}`);
    const err = await mailer.send(MESSAGE).then(
      () => assert.fail('sent with a wrong password'),
      (e: Error) => e,
    );
    assert.match(err.message, /^SMTP EAUTH: /);
    assert.ok(!err.message.includes(wrong) && !err.message.includes(encodeURIComponent(wrong)), err.message);
    assert.equal(server.authFailures, 1);
    assert.equal(server.received.length, 0);
  });

  it('a server that is down: send rejects at once', async () => {
    mailer = mailerFor(`smtp://mailer:pw@127.0.0.1:${await freePort()}`, 1_000);
    const started = Date.now();
    await assert.rejects(mailer.send(MESSAGE), /^Error: SMTP E[A-Z]+: .*ECONNREFUSED/);
    assert.ok(Date.now() - started < 1_000, `${Date.now() - started} ms`);
  });

  it('a server that accepts but never greets: send rejects within the timeout', async () => {
    const silent = await startSilentServer();
    try {
      mailer = mailerFor(`smtp://mailer:pw@127.0.0.1:${silent.port}`, 300);
      const started = Date.now();
      await assert.rejects(mailer.send(MESSAGE), /SMTP ETIMEDOUT/);
      const took = Date.now() - started;
      assert.ok(took >= 250 && took < 1_500, `${took} ms`);
    } finally {
      await silent.close();
    }
  });
});

describe('SMTP URL', () => {
  it('reads host, port, TLS mode and percent-encoded credentials; the timeouts are svc.mail.timeout-ms', () => {
    const o = smtpTransportOptions({ url: 'smtp://us%40er:p%3Ass%2Fw@mail.example.com:2525', from: FROM, timeoutMs: 1234 });
    assert.deepEqual([o.host, o.port, o.secure, o.auth], ['mail.example.com', 2525, false, { user: 'us@er', pass: 'p:ss/w' }]);
    assert.deepEqual([o.connectionTimeout, o.greetingTimeout, o.socketTimeout], [1234, 1234, 1234]);
    assert.equal(o.logger, false, "nodemailer's own log (the AUTH exchange) stays off");
    const smtps = smtpTransportOptions({ url: 'smtps://mail.example.com', from: FROM, timeoutMs: 1000 });
    assert.deepEqual([smtps.port, smtps.secure, smtps.auth], [465, true, undefined]);
    assert.equal(smtpTransportOptions({ url: 'smtp://[::1]', from: FROM, timeoutMs: 1000 }).host, '::1');
    assert.equal(smtpTransportOptions({ url: 'smtp://h', from: FROM, timeoutMs: 1000 }).port, 587);
  });
});

describe('DeliverMail over SMTP: a failure or a slow server never fails the caller', () => {
  const PASSWORD = 'Sm7p-pa55word-in-the-url';
  const settings = (mailTimeoutMs: number): AccountSettings => ({ mailTimeoutMs }) as Partial<AccountSettings> as AccountSettings;

  async function deliver(url: string, mailerTimeoutMs: number, deliverTimeoutMs: number) {
    const log = recordingLogger();
    const metrics = new PromMetrics({ app: 'test' });
    const mailer = mailerFor(url, mailerTimeoutMs);
    try {
      await new DeliverMail(mailer, log, metrics, settings(deliverTimeoutMs)).send('verify-email', MESSAGE);
    } finally {
      await mailer.close();
    }
    const text = (await metrics.exposition()).body;
    const outcome = (o: string) => sample(text, 'authguard_mail_total', { app: 'test', kind: 'verify-email', outcome: o });
    return { log, outcome };
  }

  function assertNothingSecret(lines: ReadonlyArray<{ obj: object; msg?: string }>): void {
    assert.ok(lines.length > 0, 'the failure was logged');
    for (const line of lines) {
      const logged = JSON.stringify(line);
      for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), '482913', MESSAGE.text, MESSAGE.to])
        assert.ok(!logged.includes(secret), `logged ${secret}: ${logged}`);
    }
  }

  it('server down: resolves, counts failed, logs a warning without the password, the body or the recipient', async () => {
    const { log, outcome } = await deliver(`smtp://mailer:${PASSWORD}@127.0.0.1:${await freePort()}`, 1_000, 1_000);
    assert.equal(outcome('failed'), 1);
    assert.equal(outcome('sent'), undefined);
    assert.deepEqual(
      log.lines.map((l) => l.level),
      ['warn'],
    );
    assertNothingSecret(log.lines);
  });

  it('wrong password: counts failed; the logged error carries neither password', async () => {
    const server = await startSmtpServer({ pass: 'another-password' });
    try {
      const { log, outcome } = await deliver(`smtp://mailer:${PASSWORD}@127.0.0.1:${server.port}`, 1_000, 1_000);
      assert.equal(outcome('failed'), 1);
      assertNothingSecret(log.lines);
      assert.ok(!JSON.stringify(log.lines).includes('another-password'));
    } finally {
      await server.close();
    }
  });

  it('a server slower than svc.mail.timeout-ms: resolves after the timeout, counts timeout', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const { log, outcome } = await deliver(`smtp://mailer:${PASSWORD}@127.0.0.1:${silent.port}`, 5_000, 150);
      assert.ok(Date.now() - started < 1_000, `${Date.now() - started} ms`);
      assert.equal(outcome('timeout'), 1);
      assertNothingSecret(log.lines);
    } finally {
      await silent.close();
    }
  });

  it('a server that accepts: counts sent, logs nothing', async () => {
    const server = await startSmtpServer({ pass: PASSWORD });
    try {
      const { log, outcome } = await deliver(server.url, 1_000, 1_000);
      assert.equal(outcome('sent'), 1);
      assert.deepEqual(log.lines, []);
      assert.equal(server.received[0]?.text.trim(), MESSAGE.text);
    } finally {
      await server.close();
    }
  });
});
