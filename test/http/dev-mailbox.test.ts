/**
 * `GET /dev/mailbox` on the web app: the embedded mailbox's messages, newest first, shared by both
 * apps of the process. Mounted in dev and test while the mailbox is the mailer; not with an SMTP
 * server, and never in prod (test/reliability/prod-start.test.ts: 404 there).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { DeliverMail } from '../../src/application/mail/deliver-mail';
import { loadConfig } from '../../src/main/config';
import { buildBoth, testConfig, testInfra, type TestInfra } from '../support/apps';

describe('GET /dev/mailbox (web, dev and test, embedded mailbox)', () => {
  let infra: TestInfra;
  let apps: ReturnType<typeof buildBoth>;
  beforeEach(() => {
    const config = testConfig();
    infra = testInfra(config, { label: 'dev-mailbox' });
    apps = buildBoth(config, infra);
  });
  afterEach(async () => infra?.dispose());

  it('lists nothing before a message is sent', async () => {
    const res = await request(apps.web.app.callback()).get('/dev/mailbox').expect(200);
    assert.match(res.headers['content-type'] ?? '', /^application\/json/);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.deepEqual(res.body, []);
  });

  it("lists the messages either app sent, newest first, whole (the body's code included)", async () => {
    await apps.web.container.get(DeliverMail).send('verify-email', { to: 'alice@example.com', subject: 'Verify', text: 'code 482913' });
    await apps.admin.container
      .get(DeliverMail)
      .send('reset-password', { to: 'bob@example.com', subject: 'Reset', text: 'open the link', html: '<a href="x">link</a>' });
    const res = await request(apps.web.app.callback()).get('/dev/mailbox').expect(200);
    const list = res.body as Array<Record<string, unknown>>;
    assert.deepEqual(
      list.map(({ id: _id, sentAt: _at, ...rest }) => rest),
      [
        {
          from: 'authguard <no-reply@localhost>',
          to: 'bob@example.com',
          subject: 'Reset',
          text: 'open the link',
          html: '<a href="x">link</a>',
        },
        { from: 'authguard <no-reply@localhost>', to: 'alice@example.com', subject: 'Verify', text: 'code 482913' },
      ],
    );
    for (const m of list) {
      assert.match(String(m.id), /^[0-9a-f-]{36}$/);
      assert.ok(!Number.isNaN(Date.parse(String(m.sentAt))), String(m.sentAt));
    }
    await request(apps.admin.app.callback()).get('/dev/mailbox').expect(404);
  });
});

describe('GET /dev/mailbox is not mounted where the embedded mailbox is not the mailer', () => {
  it('with svc.mail.smtp-url (test profile): 404, and not in the route table', async () => {
    const config = testConfig({ 'svc.mail.smtp-url': 'smtp://mailer:pw@127.0.0.1:2525' });
    const infra = testInfra(config, { label: 'dev-mailbox-smtp' });
    try {
      const { web } = buildBoth(config, infra);
      const res = await request(web.app.callback()).get('/dev/mailbox').expect(404);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.ok(!web.routes.some((r) => r.path.startsWith('/dev/')));
    } finally {
      await infra.dispose();
    }
  });

  it('the dev profile mounts it by default (no SMTP URL there)', async () => {
    const config = loadConfig({ env: { APP_PROFILE: 'dev' }, overrides: { 'svc.crypto.worker-threads': 1 } });
    const infra = testInfra(config, { label: 'dev-mailbox-dev' });
    try {
      const { web } = buildBoth(config, infra);
      await request(web.app.callback()).get('/dev/mailbox').expect(200);
    } finally {
      await infra.dispose();
    }
  });
});
