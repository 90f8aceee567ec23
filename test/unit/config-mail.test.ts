/**
 * Prod refuses to start with svc.web.require-verified-email=true and no svc.mail.smtp-url: no
 * member could receive the code that verifies their e-mail, so none could log in. The problem
 * names both keys and their variables.
 */
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/main/config';
import { emptyConfigDir, problemsOf } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const SMTP = 'smtps://mailer:smtp-password@mail.example.com';

describe('svc.web.require-verified-email needs svc.mail.smtp-url in prod', () => {
  it('refuses the start, naming both keys and their variables', () => {
    const problems = problemsOf(prodEnv({ SVC_WEB_REQUIRE_VERIFIED_EMAIL: 'true' }));
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.ok(
      (problems[0] ?? '').startsWith(
        'svc.mail.smtp-url (SVC_MAIL_SMTP_URL): required in prod while ' +
          'svc.web.require-verified-email (SVC_WEB_REQUIRE_VERIFIED_EMAIL) is true',
      ),
      problems[0],
    );
  });

  it('starts with an SMTP URL, or without requiring verified e-mail, or outside prod', () => {
    const load = (env: Record<string, string>) => loadConfig({ env, configDir: emptyConfigDir() });
    assert.equal(
      load(prodEnv({ SVC_WEB_REQUIRE_VERIFIED_EMAIL: 'true', SVC_MAIL_SMTP_URL: SMTP })).raw['svc.web.require-verified-email'],
      true,
    );
    assert.equal(load(prodEnv({ SVC_WEB_REQUIRE_VERIFIED_EMAIL: 'false' })).raw['svc.mail.smtp-url'], '');
    for (const profile of ['dev', 'test']) {
      const c = load({ APP_PROFILE: profile, SVC_WEB_REQUIRE_VERIFIED_EMAIL: 'true' });
      assert.equal(c.raw['svc.web.require-verified-email'], true, `${profile}: the embedded mailbox receives the codes`);
    }
  });
});
