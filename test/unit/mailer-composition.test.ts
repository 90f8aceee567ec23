/**
 * Which mailer a process gets (src/main/mailer.ts), one per process and shared by both apps:
 * svc.mail.smtp-url set, SMTP in any profile; unset, the embedded mailbox in dev and test, and
 * in prod an unavailable mailer (with a start warning, config-prod-warnings.test.ts).
 */
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/adapters/logging/pino-logger';
import { MemoryMailbox } from '../../src/adapters/mail/memory-mailbox';
import { SmtpMailer } from '../../src/adapters/mail/smtp-mailer';
import { UnavailableMailer } from '../../src/adapters/mail/unavailable-mailer';
import { DeliverMail } from '../../src/application/mail/deliver-mail';
import { TOKENS } from '../../src/application/tokens';
import { loadConfig, type AppConfig } from '../../src/main/config';
import { createMailer } from '../../src/main/mailer';
import { buildBoth, testConfig, testInfra } from '../support/apps';
import { emptyConfigDir } from '../support/config-problems';
import { FakeClock } from '../support/fake-clock';
import { prodEnv } from '../support/prod-env';
import { startSmtpServer } from '../support/smtp-server';

const SMTP_URL = 'smtp://mailer:smtp-password@127.0.0.1:2525';
const deps = { log: silentLogger, clock: new FakeClock() };
const load = (env: Record<string, string>): AppConfig => loadConfig({ env, configDir: emptyConfigDir() });

describe('the process mailer', () => {
  it('no svc.mail.smtp-url: the embedded mailbox in dev and test, an unavailable mailer in prod', async () => {
    for (const profile of ['dev', 'test']) {
      const { mailer, mailbox, close } = createMailer(load({ APP_PROFILE: profile }), deps);
      assert.ok(mailer instanceof MemoryMailbox, profile);
      assert.equal(mailbox, mailer, 'the mailbox is the mailer');
      await close();
    }
    const prod = createMailer(load(prodEnv()), deps);
    assert.ok(prod.mailer instanceof UnavailableMailer);
    assert.equal(prod.mailer.available, false);
    assert.equal(prod.mailbox, null);
  });

  it('svc.mail.smtp-url set: SMTP in every profile, and no mailbox', async () => {
    for (const env of [{ APP_PROFILE: 'dev' }, { APP_PROFILE: 'test' }, prodEnv()]) {
      const { mailer, mailbox, close } = createMailer(load({ ...env, SVC_MAIL_SMTP_URL: SMTP_URL }), deps);
      assert.ok(mailer instanceof SmtpMailer, env.APP_PROFILE);
      assert.equal(mailbox, null);
      await close();
    }
  });

  it("both apps' containers share the infrastructure's mailer, which DeliverMail sends through", async () => {
    const config = testConfig();
    const infra = testInfra(config, { label: 'mailer' });
    try {
      const apps = buildBoth(config, infra);
      assert.ok(infra.mailbox instanceof MemoryMailbox);
      assert.equal(apps.admin.container.get(TOKENS.Mailer), infra.mailer);
      assert.equal(apps.web.container.get(TOKENS.Mailer), infra.mailer);
      await apps.web.container.get(DeliverMail).send('verify-email', { to: 'm@example.com', subject: 'Verify', text: 'code' });
      assert.deepEqual(
        infra.mailbox.list().map((m) => [m.to, m.from]),
        [['m@example.com', config.raw['svc.mail.from']]],
      );
    } finally {
      await infra.dispose();
    }
  });

  it('with svc.mail.smtp-url, DeliverMail reaches that server from svc.mail.from; close() closes the connection', async () => {
    const server = await startSmtpServer();
    const config = testConfig({ 'svc.mail.smtp-url': server.url, 'svc.mail.from': 'Example <auth@example.com>' });
    const infra = testInfra(config, { label: 'mailer-smtp' });
    try {
      const { web } = buildBoth(config, infra);
      await web.container.get(DeliverMail).send('reset-password', { to: 'm@example.com', subject: 'Reset', text: 'link' });
      assert.deepEqual(
        server.received.map((m) => [m.from, m.to, m.subject]),
        [['Example <auth@example.com>', 'm@example.com', 'Reset']],
      );
      assert.equal(await server.openConnections(), 1, 'the pooled connection stays open for the next message');
      await infra.close();
      const deadline = Date.now() + 2_000;
      while ((await server.openConnections()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(await server.openConnections(), 0, 'closed at shutdown');
    } finally {
      await infra.dispose();
      await server.close();
    }
  });
});
