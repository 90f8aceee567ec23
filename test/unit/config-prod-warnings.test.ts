/**
 * Prod settings that start but are weaker than they could be are named at start, as warnings
 * (createInfrastructure logs every configWarnings line): the captcha off, apps that may sign
 * with v1, the legacy default scheme, and no mail server.
 */
import assert from 'node:assert/strict';
import { configWarnings, loadConfig } from '../../src/main/config';
import { emptyConfigDir } from '../support/config-problems';
import { prodEnv } from '../support/prod-env';

const warningsOf = (env: Record<string, string>): string[] => configWarnings(loadConfig({ env, configDir: emptyConfigDir() }));
/** A mail server, so that the warning about its absence stays out of the tests of the others. */
const SMTP = { SVC_MAIL_SMTP_URL: 'smtps://mailer:smtp-password@mail.example.com' };
const MAIL = /^svc\.mail\.smtp-url \(SVC_MAIL_SMTP_URL\) is not set in prod: no e-mail can be sent/;
const CAPTCHA = /^svc\.captcha\.enabled \(SVC_CAPTCHA_ENABLED\) is false in prod/;
const V1 = /^svc\.security\.sign\.schemes \(SVC_SECURITY_SIGN_SCHEMES\): .* may sign with v1, the legacy default scheme/;

describe('prod start warnings', () => {
  it('the captcha off in prod is a warning, not a refusal', () => {
    const warnings = warningsOf(
      prodEnv({
        ...SMTP,
        SVC_CAPTCHA_ENABLED: 'false',
        SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421"}',
        SVC_SECURITY_SIGN_PUBLIC_URLS: '{"web":"https://api.example.com","admin":"https://admin.example.com"}',
      }),
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', CAPTCHA);
  });

  it('an app that may sign with v1 (given no schemes, the default, or v1 listed) is named in one warning', () => {
    const apps = '{"partner":"0123456789abcdef0123","legacy":"fedcba98765432100123","modern":"0f1e2d3c4b5a69788796"}';
    const warnings = warningsOf(
      prodEnv({
        ...SMTP,
        SVC_SECURITY_SIGN_APPS: apps,
        SVC_SECURITY_SIGN_SCHEMES: '{"legacy":"v1,rfc9421","modern":"rfc9421"}',
        SVC_SECURITY_SIGN_PUBLIC_URLS: '{"web":"https://api.example.com","admin":"https://admin.example.com"}',
      }),
    );
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', V1);
    assert.match(warnings[0] ?? '', /^[^:]+: "partner", "legacy" may sign/);
    assert.ok(!(warnings[0] ?? '').includes('"modern"'));
    assert.match(warningsOf(prodEnv(SMTP))[0] ?? '', V1, 'the shared prod fixture: partner with the default scheme');
  });

  it('no warning with the captcha on and every app on rfc9421, with signing off, or outside prod', () => {
    const urls = '{"web":"https://api.example.com","admin":"https://admin.example.com"}';
    assert.deepEqual(
      warningsOf(prodEnv({ ...SMTP, SVC_SECURITY_SIGN_SCHEMES: '{"partner":"rfc9421"}', SVC_SECURITY_SIGN_PUBLIC_URLS: urls })),
      [],
    );
    assert.deepEqual(warningsOf(prodEnv({ ...SMTP, SVC_SECURITY_SIGN_ENABLED: 'false' })), []);
    assert.deepEqual(
      warningsOf({ APP_PROFILE: 'test', SVC_CAPTCHA_ENABLED: 'false', SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123"}' }),
      [],
    );
    assert.deepEqual(
      warningsOf({ APP_PROFILE: 'dev', SVC_CAPTCHA_ENABLED: 'false', SVC_SECURITY_SIGN_APPS: '{"partner":"0123456789abcdef0123"}' }),
      [],
    );
  });

  it('no svc.mail.smtp-url in prod is a warning naming it (the routes that send mail answer 503), not a refusal', () => {
    const warnings = warningsOf(prodEnv({ SVC_SECURITY_SIGN_ENABLED: 'false' }));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(warnings[0] ?? '', MAIL);
    assert.match(warnings[0] ?? '', /503 mail-unavailable/);
    assert.deepEqual(warningsOf({ APP_PROFILE: 'dev' }), [], 'dev and test use the embedded mailbox without a word');
    assert.deepEqual(warningsOf({ APP_PROFILE: 'test' }), []);
  });
});
